#!/usr/bin/env bash
# The soak (issue 18): a mixed read/write load (the Shindig read mix and 10 % durable
# property updates) at 90 % of the measured maximum against a durable `kith serve`,
# for --minutes, with errors, latency percentiles and resident memory per window.
# A read replica follows the primary over Kafka (a broker this script starts from
# Maven Central, scripts/kafka/broker) and serves half the reads; --no-replica
# leaves it out. Fails unless there is no error, each server's memory grows under
# 5 % after the warm-up and the p99 stays flat (docs/reliability.md). Report:
# OUT/soak.md, soak.csv, soak-latency.svg, soak-memory.svg and the servers' logs.
#
# usage: bench/soak/run.sh [--minutes 30] [--out DIR] [--scale S] [--no-replica]
#                          [kith bench soak flags...]
# env:   KITH_BIN (default target/release/kith, built if absent),
#        SOAK_KAFKA_PORT (default 29392)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
minutes=30 out="$root/target/soak" scale=1 replica=1 extra=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --minutes) minutes=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --scale) scale=$2; shift 2 ;;
    --no-replica) replica=0; shift ;;
    -h|--help) sed -n 2,14p "$0"; exit 0 ;;
    *) extra+=("$1"); shift ;;
  esac
done
source "$root/bench/lib/shindig-data.sh"
mkdir -p "$out"
if [[ $replica == 1 ]]; then
  port=${SOAK_KAFKA_PORT:-29392}
  broker_dir="$root/target/soak-kafka"
  rm -rf "$broker_dir"
  trap '"$root/scripts/kafka/broker" stop "$broker_dir" > /dev/null 2>&1 || true' EXIT
  "$root/scripts/kafka/broker" start "$broker_dir" "$port" > /dev/null
  extra+=(--kafka "127.0.0.1:$port")
fi
"$kith" bench soak --data "$data" --minutes "$minutes" --out "$out" "${extra[@]}"
