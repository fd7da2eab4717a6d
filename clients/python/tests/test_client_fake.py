"""The sync and async clients against an in-process fake server (tests/fake_server.py):
pipelining, out-of-order answers, chunking, errors, deadlines, closes, handshakes."""

import asyncio
import datetime as dt
import socket
import threading
import time

import pytest

import kith
from kith import COMPRESSIONS, ENCODINGS

pytest.importorskip("websockets.asyncio.server", reason="the fake server needs websockets 13+")

from fake_server import FakeServer  # noqa: E402

UTC = dt.timezone.utc
SUBPROTOCOLS = [(e, c) for e in ENCODINGS for c in COMPRESSIONS]
PARAMS = {
    "n": None,
    "b": True,
    "i": -(2**63),
    "f": 0.25,
    "s": "Zoë " * 100,  # long enough to be compressed
    "t": dt.datetime(2012, 7, 28, 3, 0, 0, 854_000, tzinfo=UTC),
    "l": [1, [2, "x"], {"k": dt.datetime(1967, 11, 1, tzinfo=UTC)}],
    "m": {"a": {"b": None}},
}


@pytest.fixture(scope="module")
def server():
    s = FakeServer()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def server2():
    s = FakeServer()
    yield s
    s.stop()


@pytest.mark.parametrize("encoding,compression", SUBPROTOCOLS)
def test_sync_round_trip_in_every_subprotocol(server, encoding, compression):
    with kith.connect(server.url, encoding=encoding, compression=compression) as client:
        assert client.subprotocol == f"kith.v1.{encoding}.{compression}"
        result = client.call("test.echo", **PARAMS)
        assert result.columns == list(PARAMS)
        assert result.single() == tuple(PARAMS.values())
        assert dict(result[0]) == PARAMS
        big = client.call("test.rows", n=2345, chunk=1000)
        assert big.chunks == 3 and len(big) == 2345 and big[2344] == (2344, "row 2344")


@pytest.mark.parametrize("encoding,compression", SUBPROTOCOLS)
async def test_async_round_trip_in_every_subprotocol(server, encoding, compression):
    async with kith.connect_async(server.url, encoding=encoding, compression=compression) as client:
        result = await client.call("test.echo", **PARAMS)
        assert dict(result.single()) == PARAMS


def test_chunks_are_reassembled_and_columns_come_from_the_first(server):
    with kith.connect(server.url) as client:
        result = client.call("test.rows", n=95)
        assert result.chunks == 10
        assert result.columns == ["i", "name"]
        assert result.rows() == [[i, f"row {i}"] for i in range(95)]
        empty = client.call("test.rows", n=0)
        assert empty.columns == ["i", "name"] and len(empty) == 0 and empty.chunks == 1


def test_timing_is_exposed_when_asked(server):
    with kith.connect(server.url) as client:
        assert client.call("test.echo", timing=True).timing == {"queue_us": 1, "exec_us": 2, "encode_us": 3}
        assert client.call("test.echo").timing is None
        # a parameter literally called `timing` goes through call_with
        assert client.call_with("test.echo", {"timing": 5}).single() == (5,)


def test_answers_out_of_order_reach_the_right_callers_sync(server):
    with kith.connect(server.url) as client:
        slow = client.submit("test.sleep", ms=300, tag="slow")
        fast = client.submit("test.echo", tag="fast")
        assert fast.result(5).single() == ("fast",)
        assert not slow.done()
        assert slow.result(5).single() == ("slow",)


