"""The client against a real `kith serve` (fixtures in conftest.py).

Every encoding x compression must give exactly what `kith call DIR PROC k=v --json`
prints (with datetimes turned into the CLI's ISO-8601 strings) and what the HTTP
endpoint answers.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import math
import subprocess

import pytest
import websockets.sync.client

import kith
from kith import COMPRESSIONS, ENCODINGS

pytestmark = pytest.mark.integration

SUBPROTOCOLS = [(e, c) for e in ENCODINGS for c in COMPRESSIONS]
ALL_PEOPLE = list(range(1, 202))  # scale 0.1 has 201 people

CALLS = {
    "friends": ("shindig.friends", {"person_id": 7}),
    "profile": ("shindig.profile", {"person_id": 7}),
    "fof3": ("shindig.friends_of_friends_3", {"person_id": 7}),
    "shortest_path": ("shindig.shortest_path", {"from_id": 7, "to_id": 150}),
    "shortest_path_self": ("shindig.shortest_path", {"from_id": 3, "to_id": 3}),
    "friends_of_everyone": ("shindig.friends_of_people", {"person_ids": ALL_PEOPLE}),
    "activities": ("shindig.person_activities", {"person_id": 7, "limit": 0}),
    # The other 13 procedures, so every Shindig procedure is compared from this client
    # too (ids are person 7's own at scale 0.1, seed 5; see test_every_procedure_is_covered).
    "group_members": ("shindig.group_members", {"group_id": 2}),
    "person_groups": ("shindig.person_groups", {"person_id": 7}),
    "friend_recommendations": ("shindig.friend_recommendations", {"person_id": 7}),
    "group_recommendations": ("shindig.group_recommendations", {"person_id": 7, "limit": 5}),
    "fof2": ("shindig.friends_of_friends", {"person_id": 7}),
    "inbox": ("shindig.inbox", {"person_id": 7}),
    "message_collections": ("shindig.message_collections", {"person_id": 7}),
    "profiles": ("shindig.profiles", {"person_ids": [7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}),
    "activity": ("shindig.activity", {"person_id": 7, "activity_id": 2354}),
    "activities_of_people": ("shindig.activities_of_people", {"person_ids": [7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}),
    "activities_by_ids": ("shindig.activities_by_ids", {"person_id": 7, "activity_ids": [1, 2354, 756, 3]}),
    "activity_stream": ("shindig.activity_stream", {"person_id": 7}),
    "message": ("shindig.message", {"person_id": 7, "message_id": 2222}),
}
BASIC = ["friends", "profile", "fof3", "shortest_path"]


def cli_form(value):
    """A client value as `kith call --json` prints it: datetimes as ISO-8601 UTC with
    milliseconds and a Z."""
    if isinstance(value, dt.datetime):
        value = value.astimezone(dt.timezone.utc)
        return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"
    if isinstance(value, (list, tuple)):
        return [cli_form(v) for v in value]
    if isinstance(value, dict):
        return {k: cli_form(v) for k, v in value.items()}
    return value


def as_cli(result: kith.Result) -> dict:
    return {"columns": list(result.columns), "rows": cli_form(result.rows())}


def cli_arg(value) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


@pytest.fixture(scope="session")
def cli_answers(kith_bin, kith_data):
    """What the CLI prints for each call of CALLS, run once."""
    answers = {}
    for name, (procedure, params) in CALLS.items():
        args = [f"{k}={cli_arg(v)}" for k, v in params.items()]
        out = subprocess.run(
            [str(kith_bin), "call", str(kith_data), procedure, *args, "--json"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        answers[name] = json.loads(out)
    return answers


def test_every_procedure_is_covered(kith_bin, cli_answers):
    listed = json.loads(
        subprocess.run([str(kith_bin), "procedures", "--json"], check=True, capture_output=True, text=True).stdout
    )
    shindig = {p["name"] for p in listed if p["name"].startswith("shindig.")}
    assert len(shindig) == 19
    assert shindig == {procedure for procedure, _ in CALLS.values()}
    empty = [name for name, answer in cli_answers.items() if not answer["rows"]]
    assert empty == [], f"these calls find no data, so compare nothing: {empty}"


def test_the_calls_are_worth_comparing(cli_answers):
    assert len(cli_answers["friends"]["rows"]) > 5
    profile = cli_answers["profile"]["rows"][0]
    assert any(isinstance(v, str) and v.endswith("Z") and "T" in v for v in profile), "profile has datetimes"
    assert len(cli_answers["fof3"]["rows"]) > 100
    assert cli_answers["shortest_path"]["rows"][0][1][0] == 7
    assert len(cli_answers["friends_of_everyone"]["rows"]) > 5000


@pytest.mark.parametrize("encoding,compression", SUBPROTOCOLS)
def test_every_subprotocol_gives_what_the_cli_prints(kith_server, cli_answers, encoding, compression):
    with kith.connect(kith_server.ws_url, encoding=encoding, compression=compression) as client:
        assert client.subprotocol == f"kith.v1.{encoding}.{compression}"
        for name, (procedure, params) in CALLS.items():
            result = client.call(procedure, **params)
            assert as_cli(result) == cli_answers[name], f"{name} over {client.subprotocol}"
        profile = client.call("shindig.profile", person_id=7).single()
        assert isinstance(profile["birthday"], dt.datetime) and profile["birthday"].tzinfo is not None


@pytest.mark.parametrize("encoding,compression", SUBPROTOCOLS)
async def test_async_client_gives_the_same(kith_server, cli_answers, encoding, compression):
    async with kith.connect_async(kith_server.ws_url, encoding=encoding, compression=compression) as client:
        results = await asyncio.gather(*(client.call(p, **kw) for p, kw in CALLS.values()))
        for name, result in zip(CALLS, results):
            assert as_cli(result) == cli_answers[name], f"{name} over {client.subprotocol}"


def test_http_call_gives_the_same(kith_server, cli_answers):
    for name, (procedure, params) in CALLS.items():
        assert as_cli(kith.http_call(kith_server.http_url, procedure, **params)) == cli_answers[name], name


def test_websocket_and_http_agree_value_for_value(kith_server):
    with kith.connect(kith_server.ws_url, encoding="msgpack", compression="lz4") as client:
        for name in BASIC:
            procedure, params = CALLS[name]
            assert client.call(procedure, **params) == kith.http_call(kith_server.http_url, procedure, **params)


def test_large_results_arrive_in_chunks(kith_server, cli_answers):
    """6,052 friendships in 1,000-row chunks: 7 frames, the first with the columns."""
    expected = cli_answers["friends_of_everyone"]
    with kith.connect(kith_server.ws_url, encoding="bson", compression="zstd") as client:
        result = client.call("shindig.friends_of_people", person_ids=ALL_PEOPLE)
    assert result.chunks == math.ceil(len(expected["rows"]) / 1000) > 1
    assert as_cli(result) == expected


@pytest.mark.parametrize("encoding,compression", [("json", "none"), ("bson", "deflate-best"), ("msgpack", "lz4")])
def test_friends_of_friends_3_in_many_chunks(kith_server_small_chunks, cli_answers, encoding, compression):
    expected = cli_answers["fof3"]
    with kith.connect(kith_server_small_chunks.ws_url, encoding=encoding, compression=compression) as client:
        result = client.call("shindig.friends_of_friends_3", person_id=7, timing=True)
    assert result.chunks == math.ceil(len(expected["rows"]) / 50) > 1
    assert as_cli(result) == expected
    assert set(result.timing) == {"queue_us", "exec_us", "encode_us"}


def test_friends_of_friends_3_chunking_at_the_default_size(kith_server, cli_answers):
    """At scale 0.1 the answer has under 1,000 rows, so it is one chunk by default."""
    with kith.connect(kith_server.ws_url) as client:
        result = client.call("shindig.friends_of_friends_3", person_id=7)
    assert result.chunks == math.ceil(len(cli_answers["fof3"]["rows"]) / 1000)


def test_timing_on_request(kith_server):
    with kith.connect(kith_server.ws_url) as client:
        timed = client.call("shindig.friends", person_id=7, timing=True)
        assert set(timed.timing) == {"queue_us", "exec_us", "encode_us"}
        assert all(isinstance(v, int) and v >= 0 for v in timed.timing.values())
        assert client.call("shindig.friends", person_id=7).timing is None


async def test_fifty_concurrent_calls_pipelined_on_one_connection(kith_server):
    people = [(i % 201) + 1 for i in range(0, 50 * 4, 4)]
    expected = [kith.http_call(kith_server.http_url, "shindig.friends", person_id=p) for p in people]
    async with kith.connect_async(kith_server.ws_url, encoding="msgpack", compression="deflate-fast") as client:
        assert client.connections == 1
        results = await asyncio.gather(*(client.call("shindig.friends", person_id=p) for p in people))
    assert results == expected


def test_fifty_submitted_calls_pipelined_on_one_sync_connection(kith_server):
    people = list(range(1, 51))
    expected = [kith.http_call(kith_server.http_url, "shindig.profile", person_id=p) for p in people]
    with kith.connect(kith_server.ws_url, encoding="json", compression="zstd") as client:
        futures = [client.submit("shindig.profile", person_id=p) for p in people]
        assert [f.result(10) for f in futures] == expected


def test_pool_of_four(kith_server, cli_answers):
    with kith.connect(kith_server.ws_url, pool_size=4, compression="lz4") as client:
        assert client.connections == 4
        for _ in range(3):
            for name in BASIC:
                procedure, params = CALLS[name]
                assert as_cli(client.call(procedure, **params)) == cli_answers[name]


async def test_async_pool_of_four(kith_server, cli_answers):
    async with kith.connect_async(kith_server.ws_url, pool_size=4) as client:
        procedure, params = CALLS["friends"]
        results = await asyncio.gather(*(client.call(procedure, **params) for _ in range(20)))
    assert all(as_cli(r) == cli_answers["friends"] for r in results)


def test_urls_round_robin(kith_server, kith_server_small_chunks, cli_answers):
    with kith.connect(urls=[kith_server.ws_url, kith_server_small_chunks.ws_url]) as client:
        chunks = [client.call("shindig.friends_of_friends_3", person_id=7).chunks for _ in range(4)]
        assert chunks[0] != chunks[1] and chunks[0::2] == [chunks[0]] * 2  # alternates servers


def test_errors_are_typed(kith_server):
    with kith.connect(kith_server.ws_url) as client:
        with pytest.raises(kith.UnknownProcedure) as info:
            client.call("shindig.frends", person_id=7)
        assert info.value.code == "unknown_procedure"
        with pytest.raises(kith.ParameterError) as info:
            client.call("shindig.friends", person_id="abc")
        assert info.value.code == "wrong_parameter_type"
        with pytest.raises(kith.NotFound) as info:
            client.call("shindig.friends", person_id=999999)
        assert info.value.code == "not_found" and "999999" in info.value.message
        with pytest.raises(kith.ParameterError) as info:
            client.call("shindig.friends")
        assert info.value.code == "missing_parameter"
        with pytest.raises(kith.ParameterError) as info:
            client.call("shindig.friends", person_id=7, bogus=1)
        assert info.value.code == "unknown_parameter"
        # the connection is still good after errors
        assert len(client.call("shindig.friends", person_id=7)) > 0


async def test_errors_are_typed_async(kith_server):
    async with kith.connect_async(kith_server.ws_url, encoding="msgpack") as client:
        with pytest.raises(kith.UnknownProcedure):
            await client.call("nope.nothing")
        with pytest.raises(kith.ParameterError):
            await client.call("shindig.friends", person_id="abc")
        with pytest.raises(kith.NotFound):
            await client.call("shindig.friends", person_id=999999)


def test_http_errors_are_typed(kith_server):
    with pytest.raises(kith.UnknownProcedure):
        kith.http_call(kith_server.http_url, "shindig.frends", person_id=7)
    with pytest.raises(kith.ParameterError):
        kith.http_call(kith_server.http_url, "shindig.friends", person_id="abc")
    with pytest.raises(kith.NotFound):
        kith.http_call(kith_server.http_url, "shindig.friends", person_id=999999)


def test_health(kith_server):
    health = kith.http_health(kith_server.http_url)
    assert health == {
        "status": "ok",
        "nodes": 8350,
        "relationships": 30400,
        "version": 0,  # generated data, no write yet
        "writable": True,
        "durability": "fsync",
    }


@pytest.mark.parametrize("offer", ["kith.v1.xml.none", "kith.v2.json.none", "kith.v1.json.brotli"])
def test_unknown_subprotocol_is_refused_at_the_handshake(kith_server, offer):
    with pytest.raises(kith.HandshakeError) as info:
        kith.connect(kith_server.ws_url, subprotocol=offer)
    assert info.value.status == 400
    assert "kith.v1.json.none" in info.value.body, "the refusal lists the supported names"
    assert offer in str(info.value) and "HTTP 400" in str(info.value)


async def test_unknown_subprotocol_is_refused_at_the_handshake_async(kith_server):
    with pytest.raises(kith.HandshakeError) as info:
        await kith.connect_async(kith_server.ws_url, subprotocol="kith.v1.xml.none")
    assert info.value.status == 400


def test_the_first_supported_offer_wins_and_no_offer_means_json_none(kith_server):
    """Raw websockets, to see the server's side of negotiation (protocol 1.1)."""
    with websockets.sync.client.connect(
        kith_server.ws_url, subprotocols=["kith.v2.bson.none", "kith.v1.msgpack.zstd", "kith.v1.json.none"], compression=None
    ) as ws:
        assert ws.subprotocol == "kith.v1.msgpack.zstd"
    with websockets.sync.client.connect(kith_server.ws_url, compression=None) as ws:
        assert ws.subprotocol is None
        ws.send(b"\x01\x01\x00\x00" + (1).to_bytes(8, "little") + b'{"call":"shindig.friends","params":{"person_id":7}}')
        answer = ws.recv(timeout=10)
        assert answer[:4] == b"\x01\x10\x00\x00" and answer[4:12] == (1).to_bytes(8, "little")
        assert json.loads(answer[12:])["columns"] == ["id", "displayName"]


