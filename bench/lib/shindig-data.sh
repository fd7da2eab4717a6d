# Sourced by the soak and overload scripts: sets `kith` (KITH_BIN, or the release
# build, built if absent) and `data` (the Shindig graph at scale $scale under
# target/soak-data, generated once). Needs $root and $scale.
kith=${KITH_BIN:-$root/target/release/kith}
if [[ -z ${KITH_BIN:-} ]]; then
  (cd "$root" && cargo build --release -q -p kith-cli)
fi
data="$root/target/soak-data/shindig-$scale"
if [[ ! -f $data/graph.kith ]]; then
  "$kith" generate shindig --scale "$scale" --out "$data"
fi
