"""Writes against a real `kith serve` on an empty new directory (docs/protocol.md
1.3.1): transactions read back with graph.find_nodes and graph.node, indexes,
"create if absent" under concurrency, error codes, HTTP, and a restart.

The tests share one server (``kith_write_server``); each uses its own labels so
they do not see each other's nodes.
"""

from __future__ import annotations

import asyncio
import threading
import time
import datetime as dt

import pytest

import kith
from conftest import empty_data, start_server, stop_server
from kith import ops

pytestmark = pytest.mark.integration

UTC = dt.timezone.utc
JOINED = dt.datetime(2012, 7, 28, 3, 0, 0, 854_000, tzinfo=UTC)
ENCODINGS = [("json", "none"), ("bson", "zstd"), ("msgpack", "lz4")]


def find(client: kith.Client, label: str, key: str, value) -> list[list]:
    return client.call("graph.find_nodes", label=label, key=key, value=value).rows()


@pytest.mark.parametrize("encoding,compression", ENCODINGS)
def test_a_transaction_creates_nodes_and_a_relationship_and_reads_back(kith_write_server, encoding, compression):
    label, admin = f"Person_{encoding}", f"Admin_{encoding}"  # the id index is per label: one each
    ann = {"id": 1, "email": "ann@example.org", "name": "Zoë Ann", "joined": JOINED, "score": 0.5, "tags": ["a", "b"]}
    with kith.connect(kith_write_server.ws_url, encoding=encoding, compression=compression) as client:
        done = client.write(
            [
                ops.create_node([label], ann),
                ops.create_node([label, admin], {"id": 2, "email": "bo@example.org"}),
                ops.create_rel("KNOWS", ops.created(0), ops.by_id(label, 2), {"since": 2024}),
            ]
        )
        assert isinstance(done, kith.WriteResult)
        assert done.version >= 1 and len(done.nodes) == 2 and len(done.rels) == 1
        assert done.timing is None

        assert find(client, label, "email", "ann@example.org") == [[done.nodes[0], [label], ann]]
        assert find(client, label, "email", "nobody@example.org") == []
        bo = client.call("graph.node", node=done.nodes[1]).single()
        assert bo["node"] == done.nodes[1]
        assert sorted(bo["labels"]) == sorted([label, admin])
        assert bo["properties"] == {"id": 2, "email": "bo@example.org"}

        # No procedure lists relationships; the relationship shows in what it
        # allows and forbids: its start node cannot be deleted without detach.
        with pytest.raises(kith.WriteError) as info:
            client.write([ops.delete_node(ops.node(done.nodes[0]))])
        assert info.value.code == "invalid_write"
        changed = client.write([ops.set_rel(done.rels[0], {"since": 2025}), ops.set_node(done.nodes[0], {"name": None})])
        assert changed.version > done.version and changed.nodes == [] and changed.rels == []
        assert "name" not in client.call("graph.node", node=done.nodes[0]).single()["properties"]
        client.write([ops.delete_rel(done.rels[0]), ops.delete_node(ops.by_id(label, 1))])
        with pytest.raises(kith.NotFound):
            client.call("graph.node", node=done.nodes[0])
        with pytest.raises(kith.NotFound):
            client.write([ops.set_rel(done.rels[0], {"since": 1})])


def test_labels_and_detach(kith_write_server):
    with kith.connect(kith_write_server.ws_url) as client:
        done = client.write(
            [
                ops.create_node(["Label_a"], {"id": 1}),
                ops.create_node(["Label_a"], {"id": 2}),
                ops.create_rel("R", ops.created(0), ops.created(1)),
                ops.add_label(ops.created(0), "Label_b"),
            ]
        )
        first = ops.node(done.nodes[0])
        assert sorted(client.call("graph.node", node=done.nodes[0]).single()["labels"]) == ["Label_a", "Label_b"]
        client.write([ops.remove_label(first, "Label_a")])
        assert client.call("graph.node", node=done.nodes[0]).single()["labels"] == ["Label_b"]
        client.write([ops.delete_node(first, detach=True)])
        with pytest.raises(kith.NotFound):
            client.call("graph.node", node=done.nodes[0])
        client.write([ops.delete_node(ops.node(done.nodes[1]))])  # its relationship went with the other end


