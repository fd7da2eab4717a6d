#!/usr/bin/env bash
# S2's traversal beside Neo4j 5.26 (docs/benchmarks.md "S2"): one tree, kith and Neo4j
# one after the other on this machine, the same question, the same run counts.
#   1. kith generate tree --out DIR/kith           (1,398,101 nodes; skipped if present)
#   2. shindig/load.sh DIR/kith DIR/neo4j           (export, bulk import, id constraints)
#   3. kith bench traverse --data DIR/kith          (graph.traverse dfs/bfs, Cypher)
#   4. neo4j.sh java TraverseBench --home DIR/neo4j (traversal framework dfs/bfs, Cypher)
#
# usage: traverse.sh DIR [RUNS [WARMUP]]     (RUNS and WARMUP default to S2's 100)
# env:   KITH (default: target/release/kith of this repository), NEO4J_PEER_HEAP [2g]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
KITH=${KITH:-$repo/target/release/kith}
export NEO4J_PEER_HEAP=${NEO4J_PEER_HEAP:-2g}

(( $# >= 1 && $# <= 3 )) || { echo "usage: traverse.sh DIR [RUNS [WARMUP]]" >&2; exit 2; }
dir=$1 runs=${2:-100} warmup=${3:-100}
[[ -x $KITH ]] || { echo "traverse.sh: kith binary not found at $KITH (set KITH)" >&2; exit 1; }
mkdir -p "$dir"

[[ -d $dir/kith ]] || "$KITH" generate tree --out "$dir/kith"
# A marker written once the whole load (import and constraints) succeeded: a half-done
# load would leave Neo4j scanning labels instead of using its index.
if [[ ! -f $dir/neo4j/.s2-loaded ]]; then
  rm -rf "$dir/neo4j"
  "$here/shindig/load.sh" "$dir/kith" "$dir/neo4j"
  touch "$dir/neo4j/.s2-loaded"
fi

echo "## kith"
"$KITH" bench traverse --data "$dir/kith" --runs "$runs" --warmup "$warmup" | tee "$dir/kith.md"
echo
echo "## Neo4j 5.26 (embedded)"
"$here/neo4j.sh" java dev.kith.peers.neo4j.TraverseBench --home "$dir/neo4j" \
  --runs "$runs" --warmup "$warmup" | tee "$dir/neo4j.md"

# Both must answer the same count (the second column) in every case.
counts=$(awk -F'|' 'FNR > 2 { gsub(/ /, "", $3); print $3 }' "$dir/kith.md" "$dir/neo4j.md" | sort -u)
if [[ $(wc -l <<<"$counts") -ne 1 ]]; then
  echo "traverse.sh: kith and Neo4j disagree on the count: $(tr '\n' ' ' <<<"$counts")" >&2
  exit 1
fi
echo
echo "both count $counts"
