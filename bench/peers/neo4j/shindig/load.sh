#!/usr/bin/env bash
# Load a kith Shindig data directory into a Neo4j home for the S1 peer benchmark:
#   1. kith export DATA_DIR --out NEO4J_HOME/csv   (Neo4j bulk-import CSVs + import-args.txt)
#   2. neo4j.sh import NEO4J_HOME $(cat import-args.txt)
#   3. neo4j.sh start NEO4J_HOME PORT
#   4. a uniqueness constraint on `id` for every label of the export, then db.awaitIndexes()
#   5. neo4j.sh stop NEO4J_HOME   (unless KEEP_RUNNING=1: then the server stays up on PORT)
#
# usage: load.sh DATA_DIR NEO4J_HOME [PORT]        (PORT defaults to 7699)
# env:   KITH (default: target/release/kith of this repository), KEEP_RUNNING=1,
#        and neo4j.sh's own NEO4J_PEER_HEAP / NEO4J_PEER_PAGECACHE / ...
# See README.md beside this file.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
peer_dir=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../../.." && pwd)
peer="$peer_dir/neo4j.sh"
KITH=${KITH:-$repo/target/release/kith}

die() { echo "load.sh: error: $*" >&2; exit 1; }
note() { echo "load.sh: $*" >&2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

(( $# == 2 || $# == 3 )) || die "usage: load.sh DATA_DIR NEO4J_HOME [PORT]"
data=$1 home=$2 port=${3:-7699}
[[ -d $data ]] || die "no such data directory: $data (make one with: $KITH generate shindig --scale 1 --out DIR)"
[[ -x $KITH ]] || die "kith binary not found at $KITH (set KITH)"
mkdir -p "$home"
home=$(cd "$home" && pwd)
if "$peer" status "$home" >/dev/null 2>&1; then
  die "a Neo4j server is running on $home; stop it first: $peer stop $home"
fi

t_all=$(now)

# 1. export
t0=$(now)
csv="$home/csv"
rm -rf "$csv"
"$KITH" export "$data" --out "$csv" >&2
[[ -f $csv/import-args.txt ]] || die "kith export wrote no $csv/import-args.txt"
t_export=$(since "$t0")

# 2. import (the exact arguments kith export wrote, one per line)
t0=$(now)
mapfile -t import_args <"$csv/import-args.txt"
"$peer" import "$home" "${import_args[@]}"
t_import=$(since "$t0")

# Labels of the export: --nodes=Label=file.csv
labels=()
for a in "${import_args[@]}"; do
  if [[ $a == --nodes=* ]]; then
    spec=${a#--nodes=}
    labels+=("${spec%%=*}")
  fi
done
(( ${#labels[@]} > 0 )) || die "no --nodes arguments in $csv/import-args.txt"

# 3. start
t0=$(now)
"$peer" start "$home" "$port"
t_start=$(since "$t0")

# 4. constraints (one driver session for all statements)
t0=$(now)
"$peer" venv
if ! "$peer_dir/.venv/bin/python" - "$port" "${labels[@]}" <<'PY'
import sys
import neo4j

port, labels = int(sys.argv[1]), sys.argv[2:]
with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{port}", auth=None) as driver:
    with driver.session(database="neo4j") as s:
        for label in labels:
            name = f"{label.lower()}_id"
            s.run(f"CREATE CONSTRAINT {name} IF NOT EXISTS FOR (n:`{label}`) REQUIRE n.id IS UNIQUE").consume()
        s.run("CALL db.awaitIndexes(600)").consume()
        rows = s.run(
            "SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties "
            "RETURN name, type, labelsOrTypes[0] AS label, properties ORDER BY label").data()
        for r in rows:
            print(f"load.sh: constraint {r['name']}: {r['type']} on :{r['label']}{r['properties']}", file=sys.stderr)
        idx = s.run("SHOW INDEXES YIELD name, state, populationPercent "
                    "WHERE state <> 'ONLINE' RETURN count(*) AS notOnline").single()["notOnline"]
        if idx:
            sys.exit(f"load.sh: {idx} index(es) not ONLINE after db.awaitIndexes")
        counts = s.run("MATCH (n) RETURN count(n) AS nodes").single()["nodes"], \
                 s.run("MATCH ()-[r]->() RETURN count(r) AS rels").single()["rels"]
        print(f"load.sh: database holds {counts[0]} nodes and {counts[1]} relationships", file=sys.stderr)
PY
then
  "$peer" stop "$home" || true
  die "creating the constraints failed"
fi
t_constraints=$(since "$t0")

# 5. stop, unless asked to keep it running
t_stop=0
if [[ -z ${KEEP_RUNNING:-} ]]; then
  t0=$(now)
  "$peer" stop "$home"
  t_stop=$(since "$t0")
else
  note "left running on bolt://127.0.0.1:$port (stop it with: $peer stop $home)"
fi

note "done in $(since "$t_all") s: export $t_export s, import $t_import s, start $t_start s, constraints+awaitIndexes $t_constraints s, stop $t_stop s"
note "store: $(du -sh "$home/data" | cut -f1) in $home/data"
