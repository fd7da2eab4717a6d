"""The synchronous client: ``kith.connect(...)``.

Each connection is a socket driven by websockets' sans-I/O protocol (_sync_ws.py). Callers
send from their own threads, and a waiting caller reads the socket itself, handing every
answer by request id to its ``concurrent.futures.Future`` (Connection explains the
reading role). So one connection carries many calls at once
(pipelining), whether they come from several threads or from one thread that
:meth:`Client.submit` s several calls before waiting on any. Writes
(:meth:`Client.write`) travel the same way; only their request document differs.
"""

from __future__ import annotations

import concurrent.futures
import logging
from ssl import SSLContext
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from . import _ws
from ._wire import (
    PAYLOAD_BYTES_MAX,
    Dispatcher,
    Wire,
    cypher_document,
    merge_params,
    parse_subprotocol,
)
from ._pool import RoundRobin
from ._sync_ws import SocketWebSocket
from .errors import ConnectionClosed, KithError, Timeout
from .result import Result, WriteResult

__all__ = ["Client", "Transaction", "connect", "DEFAULT_URL"]

log = logging.getLogger("kith")

DEFAULT_URL = "ws://127.0.0.1:7600/v1/ws"
# How a write is named in a client-side Timeout: the server may still commit it.
WRITE_WHAT = "a write (it may still commit)"
# WebSocket messages are bounded by the server's frame_bytes_max for requests and by
# chunk_rows for results; this bound only stops a broken peer from exhausting memory.
MESSAGE_BYTES_MAX = 64 * 1024 * 1024


class _Default:
    """Marks "use the client's timeout" (``None`` means wait forever)."""

    def __repr__(self) -> str:
        return "<client timeout>"


DEFAULT = _Default()


def _resolve(future: concurrent.futures.Future, outcome: Result | KithError) -> None:
    if future.done():  # cancelled by the caller
        return
    try:
        if isinstance(outcome, BaseException):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)
    except concurrent.futures.InvalidStateError:  # cancelled in between
        pass


