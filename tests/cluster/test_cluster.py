"""A primary and two read replicas over a real Kafka broker, through the clients
people use: kith's Python client (``kith.connect_cluster``: writes to the primary,
reads spread over the replicas, each session reading its own writes) and Neo4j's own
Python driver with ``neo4j://`` routing and bookmarks.

Needs ``KITH_TEST_KAFKA`` (a broker's HOST:PORT) and ``KITH_BIN``:
``scripts/kafka/test`` runs it.
"""
from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "clients" / "python" / "src"))

import kith  # noqa: E402
import neo4j  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Node:
    http: int
    bolt: int
    process: subprocess.Popen

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.http}/v1/ws"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.http}"

    @property
    def bolt_address(self) -> str:
        return f"127.0.0.1:{self.bolt}"


def _start(data: Path, log: Path, http: int, bolt: int, *extra: str) -> Node:
    kith_bin = os.environ.get("KITH_BIN", str(REPO / "target" / "release" / "kith"))
    command = [kith_bin, "serve", "--data", str(data), "--listen", f"127.0.0.1:{http}",
               "--bolt-listen", f"127.0.0.1:{bolt}", "--auth", "none", *extra]
    process = subprocess.Popen(command, stdout=log.open("a"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"kith serve exited:\n{log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{http}/health", timeout=1):
                return Node(http, bolt, process)
        except OSError:
            time.sleep(0.1)
    process.kill()
    pytest.fail(f"kith serve did not answer:\n{log.read_text()[-4000:]}")


def _wait_for_checkpoint(primary: Node) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{primary.base}/v1/checkpoint", timeout=5) as answer:
                answer.read()
                return
        except OSError:
            time.sleep(0.2)
    pytest.fail("the primary never served a checkpoint")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    broker = os.environ.get("KITH_TEST_KAFKA")
    if not broker:
        pytest.fail("KITH_TEST_KAFKA names no broker: run this through scripts/kafka/test")
    work = tmp_path_factory.mktemp("cluster")
    topic = f"kafka://{broker}/pycluster-{random.getrandbits(40)}"
    ports = {name: (_free_port(), _free_port()) for name in ("p", "a", "b")}
    route = ["--route-write", f"127.0.0.1:{ports['p'][1]}",
             "--route-read", f"127.0.0.1:{ports['a'][1]},127.0.0.1:{ports['b'][1]}"]
    primary = _start(work / "p", work / "p.log", *ports["p"], "--publish", topic, *route)
    _wait_for_checkpoint(primary)
    replicas = [
        _start(work / name, work / f"{name}.log", *ports[name], "--replica-of", topic,
               "--bootstrap", primary.base, *route)
        for name in ("a", "b")
    ]
    yield primary, replicas
    for node in (primary, *replicas):
        node.process.send_signal(signal.SIGTERM)
        node.process.wait(timeout=60)


def test_every_session_reads_its_own_writes_on_the_replicas(cluster):
    primary, replicas = cluster
    stale: list[str] = []
    reads: list[int] = []

    def run(session_id: int) -> None:
        with kith.connect_cluster(primary.ws, [r.ws for r in replicas]) as c:
            session = c.session()
            for value in range(1, 80):
                session.cypher("MERGE (p:Person {id: $id}) SET p.v = $v", id=1000 + session_id, v=value)
                got = session.read("MATCH (p:Person {id: $id}) RETURN p.v AS v", id=1000 + session_id)
                reads.append(session_id)  # list.append is atomic: no lost counts
                if len(got) != 1 or got[0]["v"] < value:
                    stale.append(f"session {session_id} wrote {value} at version {session.version}, read {got.rows()}")

    errors: list[BaseException] = []

    def guarded(session_id: int) -> None:
        try:
            run(session_id)
        except BaseException as e:  # a thread's failure fails the test
            errors.append(e)

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert not stale, stale[:5]
    assert len(reads) == 4 * 79


def test_a_read_waits_for_its_version_and_says_so_when_it_cannot(cluster):
    primary, replicas = cluster
    with kith.connect_cluster(primary.ws, [replicas[0].ws]) as c:
        session = c.session()
        session.observe(10**12)  # a version nobody has written
        with pytest.raises(kith.Timeout) as failure:
            session.read("RETURN 1 AS one")
        assert "needs version 1000000000000" in str(failure.value)
        assert "min_version_wait_ms" in str(failure.value)


def test_writes_to_a_replica_are_refused_naming_the_primary(cluster):
    primary, replicas = cluster
    with kith.connect(replicas[0].ws) as client:
        with pytest.raises(kith.KithError) as refused:
            client.cypher("CREATE (:Person {id: 1})")
    assert refused.value.code == "read_only"
    assert primary.base in str(refused.value)


def test_neo4j_driver_routes_writes_to_the_primary_and_reads_its_writes(cluster):
    primary, replicas = cluster
    # Reached through a replica: ROUTE answers the whole cluster.
    with neo4j.GraphDatabase.driver(f"neo4j://{replicas[1].bolt_address}", auth=None) as driver:
        table = driver.execute_query("RETURN 1 AS one", routing_=neo4j.RoutingControl.READ)
        assert table.records[0]["one"] == 1
        for value in range(5):
            # execute_query chains bookmarks: each read follows the write before it.
            driver.execute_query("MERGE (p:Person {id: 1}) SET p.v = $v", v=value)
            records, _, _ = driver.execute_query(
                "MATCH (p:Person {id: 1}) RETURN p.v AS v", routing_=neo4j.RoutingControl.READ)
            assert records[0]["v"] == value
        with driver.session(default_access_mode=neo4j.READ_ACCESS) as session:
            server = session.run("RETURN 1").consume().server.address
        readers = {("127.0.0.1", r.bolt) for r in replicas}
        assert (server.host, server.port) in readers, f"a read went to {server}"


def test_neo4j_routing_sends_writes_entered_at_a_replica_to_the_primary(cluster):
    primary, replicas = cluster
    # Entered at a replica, which takes no writes: only the routing table can send
    # this write to the primary (with a single-server table it would be refused).
    with neo4j.GraphDatabase.driver(f"neo4j://{replicas[0].bolt_address}", auth=None) as driver:
        with driver.session(default_access_mode=neo4j.WRITE_ACCESS) as session:
            summary = session.run("CREATE (:Person {id: 77})").consume()
            assert (summary.server.address.host, summary.server.address.port) == ("127.0.0.1", primary.bolt)
            assert summary.counters.nodes_created == 1


def test_replicas_report_how_far_behind_they_are(cluster):
    primary, replicas = cluster
    with kith.connect(primary.ws) as client:
        client.cypher("CREATE (:Lag {n: 1})")
    for replica in replicas:
        deadline = time.monotonic() + 30
        while True:
            with urllib.request.urlopen(f"{replica.base}/health", timeout=5) as answer:
                health = json.loads(answer.read())
            behind = health["replication"]["messages_behind"]
            if behind == 0 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert behind == 0, health
        with urllib.request.urlopen(f"{replica.base}/metrics", timeout=5) as answer:
            assert "kith_replica_messages_behind 0" in answer.read().decode()