def test_recorded_request_bytes_get_the_recorded_answer(kith_server, cli_answers):
    """The exact request of tests/test_frames.py, sent raw on kith.v1.json.none."""
    request = b"\x01\x01\x00\x00" + (1).to_bytes(8, "little") + b'{"call":"shindig.friends","params":{"person_id":7}}'
    with websockets.sync.client.connect(kith_server.ws_url, subprotocols=["kith.v1.json.none"], compression=None) as ws:
        ws.send(request)
        answer = ws.recv(timeout=10)
    assert answer[:12] == b"\x01\x10\x00\x00" + (1).to_bytes(8, "little")
    assert json.loads(answer[12:]) == cli_answers["friends"]


# --- limits (docs/protocol.md 1.5, 3) -----------------------------------------------


async def test_busy_past_the_in_flight_limit_and_the_connection_goes_on(kith_server_limits):
    # Each query scans 201^3 rows (hundreds of ms of work) and answers one: the 12 calls
    # are all sent within a few milliseconds, long before the first four finish, so the
    # fifth finds the limit of 4 reached however fast the machine is. (A cheap query left
    # "busy" to timing: the server could keep up.) After a `busy` the server reads no more
    # of the connection until one of its requests finishes (docs/protocol.md, flow
    # control), so the later calls wait in TCP and are answered one by one: none is lost.
    query = "MATCH (a:Person), (b:Person), (c:Person) WHERE c.id < $k RETURN count(*) AS n"
    people = 201  # scale 0.1
    calls = range(40, 52)
    async with kith.connect_async(kith_server_limits.ws_url) as client:
        outcomes = await asyncio.gather(
            *(client.cypher(query, k=k, timeout=120) for k in calls), return_exceptions=True
        )
        busy = [o for o in outcomes if isinstance(o, kith.Busy)]
        answered = {k: o for k, o in zip(calls, outcomes) if isinstance(o, kith.Result)}
        assert busy and answered, "an in-flight limit of 4 leaves some of 12 calls busy"
        assert len(busy) + len(answered) == len(calls), outcomes
        assert all(b.code == "busy" for b in busy)
        # Pacing: a `busy` pauses the connection until a request finishes, so each busy
        # answer is followed by at least one call let in; the first four are never busy.
        assert len(answered) > len(busy) and all(k in answered for k in calls[:4])
        assert all(o.rows() == [[people * people * (k - 1)]] for k, o in answered.items())
        assert (await client.cypher(query, k=2)).rows() == [[people * people]]


