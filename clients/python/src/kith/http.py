"""The HTTP transport: one JSON request and answer per call (docs/protocol.md 2).

It needs nothing beyond the standard library, which makes it the easy way to call
kith from scripts and the baseline the WebSocket client is checked against. Errors
are the same JSON error documents as on the WebSocket and raise the same exceptions.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from ._codec import get_codec
from .errors import ConnectionFailed, KithError, ProtocolError, Timeout, error_from_document
from .result import Result

__all__ = ["http_call", "http_health"]

_JSON = get_codec("json")
# Straight to the server: a database call should not wander through an HTTP proxy
# configured for the web (the WebSocket client does the same).
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _url(base_url: str, path: str) -> str:
    base = base_url.rstrip("/")
    if base.endswith("/v1"):  # accept either the server root or its /v1 prefix
        base = base[: -len("/v1")]
    return base + path


def _error_from_body(status: int, body: bytes) -> KithError:
    try:
        doc = json.loads(body)
    except ValueError:
        doc = None
    if isinstance(doc, dict) and isinstance(doc.get("code"), str):
        return error_from_document(doc)
    text = body.decode("utf-8", "replace").strip()
    return KithError(f"http_{status}", text or f"HTTP {status} without an error document")


def _request(request: urllib.request.Request, timeout: float | None) -> bytes:
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return response.read()
    except urllib.error.HTTPError as exc:
        with exc:
            raise _error_from_body(exc.code, exc.read()) from None
    except urllib.error.URLError as exc:
        raise ConnectionFailed(
            "connection_failed", f"could not reach {request.full_url}: {exc.reason}"
        ) from None
    except TimeoutError:
        raise Timeout("timeout", f"no answer from {request.full_url} within {timeout} s") from None


def http_call(base_url: str, procedure: str, /, *, timeout: float | None = 10.0, **params: Any) -> Result:
    """Runs ``procedure`` with ``POST {base_url}/v1/call/{procedure}``.

    ``base_url`` is the server root, e.g. ``http://127.0.0.1:7600``. Parameters are
    encoded like the WebSocket JSON encoding (datetimes as ``{"$datetime": ms}``),
    and so are the values of the answer.
    """
    body = _JSON.encode(params)
    url = _url(base_url, "/v1/call/" + urllib.parse.quote(procedure, safe=""))
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )
    doc = _JSON.decode(_request(request, timeout))
    columns, rows = doc.get("columns"), doc.get("rows")
    if not isinstance(columns, list) or not isinstance(rows, list):
        raise ProtocolError("bad_response", f"{url} answered without columns and rows: {doc!r}")
    return Result(columns, rows, doc.get("timing"), chunks=1)


def http_health(base_url: str, *, timeout: float | None = 10.0) -> dict[str, Any]:
    """``GET /health``: ``{"status": "ok", "nodes": N, "relationships": M}``."""
    request = urllib.request.Request(_url(base_url, "/health"), method="GET")
    return json.loads(_request(request, timeout))
