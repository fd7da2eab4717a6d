#!/usr/bin/env bash
# What TLS costs a round trip: IS1 (the official LDBC text) from Python, single-client
# latency and 8-thread throughput, through Neo4j's Python driver over Bolt, a
# driverless Bolt client (the server's own round trip) and kith's Python client over
# WebSocket-BSON, against two kith servers on copies of one data
# directory: one plain, one with --tls-cert/--tls-key (bolt+ssc://, wss://). Rounds
# alternate plain and TLS so the machine's drift falls on both.
#
#   DATA=/tmp/ldbc-bench/kith QUERIES=/tmp/ldbc-bench/run/queries.json PYTHON=venv/bin/python bench/tls/run.sh
#
# DATA: a kith data directory (SF0.1 from `kith load ldbc`); QUERIES: queries.json of
# `kith bench ldbc --out RUN`; PYTHON: a Python with `neo4j` and kith's client
# installed. ROUNDS [2], CALLS [2000], THREADS [8], SECONDS_EACH [10]. Prints one JSON line
# per round, transport and path ("tls": true or false).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
: "${DATA:?set DATA to a kith data directory}" "${QUERIES:?set QUERIES to queries.json}"
PYTHON=${PYTHON:-python3}
kith=${KITH_BIN:-$repo/target/release/kith}
text=$repo/../shared/data/ldbc-cypher/interactive-short-1.cypher
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

bash "$repo/scripts/test-cert" "$work"
serve() { # serve NAME HTTP_PORT BOLT_PORT [flags...]
  local name=$1 http=$2 bolt=$3; shift 3
  cp -a "$DATA" "$work/$name" && rm -f "$work/$name/LOCK"
  "$kith" serve --data "$work/$name" --listen "127.0.0.1:$http" --bolt-listen "127.0.0.1:$bolt" \
    "$@" >"$work/$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 300); do grep -q "kith serving: WebSocket" "$work/$name.log" && return; sleep 0.1; done
  echo "kith serve $name did not start: $(cat "$work/$name.log")" >&2; exit 1
}
serve plain 7631 7632
serve tls 7633 7634 --tls-cert "$work/server.crt" --tls-key "$work/server.key"

measure() { # measure TLS BOLT_URL WS_URL ROUND
  SSL_CERT_FILE="$work/server.crt" "$PYTHON" "$repo/bench/peers/neo4j/bolt/is1.py" \
    --queries "$QUERIES" --text "$text" --kith-bolt "$2" --kith-ws "$3" --raw \
    --calls "${CALLS:-2000}" --threads "${THREADS:-8}" --seconds "${SECONDS_EACH:-10}" |
    "$PYTHON" -c 'import json,sys
for line in sys.stdin:
    row = json.loads(line); row.update(tls=sys.argv[1] == "1", round=int(sys.argv[2])); print(json.dumps(row), flush=True)' "$1" "$4"
}
for round in $(seq "${ROUNDS:-2}"); do
  measure 0 bolt://127.0.0.1:7632 ws://127.0.0.1:7631/v1/ws "$round"
  measure 1 bolt+ssc://localhost:7634 wss://localhost:7633/v1/ws "$round"
done
