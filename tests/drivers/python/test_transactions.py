"""SHOW TRANSACTIONS and TERMINATE TRANSACTION through Neo4j's Python driver, as an
operator would use them: long queries hold both workers, an admin still lists them at
once (who runs what, from where, for how long), stops one, and its client gets Neo4j's
Transaction.Terminated; a reader sees only their own and may not stop another's."""
from __future__ import annotations

import threading
import time

import neo4j
import pytest
from neo4j.exceptions import Neo4jError

from conftest import start, stop
from test_auth import user

# About a billion rows through the engine: many seconds, streamed, bounded memory.
LONG = "UNWIND range(1, 100000) AS i CALL { WITH i UNWIND range(1, 10000) AS j RETURN count(*) AS c } RETURN sum(c) AS n"


@pytest.fixture()
def server(tmp_path):
    data = tmp_path / "data"
    user(data, "add", "ada", "--role", "admin", password="ada-pw")
    user(data, "add", "will", "--role", "writer", password="will-pw")
    user(data, "add", "rita", "--role", "reader", password="rita-pw")
    s = start(data, tmp_path / "serve.log", "--query-timeout-ms", "120000")
    yield s
    stop(s)


def run_long(server, outcome: dict, key: str) -> None:
    try:
        with neo4j.GraphDatabase.driver(server.bolt, auth=("will", "will-pw")) as d:
            with d.session() as s:
                outcome[key] = s.run(LONG).single()["n"]
    except Neo4jError as e:
        outcome[key] = e


def show(server, auth, query="SHOW TRANSACTIONS", **params):
    with neo4j.GraphDatabase.driver(server.bolt, auth=auth) as d:
        records, _, _ = d.execute_query(query, params)
        return [r.data() for r in records]


def test_an_admin_lists_and_stops_queries_while_every_worker_is_busy(server):
    outcome: dict = {}
    threads = [threading.Thread(target=run_long, args=(server, outcome, k)) for k in ("a", "b")]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 10
    running: list = []
    while len(running) < 2 and time.monotonic() < deadline:
        begun = time.monotonic()
        running = show(server, ("ada", "ada-pw"),
                       "SHOW TRANSACTIONS YIELD transactionId, username, currentQuery, clientAddress, "
                       "connectionId, status, elapsedTime WHERE currentQuery STARTS WITH 'UNWIND' "
                       "RETURN transactionId, username, clientAddress, connectionId, status, elapsedTime "
                       "ORDER BY transactionId")
        took = time.monotonic() - begun
    assert len(running) == 2, running
    # Answered on the spot, not after a worker frees up (both are busy).
    assert took < 2, took
    first = running[0]
    assert first["username"] == "will" and first["status"] == "Running"
    assert first["transactionId"].startswith("kith-transaction-")
    assert first["connectionId"].startswith("bolt-")
    assert first["clientAddress"].startswith("127.0.0.1:")
    assert first["elapsedTime"].seconds >= 0

    # A reader sees only their own requests, and may not stop will's.
    mine = show(server, ("rita", "rita-pw"))
    assert [r["username"] for r in mine] == ["rita"], mine
    # To her another user's request does not exist: no answer tells whose it is.
    denied = show(server, ("rita", "rita-pw"), "TERMINATE TRANSACTION $id", id=first["transactionId"])
    assert denied == [{"transactionId": first["transactionId"], "username": None, "message": "Transaction not found."}]

    ids = [r["transactionId"] for r in running]
    stopped = show(server, ("ada", "ada-pw"), "TERMINATE TRANSACTIONS $ids", ids=ids + ["kith-transaction-999999"])
    assert [r["message"] for r in stopped] == ["Transaction terminated."] * 2 + ["Transaction not found."]
    for t in threads:
        t.join(timeout=30)
    for key in ("a", "b"):
        assert isinstance(outcome[key], Neo4jError), outcome
        assert outcome[key].code == "Neo.ClientError.Transaction.Terminated", outcome[key]
    left = show(server, ("ada", "ada-pw"), "SHOW TRANSACTIONS YIELD currentQuery WHERE currentQuery STARTS WITH 'UNWIND'")
    assert left == []


def test_malformed_commands_say_what_is_wrong(server):
    with neo4j.GraphDatabase.driver(server.bolt, auth=("ada", "ada-pw")) as d:
        with pytest.raises(Neo4jError) as e:
            d.execute_query("TERMINATE TRANSACTIONS")
        assert "needs the ids" in e.value.message
        with pytest.raises(Neo4jError) as e:
            d.execute_query("SHOW TRANSACTIONS RETURN 1")
        assert "expected YIELD or WHERE" in e.value.message
        # Its tail reads the listing only: a write or a graph read is refused.
        with pytest.raises(Neo4jError) as e:
            d.execute_query("SHOW TRANSACTIONS WHERE true CREATE (n:Sneaky)")
        assert "not CREATE" in e.value.message
        records, _, _ = d.execute_query("MATCH (n:Sneaky) RETURN count(n) AS n")
        assert records[0]["n"] == 0


def test_transaction_metadata_is_read_changed_and_listed(server):
    # The driver's `metadata=` (Bolt's tx_metadata), as applications and tools tag
    # their transactions: tx.getMetaData() answers it, tx.setMetaData() replaces it,
    # SHOW TRANSACTIONS lists it. Each answer's shape is Neo4j 5.26's.
    with neo4j.GraphDatabase.driver(server.bolt, auth=("ada", "ada-pw")) as d:
        with d.session() as s:
            tx = s.begin_transaction(metadata={"app": "shop", "n": 1, "tags": ["a", "b"]})
            want = {"app": "shop", "n": 1, "tags": ["a", "b"]}
            assert tx.run("CALL tx.getMetaData()").single()["metadata"] == want
            listed = tx.run("SHOW TRANSACTIONS YIELD currentQuery, metaData "
                            "WHERE currentQuery STARTS WITH 'SHOW' RETURN metaData").data()
            assert listed == [{"metaData": want}]
            tx.run("CALL tx.setMetaData({app: 'crm'})").consume()
            got = tx.run("CALL tx.getMetaData() YIELD metadata RETURN metadata.app AS app")
            assert got.single()["app"] == "crm"
            tx.rollback()
            auto = s.run(neo4j.Query("CALL tx.getMetaData()", metadata={"k": "v"}))
            assert auto.single()[0] == {"k": "v"}
            assert s.run("CALL tx.getMetaData()").single()[0] == {}
            with pytest.raises(Neo4jError) as e:
                s.run("CALL tx.setMetaData(1)").consume()
            assert "map" in e.value.message.lower()
