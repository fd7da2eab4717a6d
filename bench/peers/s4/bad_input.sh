#!/usr/bin/env bash
# run.sh refuses bad arguments and data sets with a message naming what is wrong, before
# it starts or writes anything (scripts/test runs this).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails() {  # fails EXPECTED ARGS...: run.sh exits non-zero and says EXPECTED
  local want=$1 out
  shift
  if out=$(bash "$here/run.sh" "$@" 2>&1); then
    echo "s4 bad input: run.sh $* succeeded" >&2
    exit 1
  fi
  grep -qF -- "$want" <<<"$out" || { echo "s4 bad input: run.sh $*: wanted '$want', got: $out" >&2; exit 1; }
}
fails "usage: run.sh WORK [--quick | --data DIR]"
fails "(got: $work/w --bogus)" "$work/w" --bogus
fails "--data $work/none: no such directory" "$work/w" --data "$work/none"
mkdir -p "$work/half/social_network/dynamic"
fails "has no social_network/static/" "$work/w" --data "$work/half"
[[ -z $(ls -A "$work/w" 2>/dev/null) ]] || { echo "s4 bad input: run.sh wrote into WORK before refusing" >&2; exit 1; }
echo "s4 bad input: run.sh refuses bad arguments and data sets, naming what is wrong"