def test_timing_on_request(kith_write_server):
    with kith.connect(kith_write_server.ws_url, encoding="msgpack") as client:
        done = client.write([ops.create_node(["Timed"])], timing=True)
    assert {"queue_us", "exec_us"} <= set(done.timing)
    assert all(isinstance(v, int) and v >= 0 for v in done.timing.values())


def test_create_index_then_find(kith_write_server):
    label = "Indexed"
    with kith.connect(kith_write_server.ws_url, encoding="bson") as client:
        client.write([ops.create_index(label, "email")])
        done = client.write(
            [ops.create_node([label], {"id": i, "email": f"p{i % 3}@example.org"}) for i in range(30)]
        )
        rows = find(client, label, "email", "p1@example.org")
        assert [r[0] for r in rows] == [n for i, n in enumerate(done.nodes) if i % 3 == 1], "in id order"
        assert all(r[2]["email"] == "p1@example.org" for r in rows)
        client.write([ops.create_index(label, "email")])  # idempotent
        assert find(client, label, "email", "p1@example.org") == rows
        # Conditions use it too.
        with pytest.raises(kith.ConditionFailed):
            client.write([ops.require_absent(label, "email", "p2@example.org")])
        client.write([ops.require_present(label, "email", "p2@example.org"), ops.create_node([label])])
        client.write([ops.drop_index(label, "email")])
        assert find(client, label, "email", "p1@example.org") == rows, "found by a scan after the drop"
        with pytest.raises(kith.NotFound) as info:
            client.write([ops.drop_index(label, "email")])
        assert info.value.code == "not_found"


@pytest.mark.parametrize("indexed", [False, True])
async def test_concurrent_create_if_absent_creates_exactly_one_node(kith_write_server, indexed):
    label = f"User_{'indexed' if indexed else 'scanned'}"
    create_if_absent = [
        ops.require_absent(label, "name", "ann"),
        ops.create_node([label], {"name": "ann"}),
    ]
    async with kith.connect_async(kith_write_server.ws_url, encoding="msgpack", pool_size=4) as client:
        if indexed:
            await client.write([ops.create_index(label, "name")])
        outcomes = await asyncio.gather(*(client.write(create_if_absent) for _ in range(32)), return_exceptions=True)
        created = [o for o in outcomes if isinstance(o, kith.WriteResult)]
        refused = [o for o in outcomes if isinstance(o, kith.ConditionFailed)]
        assert len(created) == 1, outcomes
        assert len(refused) == 31 and all(r.code == "condition_failed" for r in refused), outcomes
        rows = (await client.call("graph.find_nodes", label=label, key="name", value="ann")).rows()
    assert [r[0] for r in rows] == created[0].nodes