def test_result_too_large(kith_server_limits):
    with kith.connect(kith_server_limits.ws_url, encoding="json") as client:
        with pytest.raises(kith.ResultTooLarge) as info:
            client.call("shindig.friends_of_people", person_ids=list(range(1, 31)))
        assert info.value.code == "result_too_large"
        assert len(client.call("shindig.friends", person_id=7)) > 0
    with pytest.raises(kith.ResultTooLarge):
        kith.http_call(kith_server_limits.http_url, "shindig.friends_of_people", person_ids=list(range(1, 31)))


def test_frame_too_large_fails_the_call_and_closes_the_connection(kith_server_limits):
    client = kith.connect(kith_server_limits.ws_url, encoding="json", compression="none")
    try:
        with pytest.raises(kith.ProtocolError) as info:
            client.call("shindig.friends_of_people", person_ids=list(range(1, 202)) * 3)
        assert info.value.code == "frame_too_large"
        with pytest.raises(kith.ConnectionClosed, match="1009"):
            client.call("shindig.friends", person_id=7)
    finally:
        client.close()
    with pytest.raises(kith.ProtocolError) as info:
        kith.http_call(kith_server_limits.http_url, "shindig.friends_of_people", person_ids=list(range(1, 202)) * 3)
    assert info.value.code == "frame_too_large"


async def test_server_timeout(kith_server_timeouts):
    everyone = list(range(1, 202))
    async with kith.connect_async(kith_server_timeouts.ws_url) as client:
        outcomes = await asyncio.gather(
            *(client.call("shindig.friends_of_people", person_ids=everyone) for _ in range(20)),
            return_exceptions=True,
        )
        timeouts = [o for o in outcomes if isinstance(o, kith.Timeout)]
        assert timeouts and all(t.code == "timeout" and "client-side" not in t.message for t in timeouts)
        assert all(isinstance(o, (kith.Timeout, kith.Result)) for o in outcomes)