class Connection:
    """One WebSocket connection (used through :class:`Client`).

    It has no reader thread of its own: a thread waiting for an answer reads the
    socket itself and hands every message it reads to the request it answers (the
    reading role); other waiting threads wait until their answer has been handed to
    them, or until the role is free and they take it. So a call from a single thread
    never waits for another thread to wake up. Futures from :meth:`Client.submit`
    have nobody waiting in a call, so a helper thread takes the role while any of
    them is pending.
    """

    def __init__(
        self,
        url: str,
        wire: Wire,
        *,
        timeout: float | None,
        offer: str | None = None,
        max_message_bytes: int = MESSAGE_BYTES_MAX,
        ssl: SSLContext | None = None,
    ) -> None:
        self.url = url
        self.wire = wire
        self.offer = offer or wire.subprotocol
        self.dispatcher: Dispatcher[concurrent.futures.Future] = Dispatcher(wire)
        self._closing = False
        try:
            self._ws = SocketWebSocket.open(url, self.offer, timeout, max_message_bytes, ssl)
        except Exception as exc:
            raise _ws.handshake_failure(url, self.offer, exc) from exc
        try:
            _ws.check_echo(url, self.offer, self._ws.subprotocol)
        except KithError:
            self._ws.close()
            raise
        lock = threading.Lock()
        self._cv = threading.Condition(lock)  # callers waiting for the role or an answer
        self._helper_cv = threading.Condition(lock)  # the helper, idle
        self._reading = False  # whether a thread holds the reading role
        self._submitted = 0  # futures of submit() (and abandoned answers) not done yet
        self._helper = threading.Thread(target=self._read_for_submitted, name=f"kith-reader {url}", daemon=True)
        self._helper.start()

    @property
    def closed(self) -> bool:
        return self.dispatcher.closed is not None

    def _pump(self, done: Callable[[], bool], deadline: float | None) -> None:
        """Returns once ``done()`` or at ``deadline`` (``time.monotonic``), reading
        the socket meanwhile whenever no other thread is."""
        taken = False
        try:
            with self._cv:
                while not done():
                    if not self._reading:
                        self._reading = taken = True
                        break
                    left = _left(deadline)
                    if left is not None and left <= 0:
                        return
                    self._cv.wait(left)
                else:
                    return
            while not done():
                left = _left(deadline)
                if left is not None and left <= 0:
                    return
                self._read_once(left)
        finally:
            if taken:
                with self._cv:
                    self._reading = False
                    self._cv.notify_all()
                    if self._submitted:
                        self._helper_cv.notify()

    def _read_once(self, timeout: float | None) -> None:
        """One read of the socket; the answers it completes go to their requests."""
        try:
            messages = self._ws.receive(timeout)
        except _ws.WsConnectionClosed:
            self._end()
            return
        except Exception:  # a bug here must not leave callers waiting forever
            log.exception("kith: reading from %s failed", self.url)
            self._ws.close()
            self._end()
            return
        if not messages:
            return
        try:
            for message in messages:
                for future, outcome in self.dispatcher.feed(message):
                    _resolve(future, outcome)
        except BaseException as exc:  # answers of this read would be lost: end the connection
            if isinstance(exc, Exception):
                log.exception("kith: reading from %s failed", self.url)
            self._ws.close()
            self._end()
            if not isinstance(exc, Exception):
                raise
            return
        with self._cv:
            self._cv.notify_all()

    def _end(self) -> None:
        """The connection is over: every call in flight, and every later one, fails
        with the reason."""
        error = _ws.closed_error(self._ws, self.url, self._closing)
        for future, outcome in self.dispatcher.close(error):
            _resolve(future, outcome)
        with self._cv:
            self._cv.notify_all()
            self._helper_cv.notify()

    def _read_for_submitted(self) -> None:
        """The helper thread: reads while futures of submit() or abandoned answers
        are pending."""
        while True:
            with self._cv:
                while (self._submitted == 0 or self._reading) and not self.closed:
                    self._helper_cv.wait()
            if self.closed:
                return
            self._pump(lambda: self._submitted == 0 or self.closed, None)

    def track(self, future: concurrent.futures.Future) -> concurrent.futures.Future:
        """Marks a future nobody waits for in a call (submit()): the helper thread
        reads until it is done."""
        with self._cv:
            self._submitted += 1
            self._helper_cv.notify()
        future.add_done_callback(self._untrack)
        return future

    def _untrack(self, _future: concurrent.futures.Future) -> None:
        with self._cv:
            self._submitted -= 1

    def check_idle(self) -> None:
        """Reads what arrived while nobody was reading (the server's close, a ping),
        without waiting: a connection the server closed is then marked closed before
        a call is put on it."""
        with self._cv:
            if self._reading or self.closed or not self._ws.readable():
                return
            self._reading = True
        try:
            self._read_once(0)
        finally:
            with self._cv:
                self._reading = False
                self._cv.notify_all()

    def submit(
        self, procedure: str, params: Mapping[str, Any], timing: bool = False
    ) -> concurrent.futures.Future:
        """Sends the call; the future completes with its :class:`Result`."""
        return self._send(*self.wire.encode_request(procedure, params, timing))

    def submit_write(
        self, ops: Iterable[Mapping[str, Any]], timing: bool = False
    ) -> concurrent.futures.Future:
        """Sends the write; the future completes with its (raw) :class:`Result`."""
        return self._send(*self.wire.encode_write(ops, timing))

    def submit_cypher(
        self, query: str, params: Mapping[str, Any], timing: bool = False
    ) -> concurrent.futures.Future:
        """Sends the query; the future completes with its :class:`Result`."""
        return self._send(*self.wire.encode_cypher(query, params, timing))

    def submit_document(self, doc: dict[str, Any]) -> concurrent.futures.Future:
        """Sends any request document (``begin``, ``commit``, ``rollback``, a Cypher
        statement with ``tx``); the future completes with its :class:`Result`."""
        return self._send(*self.wire.encode(doc))

    def _send(self, payload: bytes, flags: int) -> concurrent.futures.Future:
        """Sends an encoded request under a fresh request id."""
        future: concurrent.futures.Future = concurrent.futures.Future()
        request_id = self.dispatcher.register(future)
        future.kith_request_id = request_id  # type: ignore[attr-defined]
        try:
            self._ws.send(Wire.frame(request_id, payload, flags))
        except (_ws.WsConnectionClosed, OSError):
            self.dispatcher.forget(request_id)
            self._ws.close()
            self._end()
            raise _ws.closed_error(self._ws, self.url, self._closing) from None
        return future

    def wait(self, future: concurrent.futures.Future, what: str, timeout: float | None) -> Result:
        """The result of ``future``; ``what`` (a procedure name, or a write) names the
        request in the client-side ``Timeout``."""
        finite = timeout is not None and timeout != float("inf")
        self._pump(future.done, time.monotonic() + timeout if finite else None)
        if not future.done():
            # The rest of the answer is still read, by the helper thread, and dropped:
            # a server that cannot deliver it would close the connection as stalled.
            drain: concurrent.futures.Future = concurrent.futures.Future()
            if self.dispatcher.abandon(future.kith_request_id, drain):  # type: ignore[attr-defined]
                self.track(drain)
            future.cancel()
            raise Timeout(
                "timeout",
                f"no answer to {what} from {self.url} within {timeout} s "
                "(client-side deadline; a late answer is dropped)",
            )
        return future.result(0)

    def close(self) -> None:
        self._closing = True
        self._ws.close()  # wakes a thread blocked reading
        self._end()
        if self._helper is not threading.current_thread():
            self._helper.join(timeout=5)


