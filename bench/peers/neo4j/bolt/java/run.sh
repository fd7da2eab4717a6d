#!/usr/bin/env bash
# IS1 throughput through Neo4j's Java driver (5.x), many sessions, against kith's Bolt
# server and then Neo4j's, one after the other (never both at once: they would share
# the cores). Builds the program first (Maven; the first build downloads the driver).
#
#   QUERIES=/tmp/ldbc-bench/run/queries.json bench/peers/neo4j/bolt/java/run.sh
#
# Environment (defaults in brackets):
#   QUERIES     parameter file: queries.json of `kith bench ldbc --out RUN`, or a CSV with personId (required)
#   TEXT        the IS1 text [../shared/data/ldbc-cypher/interactive-short-1.cypher beside the repo]
#   KITH_BOLT   kith's Bolt URL [bolt://127.0.0.1:7687]; empty skips kith
#   NEO4J_BOLT  Neo4j's Bolt URL [bolt://127.0.0.1:7698]; empty skips Neo4j
#   BENCH_THREADS [1,8,32,128]  BENCH_SECONDS [30]  BENCH_WARMUP [5]  BOLT_USER [neo4j]  BOLT_PASSWORD [neo4j-peer]
#   BENCH_JAVA_OPTS  extra JVM flags
# Prints one JSON line per server and thread count.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../../.." && pwd)
: "${QUERIES:?set QUERIES to a parameter file (queries.json of kith bench ldbc, or a CSV with personId)}"
TEXT=${TEXT:-$repo/../shared/data/ldbc-cypher/interactive-short-1.cypher}
KITH_BOLT=${KITH_BOLT-bolt://127.0.0.1:7687}
NEO4J_BOLT=${NEO4J_BOLT-bolt://127.0.0.1:7698}

# shellcheck source=lib.sh
. "$here/lib.sh"
build

bench() {
  local name=$1 url=$2
  [ -n "$url" ] || return 0
  run_class Is1Throughput --name "$name" --url "$url" --queries "$QUERIES" --text "$TEXT" \
    --threads "${BENCH_THREADS:-1,8,32,128}" --seconds "${BENCH_SECONDS:-30}" --warmup "${BENCH_WARMUP:-5}"
}
bench kith "$KITH_BOLT"
bench neo4j "$NEO4J_BOLT"
