#!/usr/bin/env bash
# The whole S1 experiment, kith and Neo4j, in one run and one run directory (each step is also
# runnable alone; see README.md):
#   1. kith generate shindig --scale 1                        (if WORK/data is missing)
#   2. kith bench shindig --cypher queries.py --out WORK/run  (latency per query per access path,
#                                                              the Cypher paths included, the
#                                                              time split, queries.json)
#   3. kith bench throughput --out WORK/run                   (S1's matrix; skipped with MATRIX=0)
#   3b. kith bench throughput --cypher queries.py             (the same mix as S1's Cypher texts over
#                                                              WS-BSON, at the client thread counts
#                                                              Neo4j runs -> throughput-cypher.csv;
#                                                              skipped with CYPHER_MATRIX=0)
#   4. load.sh WORK/data WORK/neo4j                           (if WORK/neo4j has no store)
#   5. neo4j.sh start WORK/neo4j PORT
#   6. check.py  (Neo4j's answers == kith's, first K parameter sets; a mismatch fails the run)
#   7. run.py    (Neo4j: the latency suite after PREWARM unmeasured passes, and the throughput
#                 mix at the same client thread counts) -> WORK/run/neo4j.json
#   8. compare.py (kith vs Neo4j medians, Markdown) -> WORK/run/compare.md
#   9. neo4j.sh stop WORK/neo4j
#  10. kith report WORK/run                                   (report.html + charts/*.svg)
#
# usage: s1.sh WORK [--quick]
# env:   PATHS (kith's access paths; default all 16), RUNS_SCALE (1: S1's run counts),
#        MATRIX (1; 0 skips kith's throughput matrix), TP_THREADS (4,16,64,128), TP_WORKERS
#        (1,2,4,8,16), TP_CONNECTIONS (1,8), TP_COMPRESSION (none,deflate-fast,deflate-best,zstd),
#        SECONDS_PER_CELL (5), THREADS (Neo4j's client threads; default TP_THREADS, "" = none),
#        CYPHER_MATRIX (1; 0 skips kith's Cypher mix), CY_WORKERS (2,4), CY_CONNECTIONS (1,8),
#        PROCESSES (2: Python processes for Neo4j's clients), PORT (7699), K (5),
#        PREWARM (5: unmeasured passes to warm the JVM; 0 = kith's protocol exactly),
#        KITH (target/release/kith), RELOAD=1 (re-import even if a store exists),
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

run=$work/run
rm -rf "$run"
t0=$(now)
paths=()
[[ -n ${PATHS:-} ]] && paths=(--paths "$PATHS")
texts=$here/queries.py   # S1's Cypher texts, the very ones Neo4j runs below
note "kith bench shindig ${quick[*]} -> $run"
"$KITH" bench shindig --data "$work/data" "${paths[@]}" --cypher "$texts" --runs-scale "${RUNS_SCALE:-1}" \
  "${quick[@]}" --out "$run" >"$work/run-kith.md"
note "kith bench shindig took $(since "$t0") s"

TP_THREADS=${TP_THREADS:-4,16,64,128}
if [[ ${MATRIX:-1} != 0 ]]; then
  t0=$(now)
  note "kith bench throughput ${quick[*]} -> $run"
  "$KITH" bench throughput --data "$work/data" --threads "$TP_THREADS" --workers "${TP_WORKERS:-1,2,4,8,16}" \
    --connections "${TP_CONNECTIONS:-1,8}" --compression "${TP_COMPRESSION:-none,deflate-fast,deflate-best,zstd}" \
    --seconds "${SECONDS_PER_CELL:-5}" "${quick[@]}" --out "$run" >>"$work/run-kith.md"
  note "kith bench throughput took $(since "$t0") s"
fi
if [[ ${CYPHER_MATRIX:-1} != 0 ]]; then
  t0=$(now)
  note "kith bench throughput --cypher ${quick[*]} -> $run"
  "$KITH" bench throughput --data "$work/data" --cypher "$texts" --threads "$TP_THREADS" \
    --workers "${CY_WORKERS:-2,4}" --connections "${CY_CONNECTIONS:-1,8}" --compression none \
    --seconds "${SECONDS_PER_CELL:-5}" "${quick[@]}" --out "$run" >>"$work/run-kith.md"
  note "kith bench throughput --cypher took $(since "$t0") s"
fi

if [[ -n ${RELOAD:-} || ! -d $work/neo4j/data/databases/neo4j ]]; then
  "$here/load.sh" "$work/data" "$work/neo4j" "$PORT"
fi

"$peer" start "$work/neo4j" "$PORT"
trap '"$peer" stop "$work/neo4j" || true' EXIT

t0=$(now)
status=0
"$py" "$here/check.py" --port "$PORT" --queries "$run/queries.json" --data "$work/data" -k "$K" --variants \
  | tee "$work/check.txt" || status=$?
note "check took $(since "$t0") s (exit $status)"

t0=$(now)
threads=${THREADS-$TP_THREADS}
tp=()
[[ -n $threads ]] && tp=(--latency --threads "$threads" --seconds "${SECONDS_PER_CELL:-5}" --processes "${PROCESSES:-2}")
[[ -n $threads && ${#quick[@]} -gt 0 ]] && tp=(--latency --threads "${threads%%,*}" --seconds 1 --processes 1)
"$py" "$here/run.py" --port "$PORT" --queries "$run/queries.json" --out "$run/neo4j.json" \
  --home "$work/neo4j" --variants --prewarm "${PREWARM:-5}" --runs-scale "${RUNS_SCALE:-1}" "${quick[@]}" "${tp[@]}" >"$work/run-neo4j.md"
note "run.py took $(since "$t0") s"
"$peer" stop "$work/neo4j" || true
trap - EXIT

python3 "$here/compare.py" "$run/shindig.csv" "$run/neo4j.json" | tee "$run/compare.md"
cp "$work/check.txt" "$run/check.txt"
"$KITH" report "$run"
note "results in $run: report.html, charts/, shindig.csv, throughput.csv, throughput-cypher.csv, neo4j.json, compare.md, check.txt"
exit "$status"
