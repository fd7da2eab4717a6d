"""Python client for the kith graph database server.

Quick start::

    import kith

    with kith.connect("ws://127.0.0.1:7600/v1/ws") as client:
        for person_id, name in client.call("shindig.friends", person_id=7):
            print(person_id, name)

The wire protocol is docs/protocol.md of the kith repository (version 1).
"""

from .aio import AsyncClient, connect_async
from .client import Client, connect
from .errors import (
    Busy,
    ConnectionClosed,
    ConnectionFailed,
    HandshakeError,
    KithError,
    NotFound,
    ParameterError,
    ProtocolError,
    ResultTooLarge,
    Timeout,
    UnknownProcedure,
)
from .http import http_call, http_health
from .result import Record, Result
from ._codec import ENCODINGS
from ._compress import COMPRESSIONS

__version__ = "0.1.0"

__all__ = [
    "connect",
    "connect_async",
    "Client",
    "AsyncClient",
    "http_call",
    "http_health",
    "Result",
    "Record",
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
    "ENCODINGS",
    "COMPRESSIONS",
]
