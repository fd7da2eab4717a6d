# Shared by run.sh and writes.sh (sourced): build the programs once, and run one
# of them (dev.kith.bench.bolt.CLASS) with the Bolt credentials and extra JVM flags.
# shellcheck shell=bash
lib_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

build() {
  # Debian's Maven prints colour resets even with -q -B: strip them.
  (cd "$lib_here" && mvn -q -B package 2>&1 | sed 's/\x1b\[[0-9;]*m//g')
}

run_class() {
  local class=$1; shift
  # shellcheck disable=SC2086 # BENCH_JAVA_OPTS is a list of flags
  java ${BENCH_JAVA_OPTS:-} -cp "$lib_here/target/kith-bolt-is1.jar:$lib_here/target/lib/*" \
    "dev.kith.bench.bolt.$class" "$@" \
    --user "${BOLT_USER:-neo4j}" --password "${BOLT_PASSWORD:-neo4j-peer}"
}