def test_error_codes(kith_write_server):
    label = "Errors"
    with kith.connect(kith_write_server.ws_url, encoding="json") as client:
        # A malformed operation: unknown op, unknown field, mistyped field.
        for bad in [
            {"op": "create_nod", "labels": [label]},
            {"op": "delete_rel", "rel": 1, "bogus": 1},
            {"op": "create_node", "labels": label},
        ]:
            with pytest.raises(kith.ProtocolError) as info:
                client.write([ops.create_node([label]), bad])
            assert info.value.code == "bad_request"
            assert "operation 1" in info.value.message, info.value.message
        with pytest.raises(kith.ProtocolError, match="bad_request"):
            client.write([])

        client.write([ops.create_node([label], {"id": 1, "email": "ann@example.org"})])
        with pytest.raises(kith.DuplicateId) as info:
            client.write([ops.create_node([label], {"id": 1})])
        assert info.value.code == "duplicate_id"
        with pytest.raises(kith.DuplicateId):
            client.write([ops.create_node([label], {"id": 2}), ops.create_node([label], {"id": 2})])

        with pytest.raises(kith.ConditionFailed) as info:
            client.write([ops.require_absent(label, "email", "ann@example.org"), ops.create_node([label])])
        assert info.value.code == "condition_failed"
        with pytest.raises(kith.ConditionFailed):
            client.write([ops.require_present(label, "email", "nobody@example.org")])

        with pytest.raises(kith.NotFound) as info:
            client.write([ops.create_rel("R", ops.by_id(label, 1), ops.by_id(label, 999))])
        assert info.value.code == "not_found"
        with pytest.raises(kith.WriteError) as info:
            client.write([ops.create_node([label], {"id": "three"})])
        assert info.value.code == "invalid_write"

        # A failed transaction changed nothing, not even its operations before the failure.
        with pytest.raises(kith.ConditionFailed):
            client.write(
                [
                    ops.create_node([label], {"id": 10, "email": "half@example.org"}),
                    ops.require_present(label, "email", "nobody@example.org"),
                ]
            )
        assert find(client, label, "email", "half@example.org") == []
        assert len(find(client, label, "email", "ann@example.org")) == 1
        # The connection goes on.
        assert client.write([ops.create_node([label], {"id": 2})]).nodes


async def test_error_codes_async(kith_write_server):
    async with kith.connect_async(kith_write_server.ws_url, encoding="bson", compression="deflate-fast") as client:
        await client.write([ops.create_node(["AsyncErrors"], {"id": 1})])
        with pytest.raises(kith.DuplicateId):
            await client.write([ops.create_node(["AsyncErrors"], {"id": 1})])
        with pytest.raises(kith.ProtocolError) as info:
            await client.write([{"op": "nope"}])
        assert info.value.code == "bad_request"


def test_http_write(kith_write_server):
    base, label = kith_write_server.http_url, "Http"
    done = kith.http_write(
        base,
        [
            ops.create_node([label], {"id": 1, "email": "ann@example.org", "joined": JOINED}),
            ops.create_node([label], {"id": 2}),
            ops.create_rel("KNOWS", ops.created(0), ops.created(1)),
        ],
    )
    assert isinstance(done, kith.WriteResult) and len(done.nodes) == 2 and len(done.rels) == 1
    found = kith.http_call(base, "graph.find_nodes", label=label, key="email", value="ann@example.org")
    assert found.rows() == [[done.nodes[0], [label], {"id": 1, "email": "ann@example.org", "joined": JOINED}]]
    with kith.connect(kith_write_server.ws_url) as client:
        assert client.call("graph.node", node=done.nodes[1]).single()["properties"] == {"id": 2}
    assert kith.http_health(base)["version"] >= done.version

    with pytest.raises(kith.DuplicateId):
        kith.http_write(base, [ops.create_node([label], {"id": 1})])
    with pytest.raises(kith.ConditionFailed):
        kith.http_write(base, [ops.require_absent(label, "email", "ann@example.org")])
    with pytest.raises(kith.ProtocolError) as info:
        kith.http_write(base, [{"op": "create_nod"}])
    assert info.value.code == "bad_request"
    with pytest.raises(kith.NotFound):
        kith.http_write(base, [ops.drop_index(label, "nothing")])


