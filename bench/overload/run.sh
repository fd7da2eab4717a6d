#!/usr/bin/env bash
# Overload (issue 18): a well-behaved load (8 clients, 2,000 req/s of the Shindig read
# mix) against `kith serve` beside each attack in turn: 20x the WebSocket and HTTP
# connection caps, slowloris, a pipelined flood, slow readers, oversized frames and
# deeply nested requests. Per phase: that load's latency and errors, the server's peak
# memory, and what the attacker got back. Fails if the well-behaved load sees an error.
# Report: OUT/overload.md and the server's log.
#
# usage: bench/overload/run.sh [--out DIR] [--scale S] [kith bench overload flags...]
# env:   KITH_BIN (default target/release/kith, built if absent)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/target/overload" scale=1 extra=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --scale) scale=$2; shift 2 ;;
    -h|--help) sed -n 2,10p "$0"; exit 0 ;;
    *) extra+=("$1"); shift ;;
  esac
done
source "$root/bench/lib/shindig-data.sh"
mkdir -p "$out"
"$kith" bench overload --data "$data" --out "$out" "${extra[@]}"
