"""Typed exceptions for kith's stable error codes (docs/protocol.md 1.5).

The server sends ``{"code": ..., "message": ...}``; ``code`` is the stable part, so
callers catch on exception classes derived from it rather than matching messages.
Codes this client does not know (a newer server) still raise :class:`KithError`,
so an upgrade of the server never turns an error into a crash of the mapping.

Errors of a Cypher query also carry the engine's Neo4j-style code and where in the
query text the error is (``cypher_code``, ``line``, ``column``): on
:class:`CypherError` (``cypher_error``), and on :class:`Timeout` /
:class:`ResultTooLarge` when a query ran into the server's limits.
"""

from __future__ import annotations

__all__ = [
    "KithError",
    "NotFound",
    "UnknownProcedure",
    "ParameterError",
    "Busy",
    "Timeout",
    "ProtocolError",
    "HandshakeError",
    "ResultTooLarge",
    "ConnectionClosed",
    "ConnectionFailed",
    "WriteError",
    "ConditionFailed",
    "DuplicateId",
    "CypherError",
    "error_from_code",
]


class KithError(Exception):
    """Base of every kith error: ``code`` is stable, ``message`` is for people.

    For an error of a Cypher query, ``cypher_code`` is the engine's code (e.g.
    ``Neo.ClientError.Statement.SyntaxError``), ``gql_status`` its GQL status as Neo4j
    gives it (``42001``, ``50N42``, ...) and ``line`` / ``column`` (1-based) say where
    in the query text, when the error belongs to a place in it; otherwise they are
    ``None``.
    """

    cypher_code: str | None = None
    gql_status: str | None = None
    line: int | None = None
    column: int | None = None

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        text = f"{self.code}: {self.message}"
        if self.cypher_code is not None:
            text = f"{self.code}: {self.cypher_code}: {self.message}"
        if self.line is not None and self.column is not None:
            text += f" (line {self.line}, column {self.column})"
        return text

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r})"


class NotFound(KithError):
    """The subject of the call (a person, group, ...) does not exist (``not_found``);
    for a write, a referenced node, relationship or index."""


class UnknownProcedure(KithError):
    """No procedure of that name (``unknown_procedure``); the message suggests names."""


class ParameterError(KithError):
    """A parameter is missing, unknown, mistyped or out of range."""


class Busy(KithError):
    """An in-flight limit is reached (``busy``); retrying later is the remedy."""


class ShardUnavailable(KithError):
    """A router (``kith route``) could not reach a shard the call needs
    (``shard_unavailable``): nothing was answered from the other shards; retry once
    the shard is back."""


class Timeout(KithError):
    """No answer in time: the server's ``timeout`` or this client's own deadline."""


class ProtocolError(KithError):
    """The bytes on the wire were wrong (``bad_frame``, ``bad_request``,
    ``frame_too_large``), or the server's answer could not be read."""


class HandshakeError(ProtocolError):
    """The WebSocket handshake failed: the server refused the subprotocol offer (HTTP
    400 with the supported names in ``body``) or echoed a different one."""

    def __init__(self, message: str, *, status: int | None = None, body: str = "") -> None:
        super().__init__("handshake", message)
        self.status = status
        self.body = body


class ResultTooLarge(KithError):
    """The result has more rows than the server's ``result_rows_max``."""


class ConnectionClosed(KithError):
    """The connection ended (or was closed) before the answer arrived."""


class ConnectionFailed(ConnectionClosed):
    """The connection could not be opened at all (refused, unreachable, timed out)."""


class WriteError(KithError):
    """The server refused a write transaction, which then changed nothing:
    ``invalid_write`` (e.g. a non-Int ``id``, deleting a node that has
    relationships without ``detach``), ``read_only`` (the server has no data
    directory), ``storage_failure`` (its log could not be written; it takes no more
    writes until restarted), ``replication_failed`` (publishing to Kafka failed or
    was not acknowledged in time; the message says whether the primary committed
    the write), and the two subclasses below. Malformed operations are
    ``bad_request`` (:class:`ProtocolError`) and missing references ``not_found``
    (:class:`NotFound`), as for calls."""


class ConditionFailed(WriteError):
    """A ``require_absent`` / ``require_present`` did not hold (``condition_failed``):
    for "create if absent", another transaction created it first."""


class DuplicateId(WriteError):
    """A node with that label and ``id`` already exists (``duplicate_id``)."""


class Conflict(WriteError):
    """An explicit transaction changes what another transaction changed and
    committed after it began (``conflict``): nothing was written; run it again."""


class Deadlock(WriteError):
    """A statement of an explicit transaction would wait for a transaction that
    waits for it (``deadlock``): this transaction was rolled back; run it again."""


class CypherError(KithError):
    """A Cypher query was refused or failed (``cypher_error``): a syntax, semantic or
    type error, a missing parameter, an unknown function, ... ``cypher_code`` names
    which (Neo4j's status codes); ``line`` and ``column`` point into the query."""


_BY_CODE: dict[str, type[KithError]] = {
    "not_found": NotFound,
    "unknown_procedure": UnknownProcedure,
    "missing_parameter": ParameterError,
    "unknown_parameter": ParameterError,
    "wrong_parameter_type": ParameterError,
    "parameter_out_of_range": ParameterError,
    "busy": Busy,
    "shard_unavailable": ShardUnavailable,
    "timeout": Timeout,
    "bad_frame": ProtocolError,
    "bad_request": ProtocolError,
    "frame_too_large": ProtocolError,
    "result_too_large": ResultTooLarge,
    "connection_closed": ConnectionClosed,
    "condition_failed": ConditionFailed,
    "duplicate_id": DuplicateId,
    "conflict": Conflict,
    "deadlock": Deadlock,
    "invalid_write": WriteError,
    "read_only": WriteError,
    "storage_failure": WriteError,
    "replication_failed": WriteError,
    "cypher_error": CypherError,
}


def error_from_code(code: str, message: str) -> KithError:
    """The exception for a server error document; unknown codes give :class:`KithError`."""
    return _BY_CODE.get(code, KithError)(code, message)


def _position(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def error_from_document(doc: object) -> KithError:
    """The exception for a decoded error payload, tolerating a malformed one."""
    if isinstance(doc, dict) and isinstance(doc.get("code"), str):
        message = doc.get("message")
        error = error_from_code(doc["code"], message if isinstance(message, str) else "")
        cypher_code = doc.get("cypher_code")
        if isinstance(cypher_code, str):
            error.cypher_code = cypher_code
            gql_status = doc.get("gql_status")
            error.gql_status = gql_status if isinstance(gql_status, str) else None
            error.line = _position(doc.get("line"))
            error.column = _position(doc.get("column"))
        return error
    return ProtocolError("bad_response", f"the server sent a malformed error document: {doc!r}")
