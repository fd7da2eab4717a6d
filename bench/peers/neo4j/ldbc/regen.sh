#!/usr/bin/env bash
# Regenerate kith's LDBC oracle fixtures (crates/kith-ldbc/tests/fixtures/{test,sf0.1}) from
# Neo4j 5.26: for each data set, load.sh imports the official CSVs into a Neo4j home under
# WORK, oracle.py runs every query, and the server is stopped. Unless REPLAY=0 it then also
# replays the update streams into Neo4j (updates.py) and writes the after-updates sample
# (fixtures/<dataset>-after-updates: every IC parameter line, IS on 20 original and 20
# added persons and messages). On SF0.1 only the first SF01_EVENTS (20,000) events of the
# stream are replayed: Neo4j applies 140-270 events/s here, so all 304,616 would take 20-35 min.
#
# usage: regen.sh [WORK]        (WORK defaults to /tmp/kith-ldbc-oracle; see README.md for times)
# env:   PORT (7698), DATASETS ("test sf0.1"), REPLAY (1; 0 skips the updates), NEO4J_PEER_HEAP (2g) / NEO4J_PEER_PAGECACHE (1g)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
peer="$here/../neo4j.sh"
py="$here/../.venv/bin/python"
work=${1:-/tmp/kith-ldbc-oracle}
port=${PORT:-7698}
shared="$repo/../shared/data"
fixtures="$repo/crates/kith-ldbc/tests/fixtures"
export NEO4J_PEER_HEAP=${NEO4J_PEER_HEAP:-2g} NEO4J_PEER_PAGECACHE=${NEO4J_PEER_PAGECACHE:-1g}
mkdir -p "$work"
"$peer" venv

for dataset in ${DATASETS:-test sf0.1}; do
  case $dataset in
    test)
      base="$shared/ldbc-snb-interactive-test"; src="$base/vanilla" ;;
    sf0.1)
      if [[ ! -d $work/sf0.1/social_network ]]; then
        zstd -dc "$shared/ldbc-snb-sf0.1-datagen.tar.zst" | tar -x -C "$work"
      fi
      base="$work/sf0.1"; src="$base/social_network" ;;
    *) echo "regen.sh: unknown data set $dataset (test, sf0.1)" >&2; exit 2 ;;
  esac
  home="$work/neo4j-$dataset"
  "$peer" stop "$home" >/dev/null 2>&1 || true
  rm -rf "$home"
  KEEP_RUNNING=1 "$here/load.sh" "$src" "$home" "$port"
  trap '"$peer" stop "$home" || true' EXIT
  "$py" "$here/oracle.py" --port "$port" --src "$src" --params "$base/substitution_parameters" \
    --dataset "$dataset" --out "$fixtures/$dataset"
  if [[ ${REPLAY:-1} != 0 ]]; then
    limit=()
    [[ $dataset == sf0.1 ]] && limit=(--limit "${SF01_EVENTS:-20000}")
    "$py" "$here/updates.py" --port "$port" --streams "$base/update_streams" "${limit[@]}"
    "$py" "$here/oracle.py" --port "$port" --src "$src" --params "$base/substitution_parameters" \
      --dataset "$dataset-after-updates" --out "$fixtures/$dataset-after-updates" --short 20 \
      --after-updates "$base/update_streams" ${limit[@]/--limit/--replayed}
  fi
  "$peer" stop "$home"
  trap - EXIT
done
echo "regen.sh: fixtures in $fixtures ($(du -sh "$fixtures" | cut -f1))"
