"""What one connection does with bytes, shared by the sync and async clients.

:class:`Wire` turns a call or a write into a request frame and a received message into a
decoded document, for one negotiated ``kith.v1.<encoding>.<compression>``.
:class:`Dispatcher` keeps the calls in flight by request id and reassembles chunked
results: the transports (the waiting threads of _sync_ws.py, a task with
``websockets.asyncio``) only move messages and complete their own kind of future.
Keeping the protocol here means both clients behave identically.
"""

from __future__ import annotations

import copy
import itertools
import logging
import threading
from collections.abc import Iterable, Mapping
from typing import Any, Generic, TypeVar

from . import _frames
from ._codec import ENCODINGS, get_codec
from ._compress import COMPRESSIONS, DecompressError, check_compression, decompress, maybe_compress
from .errors import KithError, ProtocolError, error_from_document
from .result import Result

__all__ = [
    "Wire",
    "Dispatcher",
    "call_document",
    "write_document",
    "cypher_document",
    "subprotocol_name",
    "parse_subprotocol",
]

log = logging.getLogger("kith")

# Largest decompressed payload accepted from the server. The server's own frames are
# bounded by its chunk_rows; this only stops a hostile or broken peer.
PAYLOAD_BYTES_MAX = 256 * 1024 * 1024


def subprotocol_name(encoding: str, compression: str) -> str:
    """``kith.v1.<encoding>.<compression>``, checking both names."""
    get_codec(encoding)
    check_compression(compression)
    return f"kith.v1.{encoding}.{compression}"


def parse_subprotocol(name: str) -> tuple[str, str]:
    """The encoding and compression of a subprotocol name; ``ValueError`` otherwise."""
    prefix = "kith.v1."
    rest = name[len(prefix) :] if name.startswith(prefix) else None
    encoding, _, compression = (rest or "").partition(".")
    if encoding not in ENCODINGS or compression not in COMPRESSIONS:
        raise ValueError(
            f"{name!r} is not a kith v1 subprotocol; kith speaks "
            f"kith.v1.<{'|'.join(ENCODINGS)}>.<{'|'.join(COMPRESSIONS)}>"
        )
    return encoding, compression


def call_document(procedure: str, params: Mapping[str, Any], timing: bool = False) -> dict[str, Any]:
    """``{"call": ..., "params": {...}}`` plus ``"timing": true`` when asked (1.3)."""
    if not isinstance(procedure, str):
        raise TypeError(f"the procedure name must be a str, got {type(procedure).__name__}")
    doc: dict[str, Any] = {"call": procedure, "params": dict(params)}
    if timing:
        doc["timing"] = True
    return doc


def cypher_document(query: str, params: Mapping[str, Any], timing: bool = False) -> dict[str, Any]:
    """``{"cypher": ..., "params": {...}}`` plus ``"timing": true`` when asked (1.3.2)."""
    if not isinstance(query, str):
        raise TypeError(f"the query must be a str, got {type(query).__name__}")
    doc: dict[str, Any] = {"cypher": query, "params": dict(params)}
    if timing:
        doc["timing"] = True
    return doc


def merge_params(params: Mapping[str, Any] | None, more: Mapping[str, Any]) -> dict[str, Any]:
    """A query's parameters from a mapping and keyword arguments (which win)."""
    if params is not None and not isinstance(params, Mapping):
        raise TypeError(f"params must be a mapping, got {type(params).__name__}")
    return {**(params or {}), **more}


def write_document(ops: Iterable[Mapping[str, Any]], timing: bool = False) -> dict[str, Any]:
    """``{"write": [op, ...]}`` plus ``"timing": true`` when asked (1.3.1).

    A lone operation (a mapping) or a string is refused here: iterating it would
    send its keys or characters as "operations", and the server's ``bad_request``
    would then point at an operation the caller never wrote.
    """
    if isinstance(ops, (Mapping, str, bytes)) or not isinstance(ops, Iterable):
        raise TypeError(
            f"ops must be a list of operations (put a single one in a list), got {type(ops).__name__}"
        )
    ops = list(ops)
    for i, op in enumerate(ops):
        if not isinstance(op, Mapping):
            raise TypeError(f"ops[{i}]: an operation is a mapping (see kith.ops), got {type(op).__name__}")
    doc: dict[str, Any] = {"write": ops}
    if timing:
        doc["timing"] = True
    return doc


