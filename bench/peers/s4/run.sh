#!/usr/bin/env bash
# S4 side by side, one command: kith, PostgreSQL 15 (reference SQL), Neo4j 5.26, FalkorDB
# and Ladybug on the same LDBC data set, on this machine, in one run.
#
#   bench/peers/s4/run.sh WORK [--quick | --data DIR]
#
# 1. data: SF0.1 (unpacked from ../shared/data into WORK/data), or with --quick the
#    official test data set, or with --data an LDBC data set of your own (DIR holds
#    social_network/, substitution_parameters/ and update_streams/ as the SF0.1 archive
#    does, e.g. an SF1 made by bench/ldbc-datagen/generate.sh; named by DIR's last part);
# 2. loads every system, timing it (S4 Table 4): kith load ldbc, load.py (the reference
#    PostgreSQL load), Neo4j's bulk import + indexes (bench/peers/neo4j/ldbc/load.sh),
#    Ladybug's COPY of the whole graph (bench/peers/ladybug/load.py), FalkorDB's batched
#    Cypher (bench/peers/falkordb/load.py; its server needs Python 3.12, falkordb.sh);
# 3. checks answers: the 21 official SQL texts on PostgreSQL against kith, case by case
#    (bench/peers/postgres/check.py; Neo4j's answers are the oracle fixtures kith already
#    equals, crates/kith-ldbc/tests/oracle.rs; for --data the fixtures are made in this run
#    from the Neo4j just loaded, bench/peers/neo4j/ldbc/oracle.py, into WORK/fixtures, and
#    check.py also compares kith with them);
# 4. S4 Tables 2 and 3 (micro.py): the four micro-queries on kith native, kith Cypher over
#    WebSocket and over Bolt, Neo4j, PostgreSQL, FalkorDB and Ladybug (embedded), answers checked
#    equal to kith's;
#    and the 21 LDBC reads on kith, PostgreSQL and Neo4j with the same calls (reads.py);
# 5. S4 Figure 3 (realtime.py): a Kafka broker (scripts/kafka/broker) gets the data set's
#    update stream once (kith produce ldbc); then per system and reader count (1, 4, 16,
#    32; --quick 1 and 4) a fresh copy of the loaded state consumes the topic from its
#    start with one writer (kith: serve --ingest; PostgreSQL: the reference IU SQL texts;
#    Neo4j: the official IU Cypher texts) while the readers run S4's mix;
# 6. --quick only: PostgreSQL's writer drains the whole stream, and the 21 reads are
#    checked again, against kith after its own ingest and the after-updates fixtures;
# 7. stops everything (also on failure) and writes WORK/s4.json and WORK/s4.md.
#
# --quick (CI): the test data set, 20 calls per micro-query, 4 s per Figure 3 point; fails
# unless every system answered every call and agreed. Env: S4_SECONDS (Figure 3 seconds
# per point, default 20), S4_READERS (default "1 4 16 32"), S4_PARAMS (--data: parameter
# lines per query, default 15). Env: KITH_BIN (default: cargo build --release),
# S4_PY (a Python with requirements.txt installed; default: WORK/venv made here).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
shared=$(cd "$repo/../shared" && pwd)
die() { echo "s4/run.sh: error: $*" >&2; exit 1; }
note() { echo "s4/run.sh: $*" >&2; }

usage="usage: run.sh WORK [--quick | --data DIR]"
(( $# >= 1 )) || die "$usage"
work=$1
quick=0 data=""
case "${2:-}|$#" in
  "|1") ;;
  "--quick|2") quick=1 ;;
  "--data|3") data=$(cd "$3" 2>/dev/null && pwd) || die "--data $3: no such directory" ;;
  *) die "$usage (got: $*)" ;;
esac
if [[ -n $data ]]; then
  for part in social_network/dynamic social_network/static substitution_parameters update_streams; do
    [[ -d $data/$part ]] || die "--data $data has no $part/: an LDBC data set laid out as ../shared/data's SF0.1 archive is wanted"
  done
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
chmod o+x "$work"  # PostgreSQL runs as its own user and keeps its data in WORK/postgres

if (( quick )); then
  dataset=test src="$shared/data/ldbc-snb-interactive-test/vanilla"
  params="$shared/data/ldbc-snb-interactive-test/substitution_parameters" runs=20 warmup=3
  streams="$shared/data/ldbc-snb-interactive-test/update_streams" levels="1 4" seconds=4