def test_writes_survive_a_restart(kith_bin, tmp_path_factory):
    data = empty_data(tmp_path_factory)
    logs = tmp_path_factory.mktemp("logs")
    server = start_server(kith_bin, data, logs)
    try:
        assert kith.http_health(server.http_url)["nodes"] == 0
        with kith.connect(server.ws_url, encoding="msgpack") as client:
            client.write([ops.create_index("Person", "email")])
            first = client.write(
                [
                    ops.create_node(["Person"], {"id": 1, "email": "ann@example.org", "joined": JOINED}),
                    ops.create_node(["Person"], {"id": 2, "email": "bo@example.org"}),
                    ops.create_rel("KNOWS", ops.created(0), ops.created(1), {"since": 2024}),
                ]
            )
            last = client.write([ops.set_node(ops.by_id("Person", 2), {"email": "bo@example.com"})])
    finally:
        stop_server(server)
    assert server.process.returncode == 0, server.log.read_text()[-4000:]

    server = start_server(kith_bin, data, logs)
    try:
        health = kith.http_health(server.http_url)
        assert (health["nodes"], health["relationships"], health["version"]) == (2, 1, last.version)
        with kith.connect(server.ws_url, encoding="bson") as client:
            ann = find(client, "Person", "email", "ann@example.org")
            assert ann == [[first.nodes[0], ["Person"], {"id": 1, "email": "ann@example.org", "joined": JOINED}]]
            assert find(client, "Person", "email", "bo@example.com")[0][0] == first.nodes[1]
            assert find(client, "Person", "email", "bo@example.org") == []
            assert client.call("graph.node", node=first.nodes[1]).single()["properties"]["email"] == "bo@example.com"
            # The relationship came back too: its start node still cannot go without detach.
            with pytest.raises(kith.WriteError, match="invalid_write"):
                client.write([ops.delete_node(ops.by_id("Person", 1))])
            # And the (label, id) index: ids stay unique.
            with pytest.raises(kith.DuplicateId):
                client.write([ops.create_node(["Person"], {"id": 1})])
            after = client.write([ops.create_node(["Person"], {"id": 3})])
            assert after.version == last.version + 1
    finally:
        stop_server(server)
    assert server.process.returncode == 0, server.log.read_text()[-4000:]


def test_explicit_transactions_read_their_writes_and_conflict(kith_write_server):
    with kith.connect(kith_write_server.ws_url) as client:
        client.cypher("CREATE (:TxP {id: 1, v: 0})")
        with client.begin() as tx:
            tx.cypher("MATCH (p:TxP {id: 1}) SET p.v = 1 CREATE (:TxP {id: 2, v: 2})")
            assert tx.cypher("MATCH (p:TxP) RETURN sum(p.v) AS s").rows() == [[3]]
            assert client.cypher("MATCH (p:TxP) RETURN count(p)").rows() == [[1]]
        assert client.cypher("MATCH (p:TxP) RETURN sum(p.v)").rows() == [[3]]
        # A change to what another open transaction changed waits for its commit,
        # then reads the committed value.
        with kith.connect(kith_write_server.ws_url) as other:
            a, b = client.begin(), other.begin()
            a.cypher("MATCH (p:TxP {id: 1}) SET p.v = p.v + 1")
            seen = []
            waiting = threading.Thread(
                target=lambda: seen.append(b.cypher("MATCH (p:TxP {id: 1}) SET p.v = p.v * 10 RETURN p.v").rows())
            )
            waiting.start()
            time.sleep(0.2)
            assert seen == [], "b waits for a"
            a.commit()
            waiting.join(timeout=10)
            assert seen == [[[20]]]
            b.commit()
        # An auto-commit write takes no lock: the transaction conflicts at commit.
        a = client.begin()
        a.cypher("MATCH (p:TxP {id: 1}) SET p.v = 10")
        client.cypher("MATCH (p:TxP {id: 1}) SET p.v = 30")
        with pytest.raises(kith.Conflict):
            a.commit()
        client.cypher("MATCH (p:TxP {id: 1}) SET p.v = 10")
        with pytest.raises(ZeroDivisionError):
            with client.begin() as tx:
                tx.cypher("CREATE (:TxP {id: 3})")
                raise ZeroDivisionError
        assert client.cypher("MATCH (p:TxP) RETURN collect(p.v)").rows() == [[[10, 2]]]
