#!/usr/bin/env bash
# kith bench ldbc with Neo4j's figures from the same run, on SF0.1 by default:
#   1. kith load ldbc SRC --out WORK/kith          (if missing)
#   2. kith bench ldbc --quick --out WORK/run        (writes the calls: WORK/run/queries.json)
#   3. load.sh SRC WORK/neo4j                        (if WORK/neo4j has no store), start
#   4. bench.py: Neo4j, the same calls, in the spec's Cypher and as the official LDBC texts
#      (unmodified, IC3/IC4 with endDate) -> WORK/run/neo4j-ldbc.json; stop
#   5. kith bench ldbc --cypher TEXTS --out WORK/run (kith measured: native in-process and
#      WS-BSON, the official texts on kith's Cypher engine in-process and WS-BSON, their
#      parse + plan time; ldbc.md shows both tables with Neo4j's figures and the ratios)
#
# usage: bench.sh WORK [SRC_DIR PARAMS_DIR]   (default: SF0.1 unpacked into WORK)
# env:   CALLS (kith, 200), NEO4J_CALLS (20), NEO4J_WARMUP (5), PORT (7698),
#        KITH (target/release/kith), TEXTS (../shared/data/ldbc-cypher; CYPHER=0 skips them),
#        SPEC=0 (Neo4j runs only the official texts, not the spec's Cypher: its IC14 alone can
#        take minutes)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
peer="$here/../neo4j.sh"
py="$here/../.venv/bin/python"
KITH=${KITH:-$repo/target/release/kith}
port=${PORT:-7698}
texts=${TEXTS:-$repo/../shared/data/ldbc-cypher}
kith_cypher=(--cypher "$texts") neo4j_texts=(--texts "$texts")
[[ ${CYPHER:-1} == 0 ]] && kith_cypher=() neo4j_texts=()
[[ ${SPEC:-1} == 0 ]] && neo4j_texts+=(--no-spec)
(( $# == 1 || $# == 3 )) || { echo "usage: bench.sh WORK [SRC_DIR PARAMS_DIR]" >&2; exit 2; }
work=$1
mkdir -p "$work"
work=$(cd "$work" && pwd)
if (( $# == 3 )); then
  src=$2 params=$3
else
  [[ -d $work/sf0.1 ]] || zstd -dc "$repo/../shared/data/ldbc-snb-sf0.1-datagen.tar.zst" | tar -x -C "$work"
  src=$work/sf0.1/social_network params=$work/sf0.1/substitution_parameters
fi
export NEO4J_PEER_HEAP=${NEO4J_PEER_HEAP:-2g} NEO4J_PEER_PAGECACHE=${NEO4J_PEER_PAGECACHE:-1g}
[[ -f $work/kith/graph.kith ]] || "$KITH" load ldbc "$src" --out "$work/kith"
"$KITH" bench ldbc --data "$work/kith" --params "$params" --quick --out "$work/run" >/dev/null
"$peer" venv
[[ -d $work/neo4j/data/databases/neo4j ]] || "$here/load.sh" "$src" "$work/neo4j" "$port"
"$peer" start "$work/neo4j" "$port"
trap '"$peer" stop "$work/neo4j" || true' EXIT
"$py" "$here/bench.py" --port "$port" --queries "$work/run/queries.json" --out "$work/run/neo4j-ldbc.json" \
  --calls "${NEO4J_CALLS:-20}" --warmup "${NEO4J_WARMUP:-5}" "${neo4j_texts[@]}"
"$peer" stop "$work/neo4j"
trap - EXIT
"$KITH" bench ldbc --data "$work/kith" --params "$params" --calls "${CALLS:-200}" "${kith_cypher[@]}" \
  --out "$work/run"
echo "bench.sh: results in $work/run (ldbc.csv, ldbc.md, neo4j-ldbc.json, queries.json)" >&2
