"""The asyncio client: ``await kith.connect_async(...)``.

Each connection is a ``websockets`` asyncio connection plus one reader task that
dispatches frames by request id to ``asyncio.Future`` s, so any number of
coroutines can have calls in flight on one connection (pipelining):
``await asyncio.gather(*(client.call(...) for ...))``.
"""

from __future__ import annotations

import asyncio
import logging
from ssl import SSLContext
from collections.abc import Generator, Iterable, Mapping, Sequence
from typing import Any

from . import _ws
from ._wire import PAYLOAD_BYTES_MAX, Dispatcher, Wire, merge_params, parse_subprotocol
from .client import DEFAULT, DEFAULT_URL, MESSAGE_BYTES_MAX, WRITE_WHAT, _Default, targets
from ._pool import RoundRobin
from .errors import ConnectionClosed, KithError, Timeout
from .result import Result, WriteResult

__all__ = ["AsyncClient", "connect_async"]

log = logging.getLogger("kith")


def _resolve(future: asyncio.Future, outcome: Result | KithError) -> None:
    if future.done():  # the caller timed out or was cancelled
        return
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)


class AsyncConnection:
    """One WebSocket connection with its reader task (used through :class:`AsyncClient`)."""

    def __init__(self, url: str, wire: Wire, ws: Any, offer: str) -> None:
        self.url = url
        self.wire = wire
        self.offer = offer
        self.dispatcher: Dispatcher[asyncio.Future] = Dispatcher(wire)
        self._ws = ws
        self._closing = False
        self._reader = asyncio.get_running_loop().create_task(self._read(), name=f"kith-reader {url}")

    @classmethod
    async def open(
        cls,
        url: str,
        wire: Wire,
        *,
        timeout: float | None,
        offer: str | None = None,
        max_message_bytes: int = MESSAGE_BYTES_MAX,
        ssl: SSLContext | None = None,
    ) -> "AsyncConnection":
        offer = offer or wire.subprotocol
        try:
            ws = await _ws.async_connect(
                url, **_ws.connect_kwargs(offer, timeout, max_message_bytes, ssl=ssl)
            )
        except Exception as exc:
            raise _ws.handshake_failure(url, offer, exc) from exc
        try:
            _ws.check_echo(url, offer, ws.subprotocol)
        except KithError:
            await ws.close()
            raise
        return cls(url, wire, ws, offer)

    @property
    def closed(self) -> bool:
        return self.dispatcher.closed is not None

    async def _read(self) -> None:
        try:
            async for message in self._ws:
                for future, outcome in self.dispatcher.feed(message):
                    _resolve(future, outcome)
        except _ws.WsConnectionClosed:
            pass
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug here must not leave callers waiting forever
            log.exception("kith: reader of %s failed", self.url)
        finally:
            error = _ws.closed_error(self._ws, self.url, self._closing)
            for future, outcome in self.dispatcher.close(error):
                _resolve(future, outcome)

    async def call(
        self, procedure: str, params: Mapping[str, Any], timing: bool, timeout: float | None
    ) -> Result:
        payload, flags = self.wire.encode_request(procedure, params, timing)
        return await self._request(payload, flags, procedure, timeout)

    async def write(
        self, ops: Iterable[Mapping[str, Any]], timing: bool, timeout: float | None
    ) -> Result:
        """The raw result of a write (the client turns it into a ``WriteResult``)."""
        payload, flags = self.wire.encode_write(ops, timing)
        return await self._request(payload, flags, WRITE_WHAT, timeout)

    async def cypher(
        self, query: str, params: Mapping[str, Any], timing: bool, timeout: float | None
    ) -> Result:
        payload, flags = self.wire.encode_cypher(query, params, timing)
        return await self._request(payload, flags, "a Cypher query", timeout)

    async def _request(self, payload: bytes, flags: int, what: str, timeout: float | None) -> Result:
        """Sends an encoded request and waits for its answer; ``what`` names it in a
        client-side ``Timeout``."""
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        request_id = self.dispatcher.register(future)
        try:
            try:
                await self._ws.send(Wire.frame(request_id, payload, flags))
            except _ws.WsConnectionClosed:
                raise _ws.closed_error(self._ws, self.url, self._closing) from None
            try:
                return await asyncio.wait_for(future, timeout)
            except asyncio.TimeoutError:
                raise Timeout(
                    "timeout",
                    f"no answer to {what} from {self.url} within {timeout} s "
                    "(client-side deadline; a late answer is dropped)",
                ) from None
        finally:
            self.dispatcher.forget(request_id)

    async def close(self) -> None:
        self._closing = True
        await self._ws.close()
        try:
            await asyncio.wait_for(self._reader, 5)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            self._reader.cancel()


