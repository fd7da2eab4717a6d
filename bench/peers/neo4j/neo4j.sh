#!/usr/bin/env bash
# A real Neo4j 5.26 Community server as a peer for kith's benchmarks and correctness checks,
# built from Maven Central (no Docker, no Neo4j tarball). See README.md beside this file.
set -euo pipefail

PEER_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
JAR="$PEER_DIR/target/kith-neo4j-peer.jar"
LIB="$PEER_DIR/target/lib"
STAMP="$PEER_DIR/target/.build-ok"
MAIN_CLASS=dev.kith.peers.neo4j.Neo4jServer

JAVA=${JAVA:-java}
MVN=${MVN:-mvn}
HEAP=${NEO4J_PEER_HEAP:-1g}
PAGECACHE=${NEO4J_PEER_PAGECACHE:-512m}
HOST=${NEO4J_PEER_HOST:-127.0.0.1}
START_TIMEOUT=${NEO4J_PEER_START_TIMEOUT:-180}
STOP_TIMEOUT=${NEO4J_PEER_STOP_TIMEOUT:-90}
VENV=${NEO4J_PEER_VENV:-$PEER_DIR/.venv}
PYTHON=${NEO4J_PEER_PYTHON:-python3}
DRIVER_SPEC=${NEO4J_PEER_DRIVER:-neo4j>=5.28,<7}

# Flags Neo4j's own launcher passes on Java 17 (netty and the page cache need them).
JVM_FLAGS=(
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED
  -Dio.netty.tryReflectionSetAccessible=true
  -Djdk.nio.maxCachedBufferSize=1024
  -XX:+DisableExplicitGC
  -XX:-OmitStackTraceInFastThrow
  -Dfile.encoding=UTF-8
)

usage() {
  cat <<EOF
usage: $(basename "$0") COMMAND [ARGS]

Commands:
  build                      Build the embedded server (mvn package; dependencies into
                             target/lib). Skips if already built and sources are unchanged.
  import HOME --nodes Label=hdr.csv,data.csv ... [--relationships TYPE=hdr.csv,data.csv ...]
                             [--other-admin-import-option=VALUE ...]
                             Bulk-load CSVs into database 'neo4j' under HOME (replacing it)
                             with 'neo4j-admin database import full'. Defaults:
                             --delimiter='|' --id-type=integer --overwrite-destination=true
                             --report-file=HOME/import.report (each can be overridden).
  start HOME PORT            Start the server in the background on $HOST:PORT with data in
                             HOME/data; waits until Bolt is ready (timeout ${START_TIMEOUT}s).
                             Writes HOME/neo4j-peer.pid and HOME/neo4j-peer.log.
  stop HOME                  SIGTERM the server of HOME, wait up to ${STOP_TIMEOUT}s, then SIGKILL.
  status HOME                Say whether the server of HOME is running (exit 0) or not (exit 1).
  cypher PORT QUERY [PARAMS_JSON]
                             Run one query over Bolt; print each row as a JSON line.
                             QUERY '-' reads it from standard input.
  venv                       Create the Python venv with the neo4j driver (done on demand).
  java CLASS [ARGS...]       Run a main class of the peer jar (embedded Neo4j, e.g.
                             dev.kith.peers.neo4j.TraverseBench) in the foreground with
                             the server's JVM flags and heap.

Environment (defaults in brackets):
  NEO4J_PEER_HEAP [1g]            JVM heap for start and import (-Xms = -Xmx)
  NEO4J_PEER_PAGECACHE [512m]     server.memory.pagecache.size
  NEO4J_PEER_CONFIG []            extra settings, space-separated key=value
  NEO4J_PEER_JAVA_OPTS []         extra JVM flags
  NEO4J_PEER_HOST [127.0.0.1]     Bolt listen address (start) / server address (cypher)
  NEO4J_PEER_START_TIMEOUT [180]  seconds to wait for Bolt
  NEO4J_PEER_STOP_TIMEOUT [90]    seconds to wait after SIGTERM before SIGKILL
  NEO4J_PEER_VENV [$PEER_DIR/.venv]
  NEO4J_PEER_PYTHON [python3]     interpreter used to create the venv
  NEO4J_PEER_DRIVER [neo4j>=5.28,<7]  pip requirement for the driver
  JAVA [java], MVN [mvn]
EOF
}

