"""The HTTP transport: one JSON request and answer per call or write (docs/protocol.md 2).

It needs nothing beyond the standard library, which makes it the easy way to call
kith from scripts and the baseline the WebSocket client is checked against. Errors
are the same JSON error documents as on the WebSocket and raise the same exceptions.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Mapping
from typing import Any

from ._codec import get_codec
from ._wire import merge_params, write_document
from .errors import ConnectionFailed, KithError, ProtocolError, Timeout, error_from_document
from .result import Result, WriteResult

__all__ = ["http_call", "http_write", "http_cypher", "http_health"]

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


def _post_json(url: str, body: bytes, timeout: float | None) -> Result:
    """POSTs a JSON body and reads the answer as a result (columns and rows)."""
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
    return Result(
        columns, rows, doc.get("timing"), chunks=1, commit=doc.get("commit"),
        plan=doc.get("plan"),
        notifications=doc.get("notifications"),
    )


def http_call(base_url: str, procedure: str, /, *, timeout: float | None = 10.0, **params: Any) -> Result:
    """Runs ``procedure`` with ``POST {base_url}/v1/call/{procedure}``.

    ``base_url`` is the server root, e.g. ``http://127.0.0.1:7600``. Parameters are
    encoded like the WebSocket JSON encoding (datetimes as ``{"$datetime": ms}``),
    and so are the values of the answer.
    """
    url = _url(base_url, "/v1/call/" + urllib.parse.quote(procedure, safe=""))
    return _post_json(url, _JSON.encode(params), timeout)


def http_write(
    base_url: str, ops: Iterable[Mapping[str, Any]], *, timeout: float | None = 10.0
) -> WriteResult:
    """Commits one transaction with ``POST {base_url}/v1/write``.

    ``ops`` as for :meth:`kith.Client.write` (built with :mod:`kith.ops`); values
    travel as in :func:`http_call`. The server answers after the transaction is
    durable and has no deadline of its own for writes, so ``timeout`` is the only
    one: when it expires the write may still commit.
    """
    body = _JSON.encode(write_document(ops))
    return WriteResult.from_result(_post_json(_url(base_url, "/v1/write"), body, timeout))


def http_cypher(
    base_url: str,
    query: str,
    /,
    params: Mapping[str, Any] | None = None,
    *,
    timeout: float | None = 10.0,
    **kwparams: Any,
) -> Result:
    """Runs a Cypher query with ``POST {base_url}/v1/cypher``.

    Parameters (``$name`` in the query) come from ``params`` and keyword arguments,
    as for :meth:`kith.Client.cypher`. A query that writes is answered once it is
    durable, with ``result.commit`` set. Errors raise :class:`~kith.CypherError`
    (with ``cypher_code``, ``line``, ``column``) or the usual classes.
    """
    if not isinstance(query, str):
        raise TypeError(f"the query must be a str, got {type(query).__name__}")
    body = _JSON.encode({"query": query, "params": merge_params(params, kwparams)})
    return _post_json(_url(base_url, "/v1/cypher"), body, timeout)


def http_health(base_url: str, *, timeout: float | None = 10.0) -> dict[str, Any]:
    """``GET /health``: ``{"status": "ok", "nodes": N, "relationships": M, "version": V,
    "writable": true, "durability": "fsync"}`` (the server's keys, as it sends them)."""
    request = urllib.request.Request(_url(base_url, "/health"), method="GET")
    return json.loads(_request(request, timeout))