def _left(deadline: float | None) -> float | None:
    """Seconds until ``deadline`` (``None``: no deadline)."""
    return None if deadline is None else deadline - time.monotonic()


class Client(RoundRobin[Connection]):
    """A pool of kith connections; calls are spread over them round-robin.

    Thread-safe: any number of threads may call at once, and their calls are
    pipelined on the pool's connections.
    """

    def _pick(self) -> Connection:
        """The next open connection, after reading what it got while idle (so one
        the server closed meanwhile is skipped, not handed a call that must fail)."""
        for _ in range(len(self._connections)):
            conn = super()._pick()
            conn.check_idle()
            if not conn.closed:
                return conn
        return super()._pick()  # raises ConnectionClosed: every connection is closed

    def call(
        self,
        procedure: str,
        /,
        *,
        timing: bool = False,
        timeout: float | None | _Default = DEFAULT,
        **params: Any,
    ) -> Result:
        """Runs a stored procedure: ``client.call("shindig.friends", person_id=7)``.

        ``timing=True`` asks the server for its time split (``result.timing``);
        ``timeout`` overrides the client's deadline in seconds (``None``: none). A
        parameter literally named ``timing`` or ``timeout`` goes through
        :meth:`call_with`.
        """
        return self.call_with(procedure, params, timing=timing, timeout=timeout)

    def call_with(
        self,
        procedure: str,
        params: Mapping[str, Any] | None = None,
        *,
        timing: bool = False,
        timeout: float | None | _Default = DEFAULT,
    ) -> Result:
        """:meth:`call` with the parameters as a mapping."""
        conn = self._pick()
        future = conn.submit(procedure, params or {}, timing)
        deadline = self.timeout if isinstance(timeout, _Default) else timeout
        return conn.wait(future, procedure, deadline)

    def submit(
        self, procedure: str, /, *, timing: bool = False, **params: Any
    ) -> concurrent.futures.Future:
        """Sends a call without waiting: returns a ``concurrent.futures.Future`` of
        its :class:`Result`. Submitting many, then waiting, pipelines them from a
        single thread. No client-side deadline applies; pass one to ``.result()``."""
        conn = self._pick()
        return conn.track(conn.submit(procedure, params, timing))

    def write(
        self,
        ops: Iterable[Mapping[str, Any]],
        *,
        timing: bool = False,
        timeout: float | None | _Default = DEFAULT,
    ) -> WriteResult:
        """Commits one transaction of ``ops`` (built with :mod:`kith.ops`) and returns
        once the server has made it durable.

        All operations apply, in order, or none does: a refused transaction raises
        (:class:`~kith.ConditionFailed`, :class:`~kith.DuplicateId`, ...) and changed
        nothing. ``timing`` and ``timeout`` are as for :meth:`call`; a client-side
        ``Timeout`` cannot tell whether the write committed, so it says so.
        """
        conn = self._pick()
        future = conn.submit_write(ops, timing)
        deadline = self.timeout if isinstance(timeout, _Default) else timeout
        return WriteResult.from_result(conn.wait(future, WRITE_WHAT, deadline))

    def cypher(
        self,
        query: str,
        /,
        params: Mapping[str, Any] | None = None,
        *,
        timing: bool = False,
        timeout: float | None | _Default = DEFAULT,
        **kwparams: Any,
    ) -> Result:
        """Runs a Cypher query: ``client.cypher("MATCH (p:Person {id: $id}) RETURN
        p.displayName", id=7)`` or ``client.cypher(query, {"id": 7})``.

        Parameters (``$name`` in the query) come from ``params`` and keyword
        arguments (which win); one named ``params``, ``timing`` or ``timeout`` goes in
        the mapping. A query that writes (``CREATE``) is one transaction and returns
        once the server has made it durable, with ``result.commit`` =
        ``{"version": V, "nodes_created": N, "relationships_created": M}``. Errors of
        the query raise :class:`~kith.CypherError` (``cypher_code``, ``line``,
        ``column``); the server's limits raise :class:`~kith.Timeout` and
        :class:`~kith.ResultTooLarge`. ``timing`` and ``timeout`` as for :meth:`call`.
        """
        conn = self._pick()
        future = conn.submit_cypher(query, merge_params(params, kwparams), timing)
        deadline = self.timeout if isinstance(timeout, _Default) else timeout
        return conn.wait(future, "a Cypher query", deadline)

    def begin(self, *, timeout_ms: int | None = None) -> "Transaction":
        """Opens an explicit transaction (docs/protocol.md 1.3.3)::

            with client.begin() as tx:
                tx.cypher("MATCH (p:Person {id: $id}) SET p.seen = true", id=7)
                tx.cypher("MATCH (p:Person {seen: true}) RETURN count(p)")  # sees it
            # committed here; an exception in the block rolls it back

        Its statements read the graph as it was at ``begin`` plus their own writes;
        nobody else sees them before :meth:`Transaction.commit`. A commit that
        collides with a transaction committed meanwhile raises
        :class:`~kith.Conflict`: run the transaction again. The server rolls back a
        transaction still open after ``timeout_ms`` (at most its
        ``transaction_timeout_ms``)."""
        conn = self._pick()
        doc: dict[str, Any] = {"begin": {} if timeout_ms is None else {"timeout_ms": timeout_ms}}
        result = conn.wait(conn.submit_document(doc), "begin", self.timeout)
        rows = result.rows()
        if not rows or not isinstance(rows[0][0], str):
            raise KithError("bad_response", "`begin` was answered without a transaction id")
        return Transaction(self, conn, rows[0][0])

    def close(self) -> None:
        """Closes every connection; calls still in flight fail with ConnectionClosed."""
        for conn in self._connections:
            try:
                conn.close()
            except Exception:  # pragma: no cover - closing is best effort
                log.debug("kith: error closing %s", conn.url, exc_info=True)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<kith.Client {self.subprotocol} connections={len(self._connections)}>"


