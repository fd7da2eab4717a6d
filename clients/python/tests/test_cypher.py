"""Cypher (docs/protocol.md 1.3.2): the request document and the answers without a
server, then ``Client.cypher``, ``AsyncClient.cypher`` and ``http_cypher`` against a
real `kith serve` (fixtures in conftest.py)."""

from __future__ import annotations

import asyncio

import pytest

import kith
from kith import COMPRESSIONS, ENCODINGS
from kith._codec import get_codec
from kith._frames import FLAG_MORE, KIND_ERROR, KIND_RESULT, encode_header
from kith._wire import Dispatcher, Wire, cypher_document, merge_params
from kith.errors import error_from_document

SUBPROTOCOLS = [(e, c) for e in ENCODINGS for c in COMPRESSIONS]
FRIENDS = (
    "MATCH (p:Person {id: $id})-[:FRIEND_OF]->(f:Person)\n"
    "RETURN f.id AS id, f.displayName AS displayName ORDER BY id"
)
SYNTAX_ERROR = "MATCH (p:Person)\n  RETRUN p.id"


# --- without a server ---------------------------------------------------------------


def test_the_request_is_the_documented_json():
    payload, flags = Wire("json", "none").encode_cypher("RETURN $x", {"x": 1}, timing=True)
    assert payload == b'{"cypher":"RETURN $x","params":{"x":1},"timing":true}'
    assert flags == 0


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_request_decodes_in_every_encoding(encoding):
    doc = cypher_document("MATCH (p:Person {id: $id}) RETURN p", {"id": 7, "names": ["a", "b"]})
    assert get_codec(encoding).decode(get_codec(encoding).encode(doc)) == doc


def test_parameters_merge_with_keywords_winning():
    assert merge_params({"id": 1, "n": "a"}, {"id": 2}) == {"id": 2, "n": "a"}
    assert merge_params(None, {}) == {}
    with pytest.raises(TypeError):
        merge_params([("id", 1)], {})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cypher_document(b"RETURN 1", {})  # type: ignore[arg-type]


def test_errors_carry_the_engine_code_line_and_column():
    err = error_from_document(
        {
            "code": "cypher_error",
            "message": "expected end of the query, found 'RETRUN'",
            "cypher_code": "Neo.ClientError.Statement.SyntaxError",
            "line": 2,
            "column": 3,
        }
    )
    assert type(err) is kith.CypherError and isinstance(err, kith.KithError)
    assert (err.code, err.cypher_code, err.line, err.column) == (
        "cypher_error",
        "Neo.ClientError.Statement.SyntaxError",
        2,
        3,
    )
    assert str(err) == (
        "cypher_error: Neo.ClientError.Statement.SyntaxError: "
        "expected end of the query, found 'RETRUN' (line 2, column 3)"
    )
    timeout = error_from_document(
        {"code": "timeout", "message": "late", "cypher_code": "Neo.ClientError.Transaction.TransactionTimedOut"}
    )
    assert type(timeout) is kith.Timeout
    assert timeout.cypher_code.endswith("TransactionTimedOut") and timeout.line is None
    plain = error_from_document({"code": "busy", "message": "later"})
    assert (plain.cypher_code, plain.line, plain.column) == (None, None, None)


def test_the_last_chunk_carries_the_commit():
    wire = Wire("msgpack", "none")
    codec = get_codec("msgpack")
    dispatcher: Dispatcher[str] = Dispatcher(wire)
    request_id = dispatcher.register("future")
    first = codec.encode({"columns": ["id"], "rows": [[1]]})
    last = codec.encode(
        {"rows": [[2]], "commit": {"version": 9, "nodes_created": 2, "relationships_created": 1}}
    )
    assert dispatcher.feed(encode_header(KIND_RESULT, FLAG_MORE, request_id) + first) == []
    [(future, result)] = dispatcher.feed(encode_header(KIND_RESULT, 0, request_id) + last)
    assert future == "future" and result == [(1,), (2,)]
    assert result.commit == {"version": 9, "nodes_created": 2, "relationships_created": 1}
    request_id = dispatcher.register("next")
    error = codec.encode({"code": "cypher_error", "message": "m", "cypher_code": "Neo.X", "line": 1, "column": 5})
    [(_, raised)] = dispatcher.feed(encode_header(KIND_ERROR, 0, request_id) + error)
    assert isinstance(raised, kith.CypherError) and (raised.line, raised.column) == (1, 5)


# --- against a real server ----------------------------------------------------------


def friends_of(client: kith.Client, person_id: int) -> list[list]:
    rows = client.call("shindig.friends", person_id=person_id).rows()
    assert rows, f"person {person_id} has friends"
    return sorted(rows)


@pytest.mark.integration
@pytest.mark.parametrize("encoding,compression", SUBPROTOCOLS)
def test_a_read_query_in_every_subprotocol(kith_server, encoding, compression):
    with kith.connect(kith_server.ws_url, encoding=encoding, compression=compression) as client:
        expected = friends_of(client, 7)
        result = client.cypher(FRIENDS, id=7)
        assert result.columns == ["id", "displayName"]
        assert result.rows() == expected
        assert result.commit is None
        assert client.cypher(FRIENDS, {"id": 7}, timing=True).timing is not None