def test_many_threads_pipeline_on_one_connection(server):
    with kith.connect(server.url) as client:
        out = {}

        def work(i):
            out[i] = client.call("test.sleep", ms=(50 - i) * 2, i=i).single()[0]

        threads = [threading.Thread(target=work, args=(i,)) for i in range(50)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert out == {i: i for i in range(50)}


async def test_fifty_concurrent_async_calls_on_one_connection(server):
    async with kith.connect_async(server.url, encoding="msgpack", compression="zstd") as client:
        results = await asyncio.gather(*(client.call("test.sleep", ms=(50 - i) * 2, i=i) for i in range(50)))
        assert [r.single()[0] for r in results] == list(range(50))
    ids = [rid for conn, rid, proc in server.requests if proc == "test.sleep"][-50:]
    assert sorted(ids) == list(range(1, 51)), "request ids are a per-connection counter from 1"


def test_server_errors_raise_typed_exceptions_and_the_connection_goes_on(server):
    with kith.connect(server.url) as client:
        for code, cls in [
            ("not_found", kith.NotFound),
            ("wrong_parameter_type", kith.ParameterError),
            ("busy", kith.Busy),
            ("timeout", kith.Timeout),
            ("result_too_large", kith.ResultTooLarge),
            ("brand_new", kith.KithError),
        ]:
            with pytest.raises(cls) as info:
                client.call("test.error", code=code, message="why")
            assert (info.value.code, info.value.message) == (code, "why")
        with pytest.raises(kith.UnknownProcedure):
            client.call("nope")
        assert client.call("test.echo", x=1).single() == (1,)


def test_a_call_is_answered_while_another_thread_holds_the_reading_role(server):
    """The reading thread hands a quick answer over: the quick call does not wait for
    the slow one that is reading."""
    with kith.connect(server.url) as client:
        slow = threading.Thread(target=lambda: client.call("test.sleep", ms=1500))
        slow.start()
        time.sleep(0.2)  # the slow call is now reading the socket
        t0 = time.monotonic()
        assert client.call("test.echo", x=1).single() == (1,)
        assert time.monotonic() - t0 < 1.0
        slow.join()


def test_a_deadline_holds_while_another_thread_reads(server):
    with kith.connect(server.url) as client:
        slow = threading.Thread(target=lambda: client.call("test.sleep", ms=1500))
        slow.start()
        time.sleep(0.2)
        t0 = time.monotonic()
        with pytest.raises(kith.Timeout):
            client.call("test.sleep", ms=3000, timeout=0.3)
        assert time.monotonic() - t0 < 1.0
        slow.join()
        assert client.call("test.echo", x=2).single() == (2,)


def test_close_from_another_thread_wakes_a_blocked_call(server):
    client = kith.connect(server.url, timeout=None)
    threading.Timer(0.3, client.close).start()
    t0 = time.monotonic()
    with pytest.raises(kith.ConnectionClosed, match="closed by the client"):
        client.call("test.sleep", ms=5000)
    assert time.monotonic() - t0 < 2.0


def test_submitted_futures_complete_with_nobody_calling(server):
    """Futures of submit() are read by the connection's helper thread, also when the
    caller only waits through concurrent.futures."""
    import concurrent.futures

    with kith.connect(server.url) as client:
        futures = [client.submit("test.sleep", ms=(5 - i) * 40, i=i) for i in range(5)]
        done, _ = concurrent.futures.wait(futures, timeout=5)
        assert len(done) == 5
        assert sorted(f.result().single()[0] for f in futures) == list(range(5))


def test_a_connection_the_server_closed_while_idle_is_skipped(server):
    """Nobody reads an idle connection, so the close is read when the pool next picks
    it: the call goes to another connection instead of failing."""
    with kith.connect(server.url, pool_size=2) as client:
        first = client._connections[0]
        assert client.call("test.close_later", ms=50, code=1001, reason="going away").single() == (True,)
        time.sleep(0.3)
        for i in range(4):
            assert client.call("test.echo", i=i).single() == (i,)
        assert first.closed and "1001" in first.dispatcher.closed.message


def test_client_deadline_raises_timeout_and_drops_the_late_answer(server):
    with kith.connect(server.url, timeout=5) as client:
        with pytest.raises(kith.Timeout, match="client-side"):
            client.call("test.sleep", ms=400, timeout=0.1)
        assert client.call("test.sleep", ms=500, x=2).single() == (2,)  # the late answer is ignored
        assert client._connections[0].dispatcher.in_flight() == 0


async def test_async_deadline(server):
    async with kith.connect_async(server.url) as client:
        with pytest.raises(kith.Timeout):
            await client.call("test.sleep", ms=400, timeout=0.1)
        assert (await client.call("test.echo", y=3)).single() == (3,)


def test_server_close_fails_calls_in_flight_with_the_reason(server):
    client = kith.connect(server.url)
    pending = client.submit("test.sleep", ms=2000)
    with pytest.raises(kith.ConnectionClosed, match="1008.*write stalled"):
        client.call("test.close", code=1008, reason="write stalled")
    with pytest.raises(kith.ConnectionClosed, match="write stalled"):
        pending.result(5)
    with pytest.raises(kith.ConnectionClosed):
        client.call("test.echo")
    client.close()


def test_frame_too_large_with_request_id_0_fails_calls_in_flight(server):
    with kith.connect(server.url) as client:
        pending = client.submit("test.sleep", ms=2000)
        with pytest.raises(kith.ProtocolError) as info:
            client.call("test.too_large")
        assert info.value.code == "frame_too_large"
        with pytest.raises(kith.ProtocolError):
            pending.result(5)


def test_pool_spreads_calls_round_robin(server):
    with kith.connect(server.url, pool_size=4) as client:
        assert client.connections == 4
        seen = [client.call("test.whoami").single()[0] for _ in range(8)]
    assert len(set(seen)) == 4 and seen[:4] == seen[4:]


async def test_async_pool_spreads_calls(server):
    async with kith.connect_async(server.url, pool_size=3) as client:
        seen = [(await client.call("test.whoami")).single()[0] for _ in range(6)]
    assert len(set(seen)) == 3


def test_urls_round_robin_across_servers(server, server2):
    before = (len(server.requests), len(server2.requests))
    with kith.connect(urls=[server.url, server2.url]) as client:
        assert client.urls == [server.url, server2.url]
        for _ in range(6):
            client.call("test.echo")
    assert (len(server.requests) - before[0], len(server2.requests) - before[1]) == (3, 3)


def test_unknown_subprotocol_is_refused_at_the_handshake(server):
    with pytest.raises(kith.HandshakeError) as info:
        kith.connect(server.url, subprotocol="kith.v1.xml.none")
    assert info.value.status == 400
    assert "kith.v1.json.none" in info.value.body
    assert "HTTP 400" in str(info.value)


async def test_unknown_subprotocol_is_refused_at_the_handshake_async(server):
    with pytest.raises(kith.HandshakeError) as info:
        await kith.connect_async(server.url, subprotocol="kith.v2.bson.none")
    assert info.value.status == 400


def test_a_server_that_does_not_echo_the_subprotocol_is_refused(server):
    with pytest.raises(kith.HandshakeError, match="echoed subprotocol None"):
        kith.connect(server.url.replace("/v1/ws", "/no-echo"))


def test_unknown_names_fail_before_connecting():
    with pytest.raises(ValueError, match="encoding"):
        kith.connect(encoding="xml")
    with pytest.raises(ValueError, match="compression"):
        kith.connect_async(compression="brotli")
    with pytest.raises(ValueError):
        kith.connect(pool_size=0)


def test_nothing_listening_is_connection_failed():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(kith.ConnectionFailed, match="could not connect"):
        kith.connect(f"ws://127.0.0.1:{port}/v1/ws", timeout=2)


def test_bad_parameters_fail_in_the_caller_and_nothing_is_left_in_flight(server):
    with kith.connect(server.url) as client:
        with pytest.raises(TypeError, match="params.p"):
            client.call("test.echo", p=object())
        assert client._connections[0].dispatcher.in_flight() == 0


def test_close_fails_calls_in_flight(server):
    client = kith.connect(server.url)
    pending = client.submit("test.sleep", ms=2000)
    client.close()
    with pytest.raises(kith.ConnectionClosed, match="closed by the client"):
        pending.result(5)


# --- writes (docs/protocol.md 1.3.1) -------------------------------------------------

WRITE_OPS = [
    kith.ops.require_absent("Person", "email", "zoë@example.org"),
    kith.ops.create_node(["Person"], {"id": 7, "bio": "Zoë " * 100, "t": PARAMS["t"]}),
    kith.ops.create_node("Person", {"id": 8}),
    kith.ops.create_rel("KNOWS", kith.ops.created(0), kith.ops.by_id("Person", 3), {"w": 0.5}),
    kith.ops.set_node(kith.ops.node(12), {"nickname": None}),
]


@pytest.mark.parametrize("encoding,compression", SUBPROTOCOLS)
def test_sync_write_in_every_subprotocol(server, encoding, compression):
    with kith.connect(server.url, encoding=encoding, compression=compression) as client:
        done = client.write(WRITE_OPS)
        assert server.writes[-1] == {"write": WRITE_OPS}, "the server decoded exactly the operations"
        assert (done.nodes, done.rels, done.timing) == ([1001, 1002], [5003], None)
        timed = client.write(WRITE_OPS, timing=True)
        assert server.writes[-1] == {"write": WRITE_OPS, "timing": True}
        assert timed.version > done.version
        assert timed.timing == {"queue_us": 4, "exec_us": 5, "encode_us": 6}


@pytest.mark.parametrize("encoding,compression", SUBPROTOCOLS)
async def test_async_write_in_every_subprotocol(server, encoding, compression):
    async with kith.connect_async(server.url, encoding=encoding, compression=compression) as client:
        done = await client.write(WRITE_OPS, timing=True)
        assert server.writes[-1] == {"write": WRITE_OPS, "timing": True}
        assert isinstance(done, kith.WriteResult) and done.nodes == [1001, 1002] and done.rels == [5003]


async def test_writes_and_calls_pipeline_on_one_connection(server):
    async with kith.connect_async(server.url) as client:
        slow = asyncio.ensure_future(client.write([{"op": "test.sleep", "ms": 300}, kith.ops.create_node()]))
        await asyncio.sleep(0.05)
        assert (await client.call("test.echo", x=1)).single() == (1,)
        assert not slow.done(), "the call's answer overtook the slow write"
        assert (await slow).nodes == [1001]


def test_write_errors_are_typed_and_the_connection_goes_on(server):
    with kith.connect(server.url) as client:
        for code, cls in [
            ("condition_failed", kith.ConditionFailed),
            ("duplicate_id", kith.DuplicateId),
            ("invalid_write", kith.WriteError),
            ("bad_request", kith.ProtocolError),
            ("busy", kith.Busy),
        ]:
            with pytest.raises(cls) as info:
                client.write([{"op": "test.error", "code": code, "message": "why"}])
            assert (info.value.code, info.value.message) == (code, "why")
        assert client.write([kith.ops.create_node()]).nodes == [1000]


async def test_write_errors_are_typed_async(server):
    async with kith.connect_async(server.url) as client:
        with pytest.raises(kith.ConditionFailed):
            await client.write([{"op": "test.error", "code": "condition_failed", "message": "taken"}])


def test_a_malformed_write_answer_is_a_bad_response(server):
    with kith.connect(server.url) as client:
        with pytest.raises(kith.ProtocolError) as info:
            client.write([{"op": "test.bad_answer"}])
        assert info.value.code == "bad_response"


def test_write_deadline_says_the_write_may_still_commit(server):
    with kith.connect(server.url) as client:
        with pytest.raises(kith.Timeout, match="may still commit"):
            client.write([{"op": "test.sleep", "ms": 400}], timeout=0.1)
        # The abandoned answer is still read (by the connection's helper thread, with
        # no call made meanwhile) and dropped, so the server is never left unread.
        conn = client._connections[0]
        deadline = time.monotonic() + 3
        while conn.dispatcher.in_flight() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert conn.dispatcher.in_flight() == 0
        assert client.write([kith.ops.create_node()], timeout=None).nodes == [1000]


async def test_async_write_deadline(server):
    async with kith.connect_async(server.url) as client:
        with pytest.raises(kith.Timeout, match="may still commit"):
            await client.write([{"op": "test.sleep", "ms": 400}], timeout=0.1)


def test_bad_operations_fail_in_the_caller_and_nothing_is_sent(server):
    with kith.connect(server.url) as client:
        before = len(server.writes)
        with pytest.raises(TypeError, match="list of operations"):
            client.write(kith.ops.create_node())
        with pytest.raises(TypeError, match="props.p"):
            client.write([kith.ops.create_node(["P"], {"p": {1, 2}})])
        assert client._connections[0].dispatcher.in_flight() == 0
        assert len(server.writes) == before
