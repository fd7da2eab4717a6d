#!/usr/bin/env bash
# PostgreSQL 15, the peer S4 found fastest, run as an ordinary server in a scratch directory.
#
#   postgres.sh install           apt-get install postgresql-15 when it is missing (needs root)
#   postgres.sh start DIR PORT    initdb DIR on first use (trust auth, UTC), start on
#                                 127.0.0.1:PORT, wait until it accepts connections
#   postgres.sh stop DIR          fast shutdown (no-op when not running)
#   postgres.sh status DIR
#
# The server never runs as root (PostgreSQL refuses to): when this script runs as root it
# runs initdb and pg_ctl as the `postgres` user that Debian's package creates, and DIR is
# handed to that user. Debian's own `15/main` cluster is left alone. Settings are the
# reference implementation's spirit on this machine: shared_buffers 2 GB (the data sets fit),
# no fsync-per-commit shortcuts (synchronous_commit stays on: S4 measured a durable peer);
# pg_stat_statements is loaded so benchmarks can read the server's own execution times.
set -euo pipefail

bin=/usr/lib/postgresql/15/bin

die() { echo "postgres.sh: $*" >&2; exit 1; }

as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

install() {
  [[ -x $bin/pg_ctl ]] && return 0
  [[ $(id -u) -eq 0 ]] || die "PostgreSQL 15 is not installed and installing it needs root: apt-get install -y postgresql-15"
  echo "postgres.sh: installing postgresql-15 from Debian's packages" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql-15 >/dev/null ||
    { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql-15 >/dev/null; }
  [[ -x $bin/pg_ctl ]] || die "apt-get finished but $bin/pg_ctl is missing"
}

start() {
  local dir=${1:-} port=${2:-}
  [[ -n $dir && -n $port ]] || die "usage: postgres.sh start DIR PORT"
  [[ $port =~ ^[0-9]+$ ]] || die "PORT must be a number, got '$port'"
  install
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [[ $(id -u) -eq 0 ]]; then
    chown postgres: "$dir"
    runuser -u postgres -- test -w "$dir" ||
      die "the postgres user cannot reach $dir (a parent folder is closed to it: chmod o+x the parents)"
  fi
  if [[ ! -f $dir/data/PG_VERSION ]]; then
    as_owner "$bin/initdb" -A trust -U postgres -E UTF8 --locale=C.UTF-8 -D "$dir/data" >"$dir/initdb.log" 2>&1 ||
      die "initdb failed: see $dir/initdb.log"
  fi
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 120 start -o \
    "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir -c timezone=UTC \
     -c shared_buffers=2GB -c work_mem=64MB -c maintenance_work_mem=512MB -c max_connections=200 \
     -c max_wal_size=8GB -c checkpoint_timeout=30min -c shared_preload_libraries=pg_stat_statements" >/dev/null ||
    die "the server did not start: see $dir/server.log"
  echo "postgres.sh: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (data $dir/data)" >&2
}

stop() {
  local dir=${1:-}
  [[ -n $dir ]] || die "usage: postgres.sh stop DIR"
  [[ -f $dir/data/postmaster.pid ]] || return 0
  as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
}

case ${1:-} in
  install) install ;;
  start) start "${2:-}" "${3:-}" ;;
  stop) stop "${2:-}" ;;
  status) as_owner "$bin/pg_ctl" -D "${2:?usage: postgres.sh status DIR}/data" status ;;
  *) die "usage: postgres.sh install | start DIR PORT | stop DIR | status DIR" ;;
esac