die() { echo "neo4j.sh: error: $*" >&2; exit 1; }
note() { echo "neo4j.sh: $*" >&2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

need_java() {
  command -v "$JAVA" >/dev/null || die "'$JAVA' not found; install a Java 17+ JDK (e.g. apt-get install -y openjdk-17-jdk-headless) or set JAVA"
  local v
  v=$("$JAVA" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/ { print $2 }')
  [[ ${v%%.*} =~ ^[0-9]+$ ]] || die "cannot tell the Java version of '$JAVA'"
  (( ${v%%.*} >= 17 )) || die "Neo4j 5.26 needs Java 17 or newer; '$JAVA' is Java $v"
}

# build: idempotent. Rebuilds when the stamp is missing or pom.xml / sources are newer.
cmd_build() {
  if [[ -f $STAMP && -f $JAR && -d $LIB ]] \
     && [[ -z $(find "$PEER_DIR/pom.xml" "$PEER_DIR/src" -newer "$STAMP" -print -quit) ]]; then
    note "already built ($(find "$LIB" -name '*.jar' | wc -l) jars in target/lib)"
    return 0
  fi
  need_java
  command -v "$MVN" >/dev/null || die "'$MVN' not found; install Maven (apt-get install -y maven) or set MVN"
  note "building (first run downloads ~230 MB from Maven Central into ~/.m2; ~2 min)"
  local t0 log
  t0=$(now)
  log=$(mktemp)
  rm -f "$STAMP"
  if ! (cd "$PEER_DIR" && "$MVN" -q -B -Dstyle.color=never package) >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    die "maven build failed (output above)"
  fi
  rm -f "$log"
  [[ -f $JAR ]] || die "build finished but $JAR is missing"
  local n
  n=$(find "$LIB" -name '*.jar' | wc -l)
  (( n > 100 )) || die "build finished but target/lib has only $n jars"
  touch "$STAMP"
  note "built in $(since "$t0") s ($n jars, $(du -sh "$LIB" | cut -f1) in target/lib)"
}

ensure_built() { cmd_build; need_java; }

pidfile() { echo "$1/neo4j-peer.pid"; }
logfile() { echo "$1/neo4j-peer.log"; }

# Prints the pid if HOME's server is running (and really is our server), else nothing.
running_pid() {
  local f pid
  f=$(pidfile "$1")
  [[ -f $f ]] || return 0
  pid=$(<"$f")
  if [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null \
     && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "$MAIN_CLASS"; then
    echo "$pid"
  fi
}

port_open() { timeout 2 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null; }

check_port() {
  [[ $1 =~ ^[0-9]+$ ]] && (( $1 > 0 && $1 < 65536 )) || die "PORT must be a number from 1 to 65535, got '$1'"
}

cmd_import() {
  (( $# >= 1 )) || die "import needs HOME; see '$(basename "$0") help'"
  local home=$1; shift
  (( $# >= 1 )) || die "import needs at least one --nodes Label=hdr.csv,data.csv"
  mkdir -p "$home"
  home=$(cd "$home" && pwd)
  local pid
  pid=$(running_pid "$home")
  [[ -z $pid ]] || die "a server is running on $home (pid $pid); run '$(basename "$0") stop $home' first"

  local args=() have_nodes=0 opt
  declare -A given=()
  while (( $# )); do
    case $1 in
      --nodes|--relationships)
        (( $# >= 2 )) || die "$1 needs a value like Label=hdr.csv,data.csv"
        args+=("$1=$2"); [[ $1 == --nodes ]] && have_nodes=1; shift 2 ;;
      --nodes=*) args+=("$1"); have_nodes=1; shift ;;
      --relationships=*) args+=("$1"); shift ;;
      --*=*) opt=${1%%=*}; given[$opt]=1; args+=("$1"); shift ;;
      --*) given[$1]=1; args+=("$1"); shift ;;
      *) die "import: unexpected argument '$1' (options must look like --name=value)" ;;
    esac
  done
  (( have_nodes )) || die "import needs at least one --nodes Label=hdr.csv,data.csv"
  # Check that every file named in --nodes/--relationships exists (patterns are left alone).
  local a spec f files
  for a in "${args[@]}"; do
    case $a in
      --nodes=*|--relationships=*)
        spec=${a#*=}
        [[ $spec == *=* ]] && spec=${spec#*=}
        IFS=, read -r -a files <<<"$spec"
        for f in "${files[@]}"; do
          [[ $f == *[\*\?\[]* || -f $f ]] || die "import: file not found: $f (in $a)"
        done ;;
    esac
  done
  local defaults=(--delimiter='|' --id-type=integer --overwrite-destination=true "--report-file=$home/import.report")
  for a in "${defaults[@]}"; do
    [[ -n ${given[${a%%=*}]:-} ]] || args+=("$a")
  done

  ensure_built
  mkdir -p "$home/conf"
  [[ -f $home/conf/neo4j.conf ]] || echo "# created by neo4j.sh import; the embedded server does not read it" >"$home/conf/neo4j.conf"

  local t0 log
  t0=$(now)
  log="$home/import.log"
  note "importing into $home/data/databases/neo4j (log: $log)"
  # shellcheck disable=SC2086
  if ! NEO4J_HOME="$home" NEO4J_CONF="$home/conf" "$JAVA" "-Xms$HEAP" "-Xmx$HEAP" "${JVM_FLAGS[@]}" ${NEO4J_PEER_JAVA_OPTS:-} \
       -cp "$JAR:$LIB/*" org.neo4j.cli.AdminTool database import full "${args[@]}" neo4j >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    die "import failed (last lines above; full output in $log, report in $home/import.report)"
  fi
  grep -E '^(IMPORT DONE|Imported:)|^  [0-9]+ (nodes|relationships|properties)' "$log" >&2 || true
  note "imported in $(since "$t0") s"
}

cmd_start() {
  (( $# == 2 )) || die "usage: $(basename "$0") start HOME PORT"
  local home=$1 port=$2
  check_port "$port"
  mkdir -p "$home"
  home=$(cd "$home" && pwd)
  local pid
  pid=$(running_pid "$home")
  [[ -z $pid ]] || die "already running on $home (pid $pid); run '$(basename "$0") stop $home' first"
  rm -f "$(pidfile "$home")"
  ! port_open "$HOST" "$port" || die "port $HOST:$port is already in use by another process"

  ensure_built
  local log config=() kv
  log=$(logfile "$home")
  [[ -f $log ]] && mv -f "$log" "$log.1"  # keep the previous run's log; the READY check reads a fresh one
  for kv in ${NEO4J_PEER_CONFIG:-}; do
    [[ $kv == *=* ]] || die "NEO4J_PEER_CONFIG entries must be key=value, got '$kv'"
    config+=(--config "$kv")
  done
  local t0
  t0=$(now)
  note "starting Neo4j on $HOST:$port (home $home, heap $HEAP, page cache $PAGECACHE, log $log)"
  # shellcheck disable=SC2086
  nohup "$JAVA" "-Xms$HEAP" "-Xmx$HEAP" "${JVM_FLAGS[@]}" ${NEO4J_PEER_JAVA_OPTS:-} \
    -cp "$JAR:$LIB/*" "$MAIN_CLASS" --home "$home" --host "$HOST" --port "$port" \
    --pagecache "$PAGECACHE" "${config[@]}" </dev/null >"$log" 2>&1 &
  pid=$!
  echo "$pid" >"$(pidfile "$home")"
  echo "$port" >"$home/neo4j-peer.port"

  local deadline=$(( $(date +%s) + START_TIMEOUT ))
  while :; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$(pidfile "$home")" "$home/neo4j-peer.port"
      tail -n 30 "$log" >&2 || true
      die "Neo4j exited during start-up (last lines of $log above; more in $home/logs/debug.log)"
    fi
    if grep -q 'NEO4J-PEER FAILED' "$log"; then
      tail -n 30 "$log" >&2
      stop_pid "$home" "$pid" >/dev/null 2>&1 || true
      die "Neo4j failed to start (see $log and $home/logs/debug.log)"
    fi
    if grep -q 'NEO4J-PEER READY' "$log" && port_open "$HOST" "$port"; then
      break
    fi
    if (( $(date +%s) >= deadline )); then
      tail -n 20 "$log" >&2 || true
      note "not ready after ${START_TIMEOUT}s; stopping it"
      stop_pid "$home" "$pid" >&2 || true
      die "Neo4j did not accept Bolt connections on $HOST:$port within ${START_TIMEOUT}s; see $log and $home/logs/debug.log (raise NEO4J_PEER_START_TIMEOUT on a busy machine)"
    fi
    sleep 1
  done
  note "ready: bolt://$HOST:$port (pid $pid) after $(since "$t0") s"
}

# stop_pid HOME PID: SIGTERM, wait, SIGKILL.
stop_pid() {
  local home=$1 pid=$2 t0 waited=0
  t0=$(now)
  kill -TERM "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do
    if (( waited >= STOP_TIMEOUT * 5 )); then
      note "pid $pid still running ${STOP_TIMEOUT}s after SIGTERM; sending SIGKILL (the store may need recovery on next start)"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 1
      break
    fi
    sleep 0.2
    waited=$(( waited + 1 ))
  done
  rm -f "$(pidfile "$home")" "$home/neo4j-peer.port"
  note "stopped (pid $pid) in $(since "$t0") s"
}

cmd_stop() {
  (( $# == 1 )) || die "usage: $(basename "$0") stop HOME"
  local home=$1 pid
  [[ -d $home ]] || die "no such directory: $home"
  pid=$(running_pid "$home")
  if [[ -z $pid ]]; then
    if [[ -f $(pidfile "$home") ]]; then
      note "not running (stale pid file removed)"
      rm -f "$(pidfile "$home")" "$home/neo4j-peer.port"
    else
      note "not running (no $(pidfile "$home"))"
    fi
    return 0
  fi
  stop_pid "$home" "$pid"
}

cmd_status() {
  (( $# == 1 )) || die "usage: $(basename "$0") status HOME"
  local pid
  pid=$(running_pid "$1")
  if [[ -n $pid ]]; then
    echo "running: pid $pid, bolt://$HOST:$(cat "$1/neo4j-peer.port" 2>/dev/null || echo '?')"
  else
    echo "not running"
    return 1
  fi
}

ensure_venv() {
  if [[ -x $VENV/bin/python ]] && "$VENV/bin/python" -c 'import neo4j' 2>/dev/null; then
    return 0
  fi
  command -v "$PYTHON" >/dev/null || die "'$PYTHON' not found; set NEO4J_PEER_PYTHON to a Python 3.8+ interpreter"
  note "creating venv $VENV with '$DRIVER_SPEC'"
  "$PYTHON" -m venv "$VENV" || die "'$PYTHON -m venv $VENV' failed (on Debian: apt-get install -y python3-venv)"
  "$VENV/bin/python" -m pip install -q "$DRIVER_SPEC" || die "pip could not install '$DRIVER_SPEC' into $VENV"
  note "driver $("$VENV/bin/python" -c 'import neo4j; print(neo4j.__version__)') installed"
}

cmd_cypher() {
  (( $# == 2 || $# == 3 )) || die "usage: $(basename "$0") cypher PORT QUERY [PARAMS_JSON]"
  check_port "$1"
  local params='{}'
  (( $# == 3 )) && params=$3
  ensure_venv
  exec "$VENV/bin/python" "$PEER_DIR/cypher.py" --host "$HOST" --port "$1" -- "$2" "$params"
}

cmd_java() {
  (( $# >= 1 )) || die "usage: java CLASS [ARGS...]"
  ensure_built
  local class=$1; shift
  exec "$JAVA" "-Xms$HEAP" "-Xmx$HEAP" "${JVM_FLAGS[@]}" ${NEO4J_PEER_JAVA_OPTS:-} \
    -cp "$JAR:$LIB/*" "$class" "$@"
}

(( $# >= 1 )) || { usage >&2; exit 2; }
cmd=$1; shift
case $cmd in
  build) (( $# == 0 )) || die "build takes no arguments"; cmd_build ;;
  import) cmd_import "$@" ;;
  start) cmd_start "$@" ;;
  stop) cmd_stop "$@" ;;
  status) cmd_status "$@" ;;
  cypher) cmd_cypher "$@" ;;
  venv) ensure_venv ;;
  java) cmd_java "$@" ;;
  help|-h|--help) usage ;;
  *) die "unknown command '$cmd'; run '$(basename "$0") help' for usage" ;;
esac