elif [[ -n $data ]]; then
  # The first S4_PARAMS lines of each parameter file (default 15, as many as SF0.1 has): at
  # SF1 datagen writes 98, and PostgreSQL's IC13/IC14 texts take up to their timeout each.
  dataset=$(basename "$data") src="$data/social_network" params="$work/params"
  mkdir -p "$params"
  for f in "$data"/substitution_parameters/*.txt; do
    head -n $((${S4_PARAMS:-15} + 1)) "$f" >"$params/$(basename "$f")"
  done
  streams="$data/update_streams" runs=${S4_RUNS:-100} warmup=10
  levels=${S4_READERS:-1 4 16 32} seconds=${S4_SECONDS:-20}
else
  dataset=sf0.1 src="$work/data/sf0.1/social_network" params="$work/data/sf0.1/substitution_parameters"
  streams="$work/data/sf0.1/update_streams" runs=${S4_RUNS:-100} warmup=10
  levels=${S4_READERS:-1 4 16 32} seconds=${S4_SECONDS:-20}
  if [[ ! -d $src ]]; then
    mkdir -p "$work/data"
    zstd -dc "$shared/data/ldbc-snb-sf0.1-datagen.tar.zst" | tar -x -C "$work/data"
  fi
fi
fixtures="$repo/crates/kith-ldbc/tests/fixtures/$dataset"
[[ -n $data ]] && fixtures="$work/fixtures/$dataset"

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
rt_port=$(free_port) kafka_port=$(free_port) fk_port=$(free_port)
kith_pid=""
stop_kith() { [[ -n $kith_pid ]] && { kill "$kith_pid" 2>/dev/null; wait "$kith_pid" 2>/dev/null || true; }; kith_pid=""; }
cleanup() {
  stop_kith
  "$repo/bench/peers/postgres/postgres.sh" stop "$work/postgres" 2>/dev/null || true
  "$repo/bench/peers/neo4j/neo4j.sh" stop "$work/neo4j" >/dev/null 2>&1 || true
  "$repo/bench/peers/neo4j/neo4j.sh" stop "$work/rt/neo4j" >/dev/null 2>&1 || true
  "$repo/scripts/kafka/broker" stop "$work/kafka" >/dev/null 2>&1 || true
  "$repo/bench/peers/falkordb/falkordb.sh" stop "$work/falkordb" 2>/dev/null || true
}
trap cleanup EXIT

seconds() { date +%s.%N; }
elapsed() { "$py" -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 3))" "$1" "$(seconds)"; }

loads=()
timed_load() {  # timed_load SYSTEM CMD...: run the load, its output in WORK/SYSTEM-load.log, time it (Table 4)
  local system=$1 t
  shift
  t=$(seconds)
  "$@" >"$work/$system-load.log" 2>&1 || die "the $system load failed: $work/$system-load.log"
  loads+=(--load "$system=$(elapsed "$t")")
}

note "loading $dataset into kith"
rm -rf "$work/kith"
timed_load kith "$kith" load ldbc "$src" --out "$work/kith"

note "loading $dataset into PostgreSQL (the reference schema, load, indexes, foreign keys)"
"$repo/bench/peers/postgres/postgres.sh" start "$work/postgres" "$pg_port"
timed_load postgres "$py" "$repo/bench/peers/postgres/load.py" "$src" --port "$pg_port" --summary "$work/postgres-load.json"

note "loading $dataset into Neo4j (bulk import, indexes)"
"$repo/bench/peers/neo4j/neo4j.sh" build >/dev/null
rm -rf "$work/neo4j"
KEEP_RUNNING=1 timed_load neo4j "$repo/bench/peers/neo4j/ldbc/load.sh" "$src" "$work/neo4j" "$neo_port"
if [[ -n $data ]]; then
  note "the oracle's answers on $dataset: the spec-written Cypher on the Neo4j just loaded (into $fixtures)"
  "$repo/bench/peers/neo4j/neo4j.sh" venv >/dev/null
  "$repo/bench/peers/neo4j/.venv/bin/python" "$repo/bench/peers/neo4j/ldbc/oracle.py" --port "$neo_port" \
    --src "$src" --params "$params" --dataset "$dataset" --out "$fixtures" 2>"$work/oracle.log" ||
    die "the Neo4j oracle failed: $work/oracle.log"
fi

note "loading $dataset into Ladybug (embedded, the whole graph by COPY)"
timed_load ladybug "$py" "$repo/bench/peers/ladybug/load.py" "$src" "$work/ladybug.db" --summary "$work/ladybug-load.json"

note "loading $dataset into FalkorDB (batched Cypher, indexes on id)"
"$repo/bench/peers/falkordb/falkordb.sh" start "$work/falkordb" "$fk_port"
timed_load falkordb "$py" "$repo/bench/peers/falkordb/load.py" "$src" --port "$fk_port" --summary "$work/falkordb-load.json"

serve() {  # serve DIR [--bolt-listen ADDR]: kith on ws_port, answering once it listens
  "$kith" serve --data "$1" --listen "127.0.0.1:$ws_port" --bolt-listen "${2:-off}" >>"$work/kith-serve.log" 2>&1 &
  kith_pid=$!
  for _ in $(seq 100); do
    "$py" -c "import socket,sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 1)" "$ws_port" 2>/dev/null && return 0
    sleep 0.2
  done
  die "kith did not start on $1: $work/kith-serve.log"
}
pg() { "$py" -c "import psycopg,sys; c=psycopg.connect(host='127.0.0.1', port=int(sys.argv[1]), user='postgres', dbname='postgres', autocommit=True); [c.execute(q) for q in sys.argv[2:]]" "$pg_port" "$@"; }
serve "$work/kith" "127.0.0.1:$bolt_port"

note "checking PostgreSQL's answers to the 21 official SQL texts against kith's"
"$py" "$repo/bench/peers/postgres/check.py" --port "$pg_port" --kith "ws://127.0.0.1:$ws_port/v1/ws" \
  --fixtures "$fixtures" --timeout-s "${S4_CHECK_TIMEOUT_S:-30}" --report "$work/check.json"

note "S4 Tables 2 and 3: the micro-queries on every system ($runs calls each)"
"$py" "$here/micro.py" --data "$src" --params "$params" --out "$work/micro.json" --runs "$runs" --warmup "$warmup" \
  --kith "ws://127.0.0.1:$ws_port/v1/ws" --kith-bolt "bolt://127.0.0.1:$bolt_port" \
  --neo4j "bolt://127.0.0.1:$neo_port" --postgres "$pg_port" --falkordb "$fk_port" --ladybug "$work/ladybug.db"
"$repo/bench/peers/falkordb/falkordb.sh" stop "$work/falkordb"  # the micro-queries were its part

note "the 21 LDBC reads on kith, PostgreSQL (official SQL) and Neo4j (official Cypher), same calls"
"$py" "$here/reads.py" --fixtures "$fixtures" --out "$work/reads.json" --kith "ws://127.0.0.1:$ws_port/v1/ws" \
  --postgres "$pg_port" --neo4j "bolt://127.0.0.1:$neo_port" --timeout-s "${S4_READ_TIMEOUT_S:-10}"

stop_kith
"$repo/bench/peers/neo4j/neo4j.sh" stop "$work/neo4j" >/dev/null  # its store is copied below

note "S4 Figure 3: the update stream through Kafka, one writer, readers: $levels ($seconds s each)"
rm -rf "$work/kafka"  # a fresh broker and topic each run (a rerun in WORK must not append the stream twice)
kafka=$("$repo/scripts/kafka/broker" start "$work/kafka" "$kafka_port")
topic="kafka://$kafka/s4-$dataset"
"$kith" produce ldbc "$streams" "$topic" >&2
events=$("$py" -c "import glob,sys; print(sum(1 for f in glob.glob(sys.argv[1] + '/updateStream_*.csv') for l in open(f) if l.strip()))" "$streams")
rt=(--topic "$topic" --events "$events" --data "$src" --params "$params")
mkdir -p "$work/realtime"
fresh_kith() { rm -rf "$work/rt/kith" && mkdir -p "$work/rt" && cp -a "$work/kith" "$work/rt/kith" && rm -f "$work/rt/kith/LOCK"; }
kith_ingest="$kith serve --data $work/rt/kith --listen 127.0.0.1:$rt_port --bolt-listen off --ingest $topic"
kith_rt=(--kith-ws "ws://127.0.0.1:$rt_port/v1/ws" --kith-http "http://127.0.0.1:$rt_port" --kith-serve "$kith_ingest" --kith-log "$work/kith-serve.log")
for n in $levels; do
  fresh_kith
  "$py" "$here/realtime.py" --system kith --readers "$n" --seconds "$seconds" "${rt[@]}" "${kith_rt[@]}" --out "$work/realtime/kith-$n.json"
  pg 'DROP DATABASE IF EXISTS rt' 'CREATE DATABASE rt TEMPLATE ldbc'
  "$py" "$here/realtime.py" --system postgres --readers "$n" --seconds "$seconds" "${rt[@]}" --postgres "$pg_port" --db rt --out "$work/realtime/postgres-$n.json"
  rm -rf "$work/rt/neo4j" && mkdir -p "$work/rt/neo4j" && cp -a "$work/neo4j/data" "$work/neo4j/conf" "$work/rt/neo4j/"
  "$repo/bench/peers/neo4j/neo4j.sh" start "$work/rt/neo4j" "$neo_port" >/dev/null
  "$py" "$here/realtime.py" --system neo4j --readers "$n" --seconds "$seconds" "${rt[@]}" --neo4j "bolt://127.0.0.1:$neo_port" --out "$work/realtime/neo4j-$n.json"
  "$repo/bench/peers/neo4j/neo4j.sh" stop "$work/rt/neo4j" >/dev/null
done

if (( quick )); then
  note "the whole stream ($events events) through each writer, then the 21 reads again"
  fresh_kith
  "$py" "$here/realtime.py" --system kith --readers 0 --seconds 120 --drain "$events" "${rt[@]}" "${kith_rt[@]}" --out "$work/realtime/kith-drain.json"
  pg 'DROP DATABASE IF EXISTS drained' 'CREATE DATABASE drained TEMPLATE ldbc'
  "$py" "$here/realtime.py" --system postgres --readers 0 --seconds 600 --drain "$events" "${rt[@]}" --postgres "$pg_port" --db drained --out "$work/realtime/postgres-drain.json"
  serve "$work/rt/kith"
  "$py" "$repo/bench/peers/postgres/check.py" --port "$pg_port" --db drained --kith "ws://127.0.0.1:$ws_port/v1/ws" \
    --fixtures "$fixtures-after-updates" --timeout-s 30 --report "$work/check-after-updates.json"
  stop_kith
fi

"$py" "$here/summary.py" --work "$work" --dataset "$dataset" "${loads[@]}"
note "done: $work/s4.md"
