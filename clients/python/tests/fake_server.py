"""A small in-process stand-in for `kith serve`, for testing the client without one.

It speaks protocol v1 with the client's own codecs, which is enough to exercise
what only a live connection shows: pipelining and out-of-order answers, chunked
results, errors, deadlines, close codes and handshake refusals. Whether the client
agrees with the *real* server is the job of test_integration.py.

Procedures:
  test.echo(**p)              one row: the params, columns = their names
  test.rows(n, chunk=10)      n rows [i, "row i"], in chunks of `chunk` rows
  test.sleep(ms, **p)         test.echo after `ms` milliseconds
  test.error(code, message)   an ERROR frame
  test.close(code, reason)    the server closes the connection
  test.close_later(ms, code, reason)  one row, then the server closes after `ms` ms
  test.too_large()            ERROR frame_too_large with request id 0, then close 1009
  test.whoami()               one row: the connection number on this server

Writes (``{"write": [op, ...]}``) are recorded, decoded, in ``writes`` and answered
like the real server: ``[version, [node ids], [rel ids]]`` with one node id
(1000 + position) per ``create_node`` and one rel id (5000 + position) per
``create_rel``. Pseudo-operations change that:
  {"op": "test.error", "code", "message"}   an ERROR frame
  {"op": "test.sleep", "ms"}                answer after `ms` milliseconds
  {"op": "test.bad_answer"}                 a result that is not a write answer
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from typing import Any

from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.http11 import Response

from kith import _frames
from kith._compress import COMPRESSIONS, maybe_compress
from kith._codec import ENCODINGS, get_codec
from kith._wire import Wire

SUPPORTED = [f"kith.v1.{e}.{c}" for e in ENCODINGS for c in COMPRESSIONS]


def _choose(offers: list[str]) -> str | None:
    return next((o for o in offers if o in SUPPORTED), None)


class FakeServer:
    """Runs on its own thread and event loop so sync clients can use it too."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._conn_ids = itertools.count(1)
        self.requests: list[tuple[int, int, str]] = []  # (connection, request id, procedure)
        self.writes: list[dict[str, Any]] = []  # decoded write request documents
        self._versions = itertools.count(1)
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._ready.wait(10)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/v1/ws"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._start())
        self._ready.set()
        self.loop.run_forever()

    async def _start(self) -> None:
        self.server = await serve(
            self._handle,
            "127.0.0.1",
            0,
            subprotocols=SUPPORTED,
            select_subprotocol=self._select,
            process_request=self._process_request,
            compression=None,
            max_size=None,
        )
        self.port = self.server.sockets[0].getsockname()[1]

    def stop(self) -> None:
        async def _stop() -> None:
            self.server.close()
            await self.server.wait_closed()

        asyncio.run_coroutine_threadsafe(_stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)

    # --- handshake -----------------------------------------------------------

    def _process_request(self, connection: Any, request: Any) -> Response | None:
        header = request.headers.get("Sec-WebSocket-Protocol")
        if header is not None and _choose([o.strip() for o in header.split(",")]) is None:
            body = ("no supported subprotocol offered; kith speaks " + ", ".join(SUPPORTED)).encode()
            return Response(400, "Bad Request", Headers([("Content-Length", str(len(body)))]), body)
        return None

    def _select(self, connection: Any, offers: list[str]) -> str | None:
        if connection.request.path.endswith("/no-echo"):
            return None  # a broken server that does not echo the subprotocol
        return _choose(offers)

    # --- messages --------------------------------------------------------------

    async def _handle(self, ws: Any) -> None:
        conn_id = next(self._conn_ids)
        name = ws.subprotocol or "kith.v1.json.none"
        _, _, encoding, compression = name.split(".", 3)
        codec = get_codec(encoding)
        send_lock = asyncio.Lock()

        async def send(kind: int, request_id: int, doc: dict, more: bool = False) -> None:
            payload, compressed = maybe_compress(compression, codec.encode(doc))
            flags = (_frames.FLAG_COMPRESSED if compressed else 0) | (_frames.FLAG_MORE if more else 0)
            async with send_lock:
                await ws.send(_frames.encode_header(kind, flags, request_id) + payload)

        async def write(request_id: int, doc: dict) -> None:
            self.requests.append((conn_id, request_id, "write"))
            self.writes.append(doc)
            ops = doc["write"]
            for op in ops:
                if op["op"] == "test.error":
                    error = {"code": op["code"], "message": op["message"]}
                    await send(_frames.KIND_ERROR, request_id, error)
                    return
                if op["op"] == "test.sleep":
                    await asyncio.sleep(op["ms"] / 1000)
            if any(op["op"] == "test.bad_answer" for op in ops):
                answer: dict[str, Any] = {"columns": ["version", "nodes", "rels"], "rows": [[1, ["x"], []]]}
            else:
                nodes = [1000 + i for i, op in enumerate(ops) if op["op"] == "create_node"]
                rels = [5000 + i for i, op in enumerate(ops) if op["op"] == "create_rel"]
                answer = {"columns": ["version", "nodes", "rels"], "rows": [[next(self._versions), nodes, rels]]}
            if doc.get("timing"):
                answer["timing"] = {"queue_us": 4, "exec_us": 5, "encode_us": 6}
            await send(_frames.KIND_RESULT, request_id, answer)

        async def run(request_id: int, doc: dict) -> None:
            if "write" in doc:
                await write(request_id, doc)
                return
            proc, params = doc["call"], doc.get("params") or {}
            self.requests.append((conn_id, request_id, proc))
            timing = {"queue_us": 1, "exec_us": 2, "encode_us": 3} if doc.get("timing") else None

            async def rows(columns: list[str], data: list[list[Any]], chunk: int = 1000) -> None:
                parts = [data[i : i + chunk] for i in range(0, len(data), chunk)] or [[]]
                for i, part in enumerate(parts):
                    last = i == len(parts) - 1
                    chunk_doc: dict[str, Any] = {}
                    if i == 0:
                        chunk_doc["columns"] = columns
                    chunk_doc["rows"] = part
                    if last and timing:
                        chunk_doc["timing"] = timing
                    await send(_frames.KIND_RESULT, request_id, chunk_doc, more=not last)

            if proc == "test.sleep":
                await asyncio.sleep(params.pop("ms") / 1000)
                proc = "test.echo"
            if proc == "test.echo":
                await rows(list(params), [list(params.values())])
            elif proc == "test.rows":
                n = params["n"]
                await rows(["i", "name"], [[i, f"row {i}"] for i in range(n)], params.get("chunk", 10))
            elif proc == "test.whoami":
                await rows(["connection"], [[conn_id]])
            elif proc == "test.error":
                await send(_frames.KIND_ERROR, request_id, {"code": params["code"], "message": params["message"]})
            elif proc == "test.close":
                await ws.close(params["code"], params["reason"])
            elif proc == "test.close_later":  # answers, then closes while the client idles
                await rows(["ok"], [[True]])
                await asyncio.sleep(params["ms"] / 1000)
                await ws.close(params["code"], params["reason"])
            elif proc == "test.too_large":
                await send(_frames.KIND_ERROR, 0, {"code": "frame_too_large", "message": "frame over 1048576 bytes"})
                await ws.close(1009, "frame too large")
            else:
                await send(
                    _frames.KIND_ERROR,
                    request_id,
                    {"code": "unknown_procedure", "message": f"no procedure {proc}"},
                )

        wire = Wire(encoding, compression)
        tasks = set()
        async for message in ws:
            header, doc = wire.open(message)
            task = asyncio.ensure_future(run(header.request_id, doc))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
