#!/usr/bin/env bash
# Regenerate kith's LDBC oracle fixtures from Neo4j 5.26. Two parts, per data set:
#
# - the spec oracle (crates/kith-ldbc/tests/fixtures/{test,sf0.1}): load.sh imports the
#   official CSVs into a Neo4j home under WORK, oracle.py runs the spec-written Cypher of
#   queries.py; unless REPLAY=0, updates.py then replays the update stream and oracle.py
#   writes the after-updates sample (fixtures/<dataset>-after-updates: every IC parameter
#   line, IS on 20 original and 20 added persons and messages). On SF0.1 only the first
#   SF01_EVENTS (20,000) events of the stream are replayed: Neo4j applies 140-270 events/s
#   here, so all 304,616 would take 20-35 min.
# - the official texts (crates/kith-cypher/tests/fixtures/neo4j-official/<dataset>):
#   official.py runs the 21 official read texts of ../shared/data/ldbc-cypher unmodified
#   on the same parameter cases (read from the spec oracle's fixtures); unless REPLAY=0,
#   on a freshly loaded graph it replays the same events with the official IU1..IU8 texts
#   and runs the reads again (<dataset>-after-updates). On the test data set it also
#   writes the IC13/IC14 probes (neo4j-official/test-probes: no path, same person, no
#   such person). official_diff.py then lists where the two disagree.
#
# usage: regen.sh [WORK]        (WORK defaults to /tmp/kith-ldbc-oracle; see README.md for times)
# env:   PORT (7698), DATASETS ("test sf0.1"), REPLAY (1; 0 skips the updates),
#        OFFICIAL (1: both parts; only: the official texts alone, from the committed spec
#        fixtures; 0: the spec oracle alone), NEO4J_PEER_HEAP (2g) / NEO4J_PEER_PAGECACHE (1g)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
peer="$here/../neo4j.sh"
py="$here/../.venv/bin/python"
work=${1:-/tmp/kith-ldbc-oracle}
port=${PORT:-7698}
official=${OFFICIAL:-1}
shared="$repo/../shared/data"
fixtures="$repo/crates/kith-ldbc/tests/fixtures"
official_fixtures="$repo/crates/kith-cypher/tests/fixtures/neo4j-official"
export NEO4J_PEER_HEAP=${NEO4J_PEER_HEAP:-2g} NEO4J_PEER_PAGECACHE=${NEO4J_PEER_PAGECACHE:-1g}
case $official in 0|1|only) ;; *) echo "regen.sh: OFFICIAL is 0, 1 or only, not $official" >&2; exit 2 ;; esac
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
  load() {
    "$peer" stop "$home" >/dev/null 2>&1 || true
    rm -rf "$home"
    KEEP_RUNNING=1 "$here/load.sh" "$src" "$home" "$port"
  }
  probes=()
  [[ $dataset == test ]] && probes=(--probes "$official_fixtures/test-probes")
  load
  trap '"$peer" stop "$home" || true' EXIT
  if [[ $official != only ]]; then
    "$py" "$here/oracle.py" --port "$port" --src "$src" --params "$base/substitution_parameters" \
      --dataset "$dataset" --out "$fixtures/$dataset"
  fi
  if [[ $official != 0 ]]; then
    "$py" "$here/official.py" --port "$port" --dataset "$dataset" --oracle "$fixtures/$dataset" \
      --out "$official_fixtures/$dataset" "${probes[@]}"
  fi
  if [[ ${REPLAY:-1} != 0 ]]; then
    if [[ $official != only ]]; then
      limit=()
      [[ $dataset == sf0.1 ]] && limit=(--limit "${SF01_EVENTS:-20000}")
      "$py" "$here/updates.py" --port "$port" --streams "$base/update_streams" "${limit[@]}"
      "$py" "$here/oracle.py" --port "$port" --src "$src" --params "$base/substitution_parameters" \
        --dataset "$dataset-after-updates" --out "$fixtures/$dataset-after-updates" --short 20 \
        --after-updates "$base/update_streams" ${limit[@]/--limit/--replayed}
    fi
    if [[ $official != 0 ]]; then
      # The official IU texts start from the imported graph, not from updates.py's.
      [[ $official == only ]] || { "$peer" stop "$home"; load; }
      # As many events as the spec fixtures' replayed_events (the whole stream when absent).
      "$py" "$here/official.py" --port "$port" --dataset "$dataset-after-updates" \
        --oracle "$fixtures/$dataset-after-updates" --out "$official_fixtures/$dataset-after-updates" \
        --streams "$base/update_streams"
    fi
  fi
  "$peer" stop "$home"
  trap - EXIT
done
[[ $official == only ]] || echo "regen.sh: fixtures in $fixtures ($(du -sh "$fixtures" | cut -f1))"
if [[ $official != 0 ]]; then
  echo "regen.sh: official-text fixtures in $official_fixtures ($(du -sh "$official_fixtures" | cut -f1))"
  python3 "$here/official_diff.py" "$fixtures" "$official_fixtures" ${DATASETS:-test sf0.1} \
    $([[ ${REPLAY:-1} != 0 ]] && for d in ${DATASETS:-test sf0.1}; do echo "$d-after-updates"; done)
fi
