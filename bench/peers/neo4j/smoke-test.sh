#!/usr/bin/env bash
# End-to-end check of the Neo4j peer: build, bulk-import a tiny Person/KNOWS graph from CSVs,
# start the server on a free port, check exact answers over Bolt (reads, a Neo4j 5 constraint,
# a write, an error), restart to check the write persisted, stop. Exits non-zero on any mismatch.
#   bench/peers/neo4j/smoke-test.sh          (SMOKE_KEEP=1 keeps the temp dir for inspection)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
peer="$here/neo4j.sh"

dir=$(mktemp -d "${TMPDIR:-/tmp}/neo4j-peer-smoke.XXXXXX")
home="$dir/home"
cleanup() {
  "$peer" stop "$home" >/dev/null 2>&1 || true
  if [[ -n ${SMOKE_KEEP:-} ]]; then echo "smoke: kept $dir" >&2; else rm -rf "$dir"; fi
}
trap cleanup EXIT

passed=0 failed=0
fail() { echo "smoke: FAIL: $*" >&2; failed=$((failed + 1)); }
ok() { echo "smoke: ok: $*"; passed=$((passed + 1)); }
# expect "what" "expected JSON lines" cypher-args...
expect() {
  local what=$1 want=$2 got; shift 2
  if ! got=$("$peer" cypher "$port" "$@" 2>&1); then
    fail "$what: query failed: $got"
    return
  fi
  if [[ $got == "$want" ]]; then ok "$what"; else fail "$what"$'\n'"  expected: ${want//$'\n'/$'\n'            }"$'\n'"  got:      ${got//$'\n'/$'\n'            }"; fi
}
# expect_error "what" "message part" cypher-args...
expect_error() {
  local what=$1 want=$2 got; shift 2
  if got=$("$peer" cypher "$port" "$@" 2>&1); then fail "$what: expected an error, got: $got"; return; fi
  if [[ $got == *"$want"* ]]; then ok "$what"; else fail "$what: expected error containing '$want', got: $got"; fi
}
secs() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# --- data: 5 people (one without a name), 4 KNOWS edges; '|' delimited, headers apart.
mkdir -p "$dir/csv"
printf 'id:ID|name:STRING\n' >"$dir/csv/person_hdr.csv"
printf '1|Alice\n2|Bob\n3|Carol\n4|Dave\n5|\n' >"$dir/csv/person.csv"
printf ':START_ID|:END_ID|since:INT\n' >"$dir/csv/knows_hdr.csv"
printf '1|2|2010\n1|3|2012\n2|3|2015\n3|4|2020\n' >"$dir/csv/knows.csv"

t=$(date +%s.%N); "$peer" build; echo "smoke: build step $(secs "$t") s"
t=$(date +%s.%N); "$peer" venv; echo "smoke: venv step $(secs "$t") s"

t=$(date +%s.%N)
"$peer" import "$home" \
  --nodes "Person=$dir/csv/person_hdr.csv,$dir/csv/person.csv" \
  --relationships "KNOWS=$dir/csv/knows_hdr.csv,$dir/csv/knows.csv"
echo "smoke: import step $(secs "$t") s"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
t=$(date +%s.%N); "$peer" start "$home" "$port"; echo "smoke: start-to-ready $(secs "$t") s"
"$peer" status "$home"

expect "node count" '{"c": 5}' 'MATCH (p:Person) RETURN count(p) AS c'
expect "edge count" '{"c": 4}' 'MATCH (:Person)-[k:KNOWS]->(:Person) RETURN count(k) AS c'
expect "1-hop neighbours of 3 (undirected)" \
  '{"id": 1, "name": "Alice"}
{"id": 2, "name": "Bob"}
{"id": 4, "name": "Dave"}' \
  'MATCH (p:Person {id: $id})-[:KNOWS]-(f:Person) RETURN f.id AS id, f.name AS name ORDER BY id' '{"id": 3}'
expect "out-neighbours of 1 with edge property" \
  '{"id": 2, "since": 2010}
{"id": 3, "since": 2012}' \
  'MATCH (:Person {id: 1})-[k:KNOWS]->(f) RETURN f.id AS id, k.since AS since ORDER BY id'
expect "empty CSV field is an absent property" '{"missing": true, "keys": ["id"]}' \
  'MATCH (p:Person {id: 5}) RETURN p.name IS NULL AS missing, keys(p) AS keys'
expect "2-hop reachability from 1" '{"ids": [2, 3, 4]}' \
  'MATCH (:Person {id: 1})-[:KNOWS*1..2]->(f) WITH DISTINCT f.id AS id ORDER BY id RETURN collect(id) AS ids'
expect "Neo4j 5 constraint syntax" '' \
  'CREATE CONSTRAINT person_id IF NOT EXISTS FOR (p:Person) REQUIRE p.id IS UNIQUE'
expect "await indexes" '' 'CALL db.awaitIndexes()'
expect "write" '{"id": 6}' 'CREATE (p:Person {id: 6, name: "Eve"}) RETURN p.id AS id'
expect_error "unique constraint rejects a duplicate" 'ConstraintValidationFailed' \
  'CREATE (:Person {id: 1, name: "Alice again"})'
expect_error "syntax error is reported" 'SyntaxError' 'MATCH (n RETURN n'

t=$(date +%s.%N); "$peer" stop "$home"; echo "smoke: stop $(secs "$t") s"
if "$peer" status "$home" >/dev/null; then fail "status says running after stop"; else ok "status after stop"; fi

t=$(date +%s.%N); "$peer" start "$home" "$port"; echo "smoke: restart-to-ready $(secs "$t") s"
expect "write persisted across restart" '{"c": 6}' 'MATCH (p:Person) RETURN count(p) AS c'
expect "constraint persisted" '{"name": "person_id", "type": "UNIQUENESS"}' \
  'SHOW CONSTRAINTS YIELD name, type RETURN name, type'
"$peer" stop "$home"

echo "smoke: $passed passed, $failed failed"
(( failed == 0 ))