@pytest.mark.integration
@pytest.mark.parametrize("encoding", ["json", "bson", "msgpack"])
def test_temporal_values_in_every_encoding(kith_server, encoding):
    with kith.connect(kith_server.ws_url, encoding=encoding) as client:
        row = client.cypher(
            "RETURN date($d) + duration('P1M') AS d, $z AS z, "
            "datetime({year: 1984, month: 7, day: 20, hour: 12, timezone: 'Europe/Stockholm'}) AS s, "
            "duration.between(localtime('12:00'), localtime('13:30:00.000000001')) AS p",
            d="2024-01-31",
            z=kith.Temporal("time", "12:31:14.645876123+01:00"),
        ).rows()[0]
        assert row == [
            kith.Temporal("date", "2024-02-29"),
            kith.Temporal("time", "12:31:14.645876123+01:00"),
            kith.Temporal("datetime", "1984-07-20T12:00:00+02:00[Europe/Stockholm]"),
            kith.Temporal("duration", "PT1H30M0.000000001S"),
        ]
        with pytest.raises(kith.CypherError) as info:
            client.cypher("RETURN date('2024-02-30') AS d")
        assert "2024-02-30" in str(info.value)


@pytest.mark.integration
@pytest.mark.parametrize("encoding", ["json", "bson", "msgpack"])
def test_points_in_every_encoding(kith_server, encoding):
    with kith.connect(kith_server.ws_url, encoding=encoding) as client:
        row = client.cypher(
            "RETURN point({longitude: 12.5, latitude: 55.6}) AS made, $p AS echoed, "
            "$p.x + 1 AS x, point.distance($p, point({x: 4.5, y: 2.0})) AS d",
            p=kith.Point(7203, 1.5, -2.0),
        ).rows()[0]
        assert row == [kith.Point(4326, 12.5, 55.6), kith.Point(7203, 1.5, -2.0), 2.5, 5.0]
        with pytest.raises(kith.CypherError) as info:
            client.cypher("RETURN point({latitude: 100, longitude: 0}) AS p")
        assert "latitude" in str(info.value) or "Y coordinate" in str(info.value)


@pytest.mark.integration
@pytest.mark.parametrize("encoding", ["json", "bson", "msgpack"])
def test_byte_arrays_in_every_encoding(kith_server, encoding):
    with kith.connect(kith_server.ws_url, encoding=encoding) as client:
        row = client.cypher(
            "RETURN $b AS b, [$b, $e] AS both, size($b) AS n, $b[2] AS last",
            b=bytes([0, 128, 255]), e=b"",
        ).rows()[0]
        assert row == [bytes([0, 128, 255]), [bytes([0, 128, 255]), b""], 3, -1]


@pytest.mark.integration
def test_parameters_and_errors(kith_server):
    with kith.connect(kith_server.ws_url) as client:
        ids = client.cypher("MATCH (p:Person) WHERE p.id IN $ids RETURN p.id AS id ORDER BY id DESC", ids=[3, 1, 2])
        assert ids.rows() == [[3], [2], [1]]
        both = client.cypher("RETURN $a AS a, $b AS b, $params AS p", {"a": 1, "params": "x"}, b=[1.5, None])
        assert both.to_dicts() == [{"a": 1, "b": [1.5, None], "p": "x"}]

        with pytest.raises(kith.CypherError) as info:
            client.cypher(SYNTAX_ERROR)
        err = info.value
        assert (err.code, err.cypher_code) == ("cypher_error", "Neo.ClientError.Statement.SyntaxError")
        assert (err.line, err.column) == (2, 3)
        assert "(line 2, column 3)" in str(err)
        with pytest.raises(kith.CypherError) as info:
            client.cypher("RETURN $missing")
        assert info.value.cypher_code == "Neo.ClientError.Statement.ParameterMissing"
        # The connection still answers after the errors.
        assert client.cypher(FRIENDS, id=7).rows() == friends_of(client, 7)


@pytest.mark.integration
async def test_the_async_client(kith_server):
    async with kith.connect_async(kith_server.ws_url, encoding="json", compression="zstd") as client:
        expected = sorted((await client.call("shindig.friends", person_id=7)).rows())
        # Ten queries in flight on one connection at once.
        results = await asyncio.gather(*(client.cypher(FRIENDS, id=7) for _ in range(10)))
        assert all(r.rows() == expected for r in results)
        with pytest.raises(kith.CypherError) as info:
            await client.cypher(SYNTAX_ERROR)
        assert (info.value.line, info.value.column) == (2, 3)


