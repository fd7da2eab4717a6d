#!/usr/bin/env bash
# Load an LDBC SNB Interactive csv_composite data set into a Neo4j home, independently of
# kith: convert.py rewrites the official CSVs with Neo4j headers, `neo4j.sh import` bulk
# imports them, then a uniqueness constraint on `id` for every label (as the official
# indices-neo4j4.cypher declares, and as kith's `(label, id)` key is) and indexes on `name`
# for Tag, TagClass and Country are created and awaited, and the server is stopped again.
#
# usage: load.sh SRC_DIR NEO4J_HOME [PORT]      (PORT defaults to 7698)
# env:   KEEP_RUNNING=1 (leave the server up), and neo4j.sh's NEO4J_PEER_HEAP / ...
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
peer_dir=$(cd "$here/.." && pwd)
peer="$peer_dir/neo4j.sh"
die() { echo "load.sh: error: $*" >&2; exit 1; }
note() { echo "load.sh: $*" >&2; }

(( $# == 2 || $# == 3 )) || die "usage: load.sh SRC_DIR NEO4J_HOME [PORT]"
src=$1 home=$2 port=${3:-7698}
[[ -d $src/static && -d $src/dynamic ]] || die "$src does not hold static/ and dynamic/ (the csv_composite layout)"
mkdir -p "$home"
home=$(cd "$home" && pwd)
if "$peer" status "$home" >/dev/null 2>&1; then
  die "a Neo4j server is running on $home; stop it first: $peer stop $home"
fi
t0=$(date +%s)
rm -rf "$home/csv"
python3 "$here/convert.py" "$src" "$home/csv" >"$home/import-args.txt"
mapfile -t import_args <"$home/import-args.txt"
"$peer" import "$home" "${import_args[@]}"
"$peer" start "$home" "$port"
"$peer" venv
if ! "$peer_dir/.venv/bin/python" - "$port" <<'PY'
import sys
import neo4j

port = int(sys.argv[1])
labels = ["Person", "Forum", "Message", "Post", "Comment", "Tag", "TagClass", "Place", "City",
          "Country", "Continent", "Organisation", "University", "Company"]
with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{port}", auth=None) as driver:
    with driver.session(database="neo4j") as s:
        for label in labels:
            s.run(f"CREATE CONSTRAINT {label.lower()}_id IF NOT EXISTS "
                  f"FOR (n:`{label}`) REQUIRE n.id IS UNIQUE").consume()
        for label in ["Tag", "TagClass", "Country"]:
            s.run(f"CREATE INDEX {label.lower()}_name IF NOT EXISTS FOR (n:`{label}`) ON (n.name)").consume()
        s.run("CREATE INDEX person_first_name IF NOT EXISTS FOR (n:Person) ON (n.firstName)").consume()
        s.run("CALL db.awaitIndexes(600)").consume()
        nodes = s.run("MATCH (n) RETURN count(n) AS c").single()["c"]
        rels = s.run("MATCH ()-[r]->() RETURN count(r) AS c").single()["c"]
        print(f"load.sh: database holds {nodes} nodes and {rels} relationships", file=sys.stderr)
PY
then
  "$peer" stop "$home" || true
  die "creating the indexes failed"
fi
if [[ -z ${KEEP_RUNNING:-} ]]; then
  "$peer" stop "$home"
else
  note "left running on bolt://127.0.0.1:$port (stop it with: $peer stop $home)"
fi
note "loaded $src into $home in $(( $(date +%s) - t0 )) s"
