"""Neo4j's Python driver against `kith route` (docs/sharding.md): the official test
data set split into a person shard and two forum shards, each a `kith serve`, and a
router with Bolt in front. The LDBC reads as Cypher CALLs, a `USE` query and a
`CALL { USE ... }` fan-out answer exactly what one server holding the whole graph
answers, through `bolt://` sessions and `execute_query` (a read transaction); what a
router cannot run fails with a Neo4j error code."""
from __future__ import annotations

import json
import subprocess
import time
import urllib.request
from pathlib import Path

import neo4j
import pytest

from conftest import SHARED, _two_free_ports, kith_bin, start, stop


def route(person: list[str], forums: list[str], log: Path):
    """`kith route`; ``person`` is ``["--person", URL]`` or ``["--data", DIR]``."""
    http_port, bolt_port = _two_free_ports()
    command = [str(kith_bin()), "route", *person, "--forums", ",".join(forums),
               "--listen", f"127.0.0.1:{http_port}", "--bolt-listen", f"127.0.0.1:{bolt_port}",
               "--auth", "none"]
    process = subprocess.Popen(command, stdout=log.open("w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"kith route exited:\n{log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{http_port}/health", timeout=1) as r:
                health = json.loads(r.read())
                # A router takes no writes, even one holding the person shard.
                assert health["writable"] is False, health
                return process, f"bolt://127.0.0.1:{bolt_port}"
        except OSError:
            time.sleep(0.1)
    process.kill()
    pytest.fail(f"kith route did not answer /health within 30 s:\n{log.read_text()[-4000:]}")


@pytest.fixture(scope="module", params=["beside", "on-person-shard"])
def router(request, tmp_path_factory: pytest.TempPathFactory, ldbc_server):
    """The router beside the shards (`--person URL`), or holding the person shard
    itself (`--data DIR/person`)."""
    root = tmp_path_factory.mktemp("shards")
    whole = root / "whole"
    subprocess.run([str(kith_bin()), "load", "ldbc", str(SHARED / "ldbc-snb-interactive-test" / "vanilla"),
                    "--out", str(whole)], check=True, capture_output=True)
    subprocess.run([str(kith_bin()), "shard", "split", str(whole), "--forum-shards", "2",
                    "--out", str(root / "shards")], check=True, capture_output=True)
    colocated = request.param == "on-person-shard"
    names = ["forum-0", "forum-1"] if colocated else ["person", "forum-0", "forum-1"]
    shards = [start(root / "shards" / name, root / f"{name}.log") for name in names]
    urls = [f"ws://127.0.0.1:{s.http_port}/v1/ws" for s in shards]
    person = ["--data", str(root / "shards" / "person")] if colocated else ["--person", urls.pop(0)]
    process, bolt = route(person, urls, root / "route.log")
    yield bolt
    process.terminate()
    process.wait(timeout=30)
    for s in shards:
        stop(s)


SAME = [
    ("CALL ldbc.ic9($personId, $maxDate)", "CALL ldbc.ic9($personId, $maxDate)"),
    ("CALL ldbc.is1($personId) YIELD firstName, lastName RETURN firstName, lastName",
     "CALL ldbc.is1($personId) YIELD firstName, lastName RETURN firstName, lastName"),
    ("USE person MATCH (p:Person {id: $personId})-[:KNOWS]-(f) RETURN f.id AS friend ORDER BY friend",
     "MATCH (p:Person {id: $personId})-[:KNOWS]-(f) RETURN f.id AS friend ORDER BY friend"),
    ("UNWIND kith.graphIds() AS g CALL { USE kith.graph(g) MATCH (m:Message) RETURN count(m) AS c } "
     "RETURN sum(c) AS messages",
     "MATCH (m:Message) RETURN count(m) AS messages"),
]
PARAMS = {"personId": 76, "maxDate": 1289865600000}


@pytest.mark.parametrize("routed,whole", SAME)
def test_answers_equal_one_server_through_sessions_and_execute_query(router, ldbc_server, routed, whole):
    with neo4j.GraphDatabase.driver(ldbc_server.bolt, auth=("neo4j", "unused")) as one:
        with one.session() as session:
            want = [list(r.values()) for r in session.run(whole, PARAMS)]
    assert want, f"{whole} answers something"
    with neo4j.GraphDatabase.driver(router, auth=("neo4j", "unused")) as driver:
        with driver.session() as session:
            got = [list(r.values()) for r in session.run(routed, PARAMS)]
        assert got == want
        records, _, _ = driver.execute_query(routed, PARAMS, routing_=neo4j.RoutingControl.READ)
        assert [list(r.values()) for r in records] == want


def test_what_a_router_cannot_run_fails_with_a_neo4j_code(router):
    with neo4j.GraphDatabase.driver(router, auth=("neo4j", "unused")) as driver:
        with driver.session() as session:
            with pytest.raises(neo4j.exceptions.ClientError) as e:
                session.run("MATCH (n) RETURN count(n)").consume()
            assert e.value.code == "Neo.ClientError.Statement.SemanticError"
            assert "USE" in e.value.message
            # A write is `read_only`, which Bolt sends as Neo4j's "not a leader": the
            # driver reports that no server takes writes here.
            with pytest.raises(neo4j.exceptions.WriteServiceUnavailable):
                session.run("USE forum0 CREATE (n:Person {id: 1})").consume()
            # The session goes on after a failure.
            assert session.run("RETURN 1 AS one").single()["one"] == 1
