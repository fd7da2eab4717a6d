#!/usr/bin/env bash
# `kith import` beside `neo4j-admin database import full` (Neo4j 5.26, bench/peers/neo4j)
# on the same files: an LDBC SNB data set converted to the official Neo4j import layout
# (ldbc_to_neo4j.py). Each importer runs REPEATS times into a fresh directory; the
# report gives every run and the medians, as wall time of the whole command.
#
# usage: bench/import/run.sh SOCIAL_NETWORK_DIR WORK_DIR [--repeats N] [--no-neo4j]
# env:   KITH_BIN (default target/release/kith)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[[ $# -ge 2 ]] || { sed -n 2,9p "$0"; exit 2; }
src=$1 work=$2; shift 2
repeats=3 neo4j=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --repeats) repeats=$2; shift 2 ;;
    --no-neo4j) neo4j=0; shift ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
kith=${KITH_BIN:-$root/target/release/kith}
mkdir -p "$work"
csv="$work/csv"
rm -rf "$csv"
python3 "$here/ldbc_to_neo4j.py" "$src" "$root/../shared/data/ldbc-cypher/headers.txt" "$csv"
mapfile -t args < "$csv/import-args.txt"
bytes=$(du -sb "$csv" | cut -f1)

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

kith_times=() neo_times=() elements=""
for ((i = 1; i <= repeats; i++)); do
  rm -rf "$work/kith-data"
  t0=$(now)
  out=$("$kith" import "${args[@]}" --delimiter '|' --array-delimiter ';' --id-type integer \
    --out "$work/kith-data" --report-file "$work/kith-import.report" 2>/dev/null)
  t1=$(now)
  kith_times+=("$(printf '%.2f' "$(echo "$t1 - $t0" | bc)")")
  elements=$(echo "$out" | sed -n 's/^imported \([0-9]*\) nodes and \([0-9]*\) relationships.*/\1 \2/p' | awk '{print $1 + $2}')
  echo "kith run $i: ${kith_times[-1]} s ($(echo "$out" | tail -1 | sed 's/^ *//'))"
done
if [[ $neo4j == 1 ]]; then
  for ((i = 1; i <= repeats; i++)); do
    rm -rf "$work/neo4j"
    t0=$(now)
    bash "$root/bench/peers/neo4j/neo4j.sh" import "$work/neo4j" "${args[@]}" --array-delimiter=';' >/dev/null 2>&1 \
      || { echo "neo4j import failed: $work/neo4j/import.log" >&2; exit 1; }
    t1=$(now)
    neo_times+=("$(printf '%.2f' "$(echo "$t1 - $t0" | bc)")")
    echo "neo4j run $i: ${neo_times[-1]} s ($(grep -o 'IMPORT DONE in [^.]*\.[0-9]*' "$work/neo4j/import.log" | tail -1))"
  done
fi

k=$(printf '%s\n' "${kith_times[@]}" | median)
{
  echo "# Bulk import: $(basename "$(dirname "$src")")/$(basename "$src")"
  echo
  echo "$elements elements (nodes + relationships), $((bytes / 1000000)) MB of CSV; $repeats runs each, wall time of the whole command (median)."
  echo
  echo "| importer | runs (s) | median (s) | elements/s |"
  echo "|---|---|---|---|"
  echo "| kith import | ${kith_times[*]} | $k | $(echo "$elements / $k" | bc) |"
  if [[ $neo4j == 1 ]]; then
    n=$(printf '%s\n' "${neo_times[@]}" | median)
    echo "| neo4j-admin database import full (5.26, JVM start included) | ${neo_times[*]} | $n | $(echo "$elements / $n" | bc) |"
  fi
} | tee "$work/import.md"
