"""Round-robin over a client's connections, shared by the sync and asyncio clients
(their connections differ; choosing one does not)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Generic, Protocol, TypeVar

from .errors import ConnectionClosed


class _Conn(Protocol):
    offer: str
    url: str

    @property
    def closed(self) -> bool: ...


C = TypeVar("C", bound=_Conn)


class RoundRobin(Generic[C]):
    """A non-empty list of connections, handed out in turn, skipping closed ones."""

    def __init__(self, connections: Sequence[C], timeout: float | None) -> None:
        if not connections:
            raise ValueError("a client needs at least one connection")
        self._connections = list(connections)
        self._next = itertools.count()
        self.timeout = timeout

    @property
    def subprotocol(self) -> str:
        """The negotiated ``kith.v1.<encoding>.<compression>``."""
        return self._connections[0].offer

    @property
    def connections(self) -> int:
        return len(self._connections)

    @property
    def urls(self) -> list[str]:
        return [c.url for c in self._connections]

    def _pick(self) -> C:
        n = len(self._connections)
        for _ in range(n):
            conn = self._connections[next(self._next) % n]
            if not conn.closed:
                return conn
        last = self._connections[-1].dispatcher.closed  # type: ignore[attr-defined]
        why = f": {last.message}" if last is not None else ""
        raise ConnectionClosed("connection_closed", f"every connection of this client is closed{why}")