@pytest.mark.integration
def test_http_cypher(kith_server):
    base = kith_server.http_url
    result = kith.http_cypher(base, FRIENDS, id=7)
    with kith.connect(kith_server.ws_url) as client:
        assert result.rows() == friends_of(client, 7)
    assert kith.http_cypher(base, FRIENDS, {"id": 7}) == result
    with pytest.raises(kith.CypherError) as info:
        kith.http_cypher(base, SYNTAX_ERROR)
    assert (info.value.cypher_code, info.value.line, info.value.column) == (
        "Neo.ClientError.Statement.SyntaxError",
        2,
        3,
    )


@pytest.mark.integration
def test_the_servers_limits(kith_server_limits, kith_server_timeouts):
    with kith.connect(kith_server_limits.ws_url) as client:
        with pytest.raises(kith.ResultTooLarge) as info:
            client.cypher("MATCH (p:Person) RETURN p.id")  # 201 rows, 100 allowed
        assert info.value.cypher_code == "Neo.ClientError.Statement.LimitExceeded"
        assert client.cypher("MATCH (p:Person) RETURN count(*) AS n").single()["n"] == 201
    with pytest.raises(kith.ResultTooLarge):
        kith.http_cypher(kith_server_limits.http_url, "MATCH (p:Person) RETURN p.id")
    with kith.connect(kith_server_timeouts.ws_url) as client:
        with pytest.raises(kith.Timeout) as info:
            client.cypher("MATCH (a:Person)-[:FRIEND_OF]->()-[:FRIEND_OF]->(c) RETURN count(c)")
        assert info.value.code == "timeout"


@pytest.mark.integration
async def test_a_writing_query_commits_and_is_read_back(kith_write_server):
    create = "CREATE (a:CypherPy {id: $id, name: $name})-[:KNOWS]->(b:CypherPy {id: $id + 1}) RETURN a.name AS name"
    with kith.connect(kith_write_server.ws_url, encoding="bson") as client:
        done = client.cypher(create, id=1, name="Ann")
        assert done.rows() == [["Ann"]]
        assert done.commit["nodes_created"] == 2 and done.commit["relationships_created"] == 1
        seen = client.cypher("MATCH (a:CypherPy)-[:KNOWS]->(b) RETURN a.id, b.id")
        assert seen.rows() == [[1, 2]]
        with pytest.raises(kith.DuplicateId):
            client.cypher("CREATE (:CypherPy {id: 1})")
    async with kith.connect_async(kith_write_server.ws_url, encoding="msgpack") as aclient:
        later = await aclient.cypher(create, {"id": 10, "name": "Bo"})
        assert later.commit["version"] > done.commit["version"]
    over_http = kith.http_cypher(kith_write_server.http_url, "CREATE (:CypherPy {id: 20})")
    assert over_http.rows() == [] and over_http.commit["nodes_created"] == 1
    count = kith.http_cypher(kith_write_server.http_url, "MATCH (n:CypherPy) RETURN count(n) AS n")
    assert count.single()["n"] == 5


@pytest.mark.integration
def test_notifications_come_with_the_answer(kith_server):
    text = "MATCH (a:Person), (b:NoSuchLabel) RETURN count(*) AS n"
    with kith.connect(kith_server.ws_url, encoding="msgpack") as client:
        result = client.cypher(text)
        assert result.rows() == [[0]]
        codes = sorted(n["gql_status"] for n in result.notifications)
        assert codes == ["01N50", "03N90"], result.notifications
        unknown = next(n for n in result.notifications if n["gql_status"] == "01N50")
        assert unknown["code"] == "Neo.ClientNotification.Statement.UnknownLabelWarning"
        assert unknown["severity"] == "WARNING" and unknown["position"]["column"] == 22
        assert client.cypher("MATCH (a:Person) RETURN count(a) AS n").notifications == []
    over_http = kith.http_cypher(kith_server.http_url, text)
    assert sorted(n["gql_status"] for n in over_http.notifications) == ["01N50", "03N90"]


@pytest.mark.integration
def test_errors_carry_neo4js_gql_status(kith_server):
    with kith.connect(kith_server.ws_url) as client:
        # A text that does not parse is GQL's syntax error; a variable not defined is
        # Neo4j's general 50N42, as Neo4j 5.26 gives them.
        for text, status in [("RETRUN 1", "42001"), ("RETURN x", "50N42"), ("RETURN range(1, 2, 0)", "22N38")]:
            with pytest.raises(kith.CypherError) as raised:
                client.cypher(text)
            assert raised.value.gql_status == status, text


@pytest.mark.integration
def test_profile_and_explain_answer_the_plan(kith_server):
    with kith.connect(kith_server.ws_url, encoding="msgpack") as client:
        plain = client.cypher(FRIENDS, id=7)
        profiled = client.cypher("PROFILE " + FRIENDS, id=7)
        assert profiled.rows() == plain.rows() and plain.plan is None
        plan = profiled.plan
        assert plan["operator"] == "ProduceResults" and plan["rows"] == len(plain)
        explained = client.cypher("EXPLAIN " + FRIENDS, id=7)
        assert explained.rows() == [] and "rows" not in explained.plan
    over_http = kith.http_cypher(kith_server.http_url, "EXPLAIN " + FRIENDS, id=7)
    assert over_http.plan["children"][0]["operator"]