def targets(url: str, urls: Sequence[str] | None, pool_size: int) -> list[str]:
    """The URL of each connection: ``pool_size`` per server, interleaved so that
    round-robin alternates between servers."""
    if pool_size < 1:
        raise ValueError(f"pool_size must be at least 1, got {pool_size}")
    if isinstance(urls, str):
        urls = [urls]
    servers = list(urls) if urls else [url]
    if not servers:
        raise ValueError("urls is empty")
    return [u for _ in range(pool_size) for u in servers]


def connect(
    url: str = DEFAULT_URL,
    encoding: str = "bson",
    compression: str = "none",
    pool_size: int = 1,
    timeout: float | None = 10.0,
    *,
    urls: Sequence[str] | None = None,
    subprotocol: str | None = None,
    max_message_bytes: int = MESSAGE_BYTES_MAX,
    payload_bytes_max: int = PAYLOAD_BYTES_MAX,
    ssl: SSLContext | None = None,
) -> Client:
    """Opens a synchronous :class:`Client`.

    Offers ``kith.v1.{encoding}.{compression}`` in the handshake and checks that the
    server echoed it. ``pool_size`` connections are opened to ``url``, or to each of
    ``urls``. ``timeout`` (seconds) bounds opening and each call. ``subprotocol``
    offers a raw name instead (for probing servers; it must still name an encoding
    and compression this client speaks unless the server is expected to refuse it).
    ``wss://`` URLs verify the server's certificate against the system's authorities
    (or ``SSL_CERT_FILE``); ``ssl`` passes a context of your own, e.g.
    ``ssl.create_default_context(cafile="server.crt")`` for a self-signed certificate.
    """
    if subprotocol is not None:
        try:
            encoding, compression = parse_subprotocol(subprotocol)
        except ValueError:
            pass  # offered as is; the server will refuse it in the handshake
    wire = Wire(encoding, compression, payload_bytes_max)
    opened: list[Connection] = []
    try:
        for target in targets(url, urls, pool_size):
            opened.append(
                Connection(
                    target,
                    wire,
                    timeout=timeout,
                    offer=subprotocol,
                    max_message_bytes=max_message_bytes,
                    ssl=ssl,
                )
            )
    except BaseException:
        for conn in opened:
            conn.close()
        raise
    return Client(opened, timeout)


