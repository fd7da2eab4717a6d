#!/usr/bin/env bash
# S5's experiment, one command: the 21 LDBC reads on one kith server and through `kith
# route` over 1, 2, 4 and 8 forum shards (`kith shard split`), every process on this
# machine (docs/sharding.md, docs/benchmarks.md).
#
#   bench/shard/run.sh WORK [--quick | --data DIR]
#
# 1. data: SF0.1 (unpacked from ../shared/data into WORK/data), or with --quick the
#    official test data set, or with --data an LDBC data set of your own laid out as the
#    SF0.1 archive (DIR/social_network, DIR/substitution_parameters; e.g. an SF1 made by
#    bench/ldbc-datagen/generate.sh);
# 2. kith load ldbc into WORK/kith;
# 3. kith bench shard: per read, the client latency on one server and through the router
#    (every routed answer checked equal to one server's, or the run fails), the critical
#    path projected to hosts of their own (router work + per round of shard calls the
#    slowest shard's own time + one message round trip) and the speed-up it gives; then
#    throughput of the IC4/IC6/IC7/IC9 mix through the router;
# 4. writes WORK/shard.md.
#
# --quick (CI): the test data set, 1 and 2 forum shards, 2 parameter lines, 1 s of
# throughput. Env: SHARD_COUNTS (default 1,2,4,8), SHARD_LINES (parameter lines per read,
# default 10), SHARD_REPEATS (calls per line, default 5), SHARD_SECONDS (throughput run,
# default 10), SHARD_COLOCATE=1 (the router on the person shard, `kith route --data`;
# --quick runs both), KITH_BIN (default: cargo build --release).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
shared=$(cd "$repo/../shared" && pwd)
die() { echo "shard/run.sh: error: $*" >&2; exit 1; }
usage="usage: run.sh WORK [--quick | --data DIR]"
(( $# >= 1 )) || die "$usage"
work=$1
quick=0 data=""
case "${2:-}|$#" in
  "|1") ;;
  "--quick|2") quick=1 ;;
  "--data|3") data=$(cd "$3" 2>/dev/null && pwd) || die "--data $3: no such directory" ;;
  *) die "$usage (got: $*)" ;;
esac
if [[ -n $data ]]; then
  for part in social_network/dynamic social_network/static substitution_parameters; do
    [[ -d $data/$part ]] || die "--data $data has no $part/: an LDBC data set laid out as ../shared/data's SF0.1 archive is wanted"
  done
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
counts=${SHARD_COUNTS:-1,2,4,8} lines=${SHARD_LINES:-10} repeats=${SHARD_REPEATS:-5}
seconds=${SHARD_SECONDS:-10}
if (( quick )); then
  src="$shared/data/ldbc-snb-interactive-test/vanilla"
  params="$shared/data/ldbc-snb-interactive-test/substitution_parameters"
  counts=1,2 lines=2 repeats=1 seconds=1
elif [[ -n $data ]]; then
  src="$data/social_network" params="$data/substitution_parameters"
else
  src="$work/data/sf0.1/social_network" params="$work/data/sf0.1/substitution_parameters"
  if [[ ! -d $src ]]; then
    mkdir -p "$work/data"
    zstd -dc "$shared/data/ldbc-snb-sf0.1-datagen.tar.zst" | tar -x -C "$work/data"
  fi
fi

kith=${KITH_BIN:-}
if [[ -z $kith ]]; then
  (cd "$repo" && cargo build --release --locked -q -p kith-cli --bin kith)
  kith="$repo/target/release/kith"
fi
rm -rf "$work/kith" "$work/shards"
"$kith" load ldbc "$src" --out "$work/kith"
bench() {
  "$kith" bench shard --data "$work/kith" --params "$params" --shards "$counts" \
    --lines "$lines" --repeats "$repeats" --seconds "$seconds" \
    --scratch "$work/shards" "$@"
}
if (( quick )); then
  bench --out "$work"
  bench --colocate --out "$work/colocated"
elif [[ ${SHARD_COLOCATE:-0} == 1 ]]; then
  bench --colocate --out "$work"
else
  bench --out "$work"
fi
echo "shard/run.sh: wrote $work/shard.md" >&2
