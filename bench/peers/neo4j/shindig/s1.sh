#!/usr/bin/env bash
# The whole S1 Neo4j-vs-kith pipeline in one go (each step is also runnable alone; see README.md):
#   1. kith generate shindig --scale 1 (if WORK/data is missing)
#   2. kith bench shindig --paths http-json,ws-msgpack --out WORK/run   (kith's numbers + queries.json)
#   3. load.sh WORK/data WORK/neo4j                                        (if WORK/neo4j has no store)
#   4. neo4j.sh start WORK/neo4j PORT
#   5. check.py  (Neo4j's answers == kith's, first K parameter sets; exits non-zero on a mismatch)
#   6. run.py    (latency suite after PREWARM unmeasured passes; with THREADS set, the throughput mix too)
#   7. compare.py (kith vs Neo4j medians, Markdown)
#   8. neo4j.sh stop WORK/neo4j
#
# usage: s1.sh WORK [--quick]
# env:   PORT (7699), K (5), THREADS (unset: no throughput; e.g. 1,4,16), SECONDS_PER_CELL (5),
#        PROCESSES (2), PREWARM (5: unmeasured passes over the suite to warm the JVM; 0 = kith's
#        protocol exactly), KITH (target/release/kith), RELOAD=1 (re-import even if a store exists),
#        NEO4J_PEER_HEAP (2g here), NEO4J_PEER_PAGECACHE (1g here)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
peer_dir=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../../.." && pwd)
peer="$peer_dir/neo4j.sh"
KITH=${KITH:-$repo/target/release/kith}
PORT=${PORT:-7699}
K=${K:-5}
export NEO4J_PEER_HEAP=${NEO4J_PEER_HEAP:-2g}
export NEO4J_PEER_PAGECACHE=${NEO4J_PEER_PAGECACHE:-1g}

(( $# >= 1 && $# <= 2 )) || { echo "usage: s1.sh WORK [--quick]" >&2; exit 2; }
work=$1
quick=()
[[ ${2:-} == --quick ]] && quick=(--quick)
[[ -z ${2:-} || ${2:-} == --quick ]] || { echo "s1.sh: unknown option ${2}" >&2; exit 2; }
mkdir -p "$work"
work=$(cd "$work" && pwd)
py="$peer_dir/.venv/bin/python"
note() { echo "s1.sh: $*" >&2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

"$peer" venv

if [[ ! -f $work/data/graph.kith ]]; then
  note "generating the Shindig graph (scale 1) into $work/data"
  "$KITH" generate shindig --scale 1 --out "$work/data" >&2
fi

t0=$(now)
note "kith bench shindig ${quick[*]} (http-json, ws-msgpack) -> $work/run"
"$KITH" bench shindig --data "$work/data" --paths http-json,ws-msgpack "${quick[@]}" --out "$work/run" >"$work/run-kith.md"
note "kith bench took $(since "$t0") s"

if [[ -n ${RELOAD:-} || ! -d $work/neo4j/data/databases/neo4j ]]; then
  "$here/load.sh" "$work/data" "$work/neo4j" "$PORT"
fi

"$peer" start "$work/neo4j" "$PORT"
trap '"$peer" stop "$work/neo4j" || true' EXIT

t0=$(now)
status=0
"$py" "$here/check.py" --port "$PORT" --queries "$work/run/queries.json" --data "$work/data" -k "$K" --variants \
  | tee "$work/check.txt" || status=$?
note "check took $(since "$t0") s (exit $status)"

t0=$(now)
tp=()
[[ -n ${THREADS:-} ]] && tp=(--latency --threads "$THREADS" --seconds "${SECONDS_PER_CELL:-5}" --processes "${PROCESSES:-2}")
"$py" "$here/run.py" --port "$PORT" --queries "$work/run/queries.json" --out "$work/neo4j.json" \
  --home "$work/neo4j" --variants --prewarm "${PREWARM:-5}" "${quick[@]}" "${tp[@]}" >"$work/run-neo4j.md"
note "run.py took $(since "$t0") s"

python3 "$here/compare.py" "$work/run/shindig.csv" "$work/neo4j.json" | tee "$work/compare.md"
note "results: $work/{check.txt,run-kith.md,run-neo4j.md,neo4j.json,compare.md}, kith's raw: $work/run/shindig.csv"
exit "$status"