class Transaction:
    """An explicit transaction: :meth:`Client.begin` opens it. Used as a context
    manager it commits when the block ends normally and rolls back otherwise."""

    def __init__(self, client: Client, conn: Connection, tx_id: str) -> None:
        self._client = client
        self._conn = conn
        self.id = tx_id
        self._open = True

    def cypher(
        self,
        query: str,
        /,
        params: Mapping[str, Any] | None = None,
        *,
        timeout: float | None | _Default = DEFAULT,
        **kwparams: Any,
    ) -> Result:
        """A statement of the transaction; parameters as for :meth:`Client.cypher`. A
        statement that fails fails the transaction (it can only be rolled back)."""
        doc = cypher_document(query, merge_params(params, kwparams))
        doc["tx"] = self.id
        deadline = self._client.timeout if isinstance(timeout, _Default) else timeout
        return self._conn.wait(self._conn.submit_document(doc), "a Cypher query", deadline)

    def commit(self) -> dict[str, int]:
        """Commits, returning once durable: ``{"version": V, "nodes_created": N,
        "relationships_created": M}``."""
        self._open = False
        future = self._conn.submit_document({"commit": self.id})
        result = self._conn.wait(future, "a commit", self._client.timeout)
        return result.commit or {}

    def rollback(self) -> None:
        """Rolls back: nothing of the transaction is written."""
        self._open = False
        self._conn.wait(self._conn.submit_document({"rollback": self.id}), "a rollback", self._client.timeout)

    def __enter__(self) -> "Transaction":
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        if not self._open:
            return
        if kind is None:
            self.commit()
        else:
            try:
                self.rollback()
            except KithError:  # the transaction may already be gone (it failed)
                pass
