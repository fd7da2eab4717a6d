#!/usr/bin/env bash
# S3's writes in Cypher through Neo4j's Java driver (5.x), the same texts against
# kith's Bolt server and then Neo4j's, one after the other (never both at once: they
# would share the cores). Each case writes a label of its own. Builds the program first.
#
#   bench/peers/neo4j/bolt/java/writes.sh
#
# Environment (defaults in brackets):
#   KITH_BOLT   kith's Bolt URL [bolt://127.0.0.1:7687]; empty skips kith
#   NEO4J_BOLT  Neo4j's Bolt URL [bolt://127.0.0.1:7698]; empty skips Neo4j
#   WRITE_CASES [single,tx1000,tx1000-indexed,merge-new,merge-existing]
#   BENCH_CLIENTS [8]  BENCH_SECONDS [10]  BENCH_WARMUP [2]  BOLT_USER [neo4j]  BOLT_PASSWORD [neo4j-peer]
# Prints one JSON line per server and case.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KITH_BOLT=${KITH_BOLT-bolt://127.0.0.1:7687}
NEO4J_BOLT=${NEO4J_BOLT-bolt://127.0.0.1:7698}

# shellcheck source=lib.sh
. "$here/lib.sh"
build

bench() {
  local name=$1 url=$2
  [ -n "$url" ] || return 0
  run_class CypherWrites --name "$name" --url "$url" \
    --cases "${WRITE_CASES:-single,tx1000,tx1000-indexed,merge-new,merge-existing}" \
    --clients "${BENCH_CLIENTS:-8}" --seconds "${BENCH_SECONDS:-10}" --warmup "${BENCH_WARMUP:-2}"
}
bench kith "$KITH_BOLT"
bench neo4j "$NEO4J_BOLT"
