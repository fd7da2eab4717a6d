"""Python client for the kith graph database server.

Quick start::

    import kith

    with kith.connect("ws://127.0.0.1:7600/v1/ws") as client:
        for person_id, name in client.call("shindig.friends", person_id=7):
            print(person_id, name)

        from kith import ops
        done = client.write([ops.create_node(["Person"], {"id": 900001, "name": "Ann"})])
        print(done.version, done.nodes)

        names = client.cypher("MATCH (p:Person {id: $id})-[:FRIEND_OF]->(f) "
                              "RETURN f.displayName AS name ORDER BY name", id=7)

The wire protocol is docs/protocol.md of the kith repository (version 1).
"""

from . import ops
from .aio import AsyncClient, connect_async
from .client import Client, Transaction, connect
from .cluster import Cluster, Session, connect_cluster
from .errors import (
    Busy,
    ShardUnavailable,
    ConditionFailed,
    Conflict,
    ConnectionClosed,
    Deadlock,
    ConnectionFailed,
    CypherError,
    DuplicateId,
    HandshakeError,
    KithError,
    NotFound,
    ParameterError,
    ProtocolError,
    ResultTooLarge,
    Timeout,
    UnknownProcedure,
    WriteError,
)
from .http import http_call, http_cypher, http_health, http_write
from .result import Record, Result, WriteResult
from ._values import Point, Temporal
from ._codec import ENCODINGS
from ._compress import COMPRESSIONS

__version__ = "0.1.0"

__all__ = [
    "Cluster",
    "Session",
    "connect_cluster",
    "connect",
    "connect_async",
    "Client",
    "Transaction",
    "AsyncClient",
    "http_call",
    "http_write",
    "http_cypher",
    "http_health",
    "ops",
    "Result",
    "Record",
    "WriteResult",
    "Point",
    "Temporal",
    "KithError",
    "NotFound",
    "UnknownProcedure",
    "ParameterError",
    "Busy",
    "ShardUnavailable",
    "Timeout",
    "ProtocolError",
    "HandshakeError",
    "ResultTooLarge",
    "ConnectionClosed",
    "ConnectionFailed",
    "WriteError",
    "ConditionFailed",
    "DuplicateId",
    "Conflict",
    "CypherError",
    "Deadlock",
    "ENCODINGS",
    "COMPRESSIONS",
]
