"""The parts of the ``websockets`` library both clients use, across its versions.

websockets 13+ has ``websockets.asyncio.client``; 12 only the legacy
``websockets.client`` for asyncio. Keyword arguments that only newer versions know
(``proxy``) are passed only when accepted. The synchronous client drives websockets'
sans-I/O protocol itself (_sync_ws.py) and shares the error mapping here.
"""

from __future__ import annotations

import inspect
from ssl import SSLContext
from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed as WsConnectionClosed
from websockets.exceptions import InvalidHandshake, InvalidURI

try:
    from websockets.asyncio.client import connect as async_connect

    ASYNC_LEGACY = False
except ImportError:  # websockets 12
    from websockets.client import connect as async_connect  # type: ignore[no-redef]

    ASYNC_LEGACY = True

from .errors import ConnectionClosed, ConnectionFailed, HandshakeError, KithError

__all__ = [
    "async_connect",
    "connect_kwargs",
    "handshake_failure",
    "check_echo",
    "closed_error",
    "WsConnectionClosed",
]


def _accepts(fn: Any, name: str) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):  # pragma: no cover
        return False
    return name in params


_ASYNC_PROXY = _accepts(async_connect, "proxy") or _accepts(
    getattr(async_connect, "__init__", None), "proxy"
)


def connect_kwargs(
    offer: str,
    timeout: float | None,
    max_message_bytes: int,
    *,
    ssl: SSLContext | None = None,
) -> dict:
    """Keyword arguments for the asyncio ``connect``: offer exactly one subprotocol, no
    permessage-deflate (kith compresses payloads itself; compressing twice only
    costs CPU), a bounded message size, and no HTTP proxy (a database connection
    goes straight to the server, as the HTTP helper does)."""
    kwargs: dict[str, Any] = {
        "subprotocols": [offer],
        "compression": None,
        "open_timeout": timeout,
        "max_size": max_message_bytes,
    }
    if _ASYNC_PROXY:
        kwargs["proxy"] = None
    if ssl is not None:
        # For wss:// only: websockets refuses a TLS context with a ws:// URL.
        kwargs["ssl"] = ssl
    return kwargs


def handshake_failure(url: str, offer: str, exc: BaseException) -> KithError:
    """The kith exception for a failed ``connect``: a refused upgrade (the server
    answers HTTP 400 listing the subprotocols it supports) becomes
    :class:`HandshakeError`, anything else :class:`ConnectionFailed`."""
    response = getattr(exc, "response", None)
    status = getattr(response, "status_code", None) or getattr(exc, "status_code", None)
    if status is not None:
        raw = getattr(response, "body", b"") or b""
        body = raw.decode("utf-8", "replace") if isinstance(raw, (bytes, bytearray)) else str(raw)
        detail = f": {body.strip()}" if body.strip() else ""
        return HandshakeError(
            f"{url} refused the WebSocket upgrade offering {offer!r} with HTTP {status}{detail}",
            status=status,
            body=body,
        )
    if isinstance(exc, InvalidURI):
        return ConnectionFailed("connection_failed", f"{url!r} is not a WebSocket URL: {exc}")
    if isinstance(exc, InvalidHandshake):
        return HandshakeError(f"the WebSocket handshake with {url} offering {offer!r} failed: {exc}")
    return ConnectionFailed(
        "connection_failed", f"could not connect to {url}: {type(exc).__name__}: {exc}"
    )


def check_echo(url: str, offer: str, echoed: str | None) -> None:
    """The server must echo the one subprotocol offered (RFC 6455, protocol 1.1)."""
    if echoed != offer:
        raise HandshakeError(
            f"{url} accepted the WebSocket upgrade but echoed subprotocol {echoed!r}, "
            f"not the offered {offer!r}"
        )


def closed_error(ws: Any, url: str, closed_by_client: bool) -> ConnectionClosed:
    """Why the connection ended, with the close code and reason when there are any
    (1008 "write stalled" and 1009 for an oversized frame are the kith ones)."""
    if closed_by_client:
        return ConnectionClosed("connection_closed", f"the connection to {url} was closed by the client")
    code, reason = _close_code_and_reason(ws)
    what = f"the connection to {url} closed"
    if code is not None:
        what += f" with code {code}"
        if reason:
            what += f" ({reason})"
    return ConnectionClosed("connection_closed", what)


def _close_code_and_reason(ws: Any) -> tuple[int | None, str | None]:
    # websockets' asyncio connections (13+ and the legacy one) have close_code; the
    # sync client's SocketWebSocket reads it from the close frame received.
    for source in (ws, getattr(ws, "protocol", None)):
        code = getattr(source, "close_code", None)
        if code is not None:
            return code, getattr(source, "close_reason", None)
    return None, None


WEBSOCKETS_VERSION = getattr(websockets, "__version__", "?")
