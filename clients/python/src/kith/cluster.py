"""A primary and its read replicas as one client (docs/replication.md).

Writes go to the primary; reads are spread over the replicas round-robin. A
:class:`Session` carries the version of its last write and sends it with every read
(``min_version``), so a replica answers only once it has applied that write: a session
always reads its own writes::

    cluster = kith.connect_cluster("ws://primary:7600/v1/ws",
                                   ["ws://replica1:7600/v1/ws", "ws://replica2:7600/v1/ws"])
    session = cluster.session()
    session.cypher("CREATE (:Person {id: $id})", id=7)
    session.read("MATCH (p:Person {id: $id}) RETURN p.id", id=7)   # sees it
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ._wire import call_document, cypher_document, merge_params
from .client import WRITE_WHAT, Client, connect
from .result import Result, WriteResult


class Cluster:
    """The primary's :class:`~kith.Client` and the replicas' (``None``: reads go to
    the primary too)."""

    def __init__(self, primary: Client, replicas: Client | None = None) -> None:
        self.primary = primary
        self.replicas = replicas

    def session(self) -> "Session":
        """A new session: its reads see its own writes."""
        return Session(self)

    def close(self) -> None:
        self.primary.close()
        if self.replicas is not None:
            self.replicas.close()

    def __enter__(self) -> "Cluster":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Session:
    """A chain of requests that reads its own writes. Safe to share between threads
    (the version only moves forward), though a session per thread keeps each
    thread's chain apart."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.version = 0
        self._lock = threading.Lock()

    def observe(self, version: int) -> None:
        """Makes later reads wait for ``version`` too (another session's write)."""
        with self._lock:
            self.version = max(self.version, int(version))

    def _read(self, doc: dict[str, Any], what: str) -> Result:
        client = self.cluster.replicas or self.cluster.primary
        if self.version:
            doc["min_version"] = self.version
        conn = client._pick()
        return conn.wait(conn.submit_document(doc), what, client.timeout)

    def call(self, procedure: str, /, **params: Any) -> Result:
        """Runs a read procedure on a replica, once it has the session's version."""
        return self._read(call_document(procedure, params), procedure)

    def read(
        self, query: str, /, params: Mapping[str, Any] | None = None, **kwparams: Any
    ) -> Result:
        """Runs a Cypher query that only reads on a replica, once it has the
        session's version (a query that writes is refused there: use :meth:`cypher`)."""
        doc = cypher_document(query, merge_params(params, kwparams))
        return self._read(doc, "a Cypher query")

    def cypher(
        self, query: str, /, params: Mapping[str, Any] | None = None, **kwparams: Any
    ) -> Result:
        """Runs a Cypher query on the primary; one that wrote moves the session's
        version to its commit."""
        result = self.cluster.primary.cypher(query, params, **kwparams)
        if result.commit:
            self.observe(result.commit["version"])
        return result

    def write(self, ops: Iterable[Mapping[str, Any]]) -> WriteResult:
        """Commits a transaction on the primary; the session's version moves to it."""
        result = self.cluster.primary.write(ops)
        self.observe(result.version)
        return result

    def update(self, procedure: str, /, **params: Any) -> WriteResult:
        """Calls an update procedure (LDBC's IU1-IU8) on the primary; the session's
        version moves to its commit."""
        client = self.cluster.primary
        conn = client._pick()
        raw = conn.wait(conn.submit(procedure, params), WRITE_WHAT, client.timeout)
        result = WriteResult.from_result(raw)
        self.observe(result.version)
        return result


def connect_cluster(
    primary: str, replicas: Sequence[str] = (), **options: Any
) -> Cluster:
    """Connects to a primary and its replicas (WebSocket URLs); ``options`` are
    :func:`kith.connect`'s (``encoding``, ``pool_size`` per server, ``timeout``,
    ``ssl``, ...)."""
    primary_client = connect(primary, **options)
    try:
        replica_client = connect(urls=list(replicas), **options) if replicas else None
    except BaseException:
        primary_client.close()
        raise
    return Cluster(primary_client, replica_client)