class AsyncClient(RoundRobin[AsyncConnection]):
    """A pool of kith connections for asyncio; calls are spread round-robin."""

    async def call(
        self,
        procedure: str,
        /,
        *,
        timing: bool = False,
        timeout: float | None | _Default = DEFAULT,
        **params: Any,
    ) -> Result:
        """Runs a stored procedure: ``await client.call("shindig.friends", person_id=7)``.

        Same options as the sync :meth:`kith.Client.call`."""
        return await self.call_with(procedure, params, timing=timing, timeout=timeout)

    async def call_with(
        self,
        procedure: str,
        params: Mapping[str, Any] | None = None,
        *,
        timing: bool = False,
        timeout: float | None | _Default = DEFAULT,
    ) -> Result:
        """:meth:`call` with the parameters as a mapping."""
        deadline = self.timeout if isinstance(timeout, _Default) else timeout
        return await self._pick().call(procedure, params or {}, timing, deadline)

    async def write(
        self,
        ops: Iterable[Mapping[str, Any]],
        *,
        timing: bool = False,
        timeout: float | None | _Default = DEFAULT,
    ) -> WriteResult:
        """Commits one transaction: ``await client.write([ops.create_node(...)])``.

        Same semantics and options as the sync :meth:`kith.Client.write`; concurrent
        writes (``asyncio.gather``) are pipelined and the server commits them in
        groups."""
        deadline = self.timeout if isinstance(timeout, _Default) else timeout
        return WriteResult.from_result(await self._pick().write(ops, timing, deadline))

    async def cypher(
        self,
        query: str,
        /,
        params: Mapping[str, Any] | None = None,
        *,
        timing: bool = False,
        timeout: float | None | _Default = DEFAULT,
        **kwparams: Any,
    ) -> Result:
        """Runs a Cypher query: ``await client.cypher("MATCH ... $id ...", id=7)``.

        Same parameters, answer and errors as the sync :meth:`kith.Client.cypher`."""
        deadline = self.timeout if isinstance(timeout, _Default) else timeout
        merged = merge_params(params, kwparams)
        return await self._pick().cypher(query, merged, timing, deadline)

    async def close(self) -> None:
        """Closes every connection; calls still in flight fail with ConnectionClosed."""
        await asyncio.gather(*(c.close() for c in self._connections), return_exceptions=True)

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"<kith.AsyncClient {self.subprotocol} connections={len(self._connections)}>"


class _Connecting:
    """What :func:`connect_async` returns: await it for the client, or use it
    directly in ``async with`` (which closes the client at the end)."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._client: AsyncClient | None = None

    async def _open(self) -> AsyncClient:
        o = self._options
        encoding, compression, subprotocol = o["encoding"], o["compression"], o["subprotocol"]
        if subprotocol is not None:
            try:
                encoding, compression = parse_subprotocol(subprotocol)
            except ValueError:
                pass  # offered as is; the server will refuse it in the handshake
        wire = Wire(encoding, compression, o["payload_bytes_max"])
        opening = [
            AsyncConnection.open(
                target,
                wire,
                timeout=o["timeout"],
                offer=subprotocol,
                max_message_bytes=o["max_message_bytes"],
                ssl=o["ssl"],
            )
            for target in targets(o["url"], o["urls"], o["pool_size"])
        ]
        outcomes = await asyncio.gather(*opening, return_exceptions=True)
        failures = [x for x in outcomes if isinstance(x, BaseException)]
        if failures:
            await asyncio.gather(
                *(x.close() for x in outcomes if isinstance(x, AsyncConnection)),
                return_exceptions=True,
            )
            raise failures[0]
        return AsyncClient(outcomes, o["timeout"])  # type: ignore[arg-type]

    def __await__(self) -> Generator[Any, None, AsyncClient]:
        return self._open().__await__()

    async def __aenter__(self) -> AsyncClient:
        self._client = await self._open()
        return self._client

    async def __aexit__(self, *exc: object) -> None:
        if self._client is not None:
            await self._client.close()


def connect_async(
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
) -> _Connecting:
    """Opens an :class:`AsyncClient`; ``client = await kith.connect_async(...)`` or
    ``async with kith.connect_async(...) as client:``. Options as :func:`kith.connect`."""
    targets(url, urls, pool_size)  # argument errors now, not at the await
    Wire(encoding, compression)
    return _Connecting(
        url=url,
        encoding=encoding,
        compression=compression,
        pool_size=pool_size,
        timeout=timeout,
        urls=urls,
        subprotocol=subprotocol,
        max_message_bytes=max_message_bytes,
        payload_bytes_max=payload_bytes_max,
        ssl=ssl,
    )