class Wire:
    """Frames and documents for one negotiated encoding and compression."""

    def __init__(self, encoding: str, compression: str, payload_bytes_max: int = PAYLOAD_BYTES_MAX):
        self.codec = get_codec(encoding)
        self.encoding = encoding
        self.compression = check_compression(compression)
        self.payload_bytes_max = payload_bytes_max

    @property
    def subprotocol(self) -> str:
        return f"kith.v1.{self.encoding}.{self.compression}"

    def encode(self, doc: dict[str, Any]) -> tuple[bytes, int]:
        """The (possibly compressed) payload of a request document and its frame
        flags. Done before a request id is taken, so a value kith cannot carry fails
        the request without leaving anything in flight."""
        payload, compressed = maybe_compress(self.compression, self.codec.encode(doc))
        return payload, (_frames.FLAG_COMPRESSED if compressed else 0)

    def encode_request(
        self, procedure: str, params: Mapping[str, Any], timing: bool = False
    ) -> tuple[bytes, int]:
        """:meth:`encode` of ``call_document(procedure, params, timing)``."""
        return self.encode(call_document(procedure, params, timing))

    def encode_write(self, ops: Iterable[Mapping[str, Any]], timing: bool = False) -> tuple[bytes, int]:
        """:meth:`encode` of ``write_document(ops, timing)``."""
        return self.encode(write_document(ops, timing))

    def encode_cypher(self, query: str, params: Mapping[str, Any], timing: bool = False) -> tuple[bytes, int]:
        """:meth:`encode` of ``cypher_document(query, params, timing)``."""
        return self.encode(cypher_document(query, params, timing))

    @staticmethod
    def frame(request_id: int, payload: bytes, flags: int) -> bytes:
        """A REQUEST frame: the 12-byte header, then the payload."""
        return _frames.encode_header(_frames.KIND_REQUEST, flags, request_id) + payload

    def request(
        self, request_id: int, procedure: str, params: Mapping[str, Any], timing: bool = False
    ) -> bytes:
        """A whole REQUEST frame for ``procedure(**params)``."""
        return self.frame(request_id, *self.encode_request(procedure, params, timing))

    def write_request(
        self, request_id: int, ops: Iterable[Mapping[str, Any]], timing: bool = False
    ) -> bytes:
        """A whole REQUEST frame for a write transaction of ``ops``."""
        return self.frame(request_id, *self.encode_write(ops, timing))

    def open(self, message: bytes) -> tuple[_frames.Header, dict[str, Any]]:
        """The header and decoded document of a received message (``ProtocolError``)."""
        header = _frames.decode_header(message)
        payload = memoryview(message)[_frames.HEADER_BYTES :]
        if header.flags & _frames.FLAG_COMPRESSED:
            if self.compression == "none":
                raise ProtocolError(
                    "bad_response", "a compressed payload on a connection without compression"
                )
            try:
                payload = decompress(self.compression, payload, self.payload_bytes_max)
            except DecompressError as exc:
                raise ProtocolError("bad_response", str(exc)) from None
        return header, self.codec.decode(bytes(payload))


F = TypeVar("F")


class _Pending(Generic[F]):
    __slots__ = ("future", "columns", "rows", "chunks", "discard")

    def __init__(self, future: F) -> None:
        self.future = future
        self.columns: list[str] | None = None
        self.rows: list[Any] = []
        self.chunks = 0
        self.discard = False  # abandoned: its rows are read and dropped


