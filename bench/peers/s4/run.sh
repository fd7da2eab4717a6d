#!/usr/bin/env bash
# S4 side by side, one command: kith, PostgreSQL 15 (reference SQL) and Neo4j 5.26 on the
# same LDBC data set, on this machine, in one run.
#
#   bench/peers/s4/run.sh WORK [--quick]
#
# 1. data: SF0.1 (unpacked from ../shared/data into WORK/data), or with --quick the
#    official test data set;
# 2. loads every system, timing it (S4 Table 4): kith load ldbc, load.py (the reference
#    PostgreSQL load), Neo4j's bulk import + indexes (bench/peers/neo4j/ldbc/load.sh);
# 3. checks answers: the 21 official SQL texts on PostgreSQL against kith, case by case
#    (bench/peers/postgres/check.py; Neo4j's answers are the oracle fixtures kith already
#    equals, crates/kith-ldbc/tests/oracle.rs);
# 4. S4 Tables 2 and 3 (micro.py): the four micro-queries on kith native, kith Cypher over
#    WebSocket and over Bolt, Neo4j and PostgreSQL, answers checked equal to kith's;
# 5. stops everything (also on failure) and writes WORK/s4.json and WORK/s4.md.
#
# --quick (CI): the test data set, 20 calls per micro-query; fails unless every system
# answered every call and agreed. Env: KITH_BIN (default: cargo build --release),
# S4_PY (a Python with requirements.txt installed; default: WORK/venv made here).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
shared=$(cd "$repo/../shared" && pwd)
die() { echo "s4/run.sh: error: $*" >&2; exit 1; }
note() { echo "s4/run.sh: $*" >&2; }

(( $# >= 1 )) || die "usage: run.sh WORK [--quick]"
work=$1
quick=0
[[ ${2:-} == --quick ]] && quick=1
[[ $# -le 2 && (${2:-} == "" || $quick == 1) ]] || die "usage: run.sh WORK [--quick] (got: $*)"
mkdir -p "$work"
work=$(cd "$work" && pwd)
chmod o+x "$work"  # PostgreSQL runs as its own user and keeps its data in WORK/postgres

if (( quick )); then
  dataset=test src="$shared/data/ldbc-snb-interactive-test/vanilla"
  params="$shared/data/ldbc-snb-interactive-test/substitution_parameters" runs=20 warmup=3
else
  dataset=sf0.1 src="$work/data/sf0.1/social_network" params="$work/data/sf0.1/substitution_parameters"
  runs=${S4_RUNS:-100} warmup=10
  if [[ ! -d $src ]]; then
    mkdir -p "$work/data"
    zstd -dc "$shared/data/ldbc-snb-sf0.1-datagen.tar.zst" | tar -x -C "$work/data"
  fi
fi
fixtures="$repo/crates/kith-ldbc/tests/fixtures/$dataset"

kith=${KITH_BIN:-}
if [[ -z $kith ]]; then
  (cd "$repo" && cargo build --release --locked -q -p kith-cli --bin kith)
  kith="$repo/target/release/kith"
fi
py=${S4_PY:-}
if [[ -z $py ]]; then
  [[ -x $work/venv/bin/python ]] || python3 -m venv "$work/venv"
  "$work/venv/bin/python" -m pip install -q --disable-pip-version-check -r "$here/requirements.txt" "$repo/clients/python"
  py="$work/venv/bin/python"
fi

free_port() { "$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ws_port=$(free_port) bolt_port=$(free_port) pg_port=$(free_port) neo_port=$(free_port)
kith_pid=""
cleanup() {
  [[ -n $kith_pid ]] && { kill "$kith_pid" 2>/dev/null; wait "$kith_pid" 2>/dev/null || true; }
  "$repo/bench/peers/postgres/postgres.sh" stop "$work/postgres" 2>/dev/null || true
  "$repo/bench/peers/neo4j/neo4j.sh" stop "$work/neo4j" >/dev/null 2>&1 || true
}
trap cleanup EXIT

seconds() { date +%s.%N; }
elapsed() { "$py" -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 3))" "$1" "$(seconds)"; }

note "loading $dataset into kith"
rm -rf "$work/kith"
t=$(seconds)
"$kith" load ldbc "$src" --out "$work/kith" >"$work/kith-load.log" 2>&1 || die "kith load failed: $work/kith-load.log"
kith_load=$(elapsed "$t")

note "loading $dataset into PostgreSQL (the reference schema, load, indexes, foreign keys)"
"$repo/bench/peers/postgres/postgres.sh" start "$work/postgres" "$pg_port"
t=$(seconds)
"$py" "$repo/bench/peers/postgres/load.py" "$src" --port "$pg_port" --summary "$work/postgres-load.json" 2>"$work/postgres-load.log" ||
  die "PostgreSQL load failed: $work/postgres-load.log"
pg_load=$(elapsed "$t")

note "loading $dataset into Neo4j (bulk import, indexes)"
"$repo/bench/peers/neo4j/neo4j.sh" build >/dev/null
rm -rf "$work/neo4j"
t=$(seconds)
KEEP_RUNNING=1 "$repo/bench/peers/neo4j/ldbc/load.sh" "$src" "$work/neo4j" "$neo_port" 2>"$work/neo4j-load.log" ||
  die "Neo4j load failed: $work/neo4j-load.log"
neo_load=$(elapsed "$t")

"$kith" serve --data "$work/kith" --listen "127.0.0.1:$ws_port" --bolt-listen "127.0.0.1:$bolt_port" >"$work/kith-serve.log" 2>&1 &
kith_pid=$!
for _ in $(seq 100); do
  "$py" -c "import socket,sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 1)" "$bolt_port" 2>/dev/null && break
  sleep 0.2
done

note "checking PostgreSQL's answers to the 21 official SQL texts against kith's"
"$py" "$repo/bench/peers/postgres/check.py" --port "$pg_port" --kith "ws://127.0.0.1:$ws_port/v1/ws" \
  --fixtures "$fixtures" --timeout-s "${S4_CHECK_TIMEOUT_S:-30}" --report "$work/check.json"

note "S4 Tables 2 and 3: the micro-queries on every system ($runs calls each)"
"$py" "$here/micro.py" --data "$src" --params "$params" --out "$work/micro.json" --runs "$runs" --warmup "$warmup" \
  --kith "ws://127.0.0.1:$ws_port/v1/ws" --kith-bolt "bolt://127.0.0.1:$bolt_port" \
  --neo4j "bolt://127.0.0.1:$neo_port" --postgres "$pg_port"

"$py" "$here/summary.py" --work "$work" --dataset "$dataset" \
  --load "kith=$kith_load" --load "postgres=$pg_load" --load "neo4j=$neo_load"
note "done: $work/s4.md"