class Dispatcher(Generic[F]):
    """The calls in flight on one connection, keyed by request id.

    ``feed`` consumes one received message and returns the ``(future, outcome)``
    pairs it completes, where ``outcome`` is a :class:`Result` or a
    :class:`KithError`; the transport resolves its futures itself. Request ids come
    from a per-connection u64 counter starting at 1 (0 is what the server uses for
    errors it cannot attribute), so an id is never reused while in flight.
    """

    def __init__(self, wire: Wire) -> None:
        self.wire = wire
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending[F]] = {}
        self._lock = threading.Lock()  # the sync client registers and feeds on two threads
        self.closed: KithError | None = None

    def register(self, future: F) -> int:
        """A fresh request id whose answer will complete ``future``."""
        with self._lock:
            if self.closed is not None:
                raise copy.copy(self.closed)
            request_id = next(self._ids)
            self._pending[request_id] = _Pending(future)
            return request_id

    def forget(self, request_id: int) -> None:
        """Stop waiting for an answer (the caller timed out or was cancelled); a late
        answer is then dropped."""
        with self._lock:
            self._pending.pop(request_id, None)

    def abandon(self, request_id: int, drain: F) -> bool:
        """The caller gave up waiting, but the answer is still read to its end and
        dropped: ``drain`` completes then. False when nothing more will come."""
        with self._lock:
            pending = self._pending.get(request_id)
            if pending is None:
                return False
            pending.future, pending.discard, pending.rows = drain, True, []
            return True

    def in_flight(self) -> int:
        return len(self._pending)

    def feed(self, message: bytes | str) -> list[tuple[F, Result | KithError]]:
        if isinstance(message, str):
            log.warning("kith: ignoring a text WebSocket message (the protocol is binary)")
            return []
        try:
            header, doc = self.wire.open(message)
        except ProtocolError as exc:
            return self._fail_one(message, exc)
        request_id = header.request_id
        if header.kind == _frames.KIND_ERROR:
            error = error_from_document(doc)
            if request_id == 0:
                return self._unattributed(error)
            with self._lock:
                pending = self._pending.pop(request_id, None)
            return [] if pending is None else [(pending.future, error)]
        if header.kind != _frames.KIND_RESULT:
            log.warning("kith: ignoring a frame of kind %d from the server", header.kind)
            return []
        more = bool(header.flags & _frames.FLAG_MORE)
        with self._lock:
            pending = self._pending.get(request_id)
            if pending is not None and not more:
                del self._pending[request_id]
        if pending is None:
            return []  # the caller gave up on it
        pending.chunks += 1
        columns = doc.get("columns")
        if columns is not None:
            pending.columns = columns
        rows = doc.get("rows")
        if rows and not pending.discard:
            pending.rows.extend(rows)
        if more:
            return []
        if pending.columns is None:
            error = ProtocolError("bad_response", "the result's first chunk had no columns")
            return [(pending.future, error)]
        timing = doc.get("timing")
        result = Result(
            pending.columns,
            pending.rows,
            timing,
            pending.chunks,
            doc.get("commit"),
            doc.get("plan"),
            doc.get("notifications"),
        )
        return [(pending.future, result)]

    def _fail_one(self, message: bytes, exc: ProtocolError) -> list[tuple[F, Result | KithError]]:
        """A frame we cannot read fails the request it names, if its id is readable."""
        request_id = int.from_bytes(message[4:12], "little") if len(message) >= 12 else 0
        with self._lock:
            pending = self._pending.pop(request_id, None)
        if pending is None:
            log.warning("kith: unreadable frame from the server: %s", exc)
            return []
        return [(pending.future, exc)]

    def _unattributed(self, error: KithError) -> list[tuple[F, Result | KithError]]:
        """An error with request id 0. ``frame_too_large`` is followed by the server
        closing the connection (1009), so every call in flight is lost: fail them all
        with that cause rather than a bare "connection closed" (the close itself then
        marks the connection closed). Others (``bad_frame`` on a header too short to
        name its request) cannot come from this client's frames; they are logged."""
        if error.code == "frame_too_large":
            return self._fail_all(error)
        log.warning("kith: server error not attributed to a request: %s", error)
        return []

    def _fail_all(self, error: KithError) -> list[tuple[F, Result | KithError]]:
        with self._lock:
            pending, self._pending = self._pending, {}
        # A copy each: one exception object raised in several threads at once would
        # have its traceback rewritten under the others.
        return [(p.future, copy.copy(error)) for p in pending.values()]

    def close(self, error: KithError) -> list[tuple[F, Result | KithError]]:
        """Marks the connection closed; every call in flight fails with ``error``,
        and so does every later one."""
        with self._lock:
            if self.closed is None:
                self.closed = error
        return self._fail_all(error)
