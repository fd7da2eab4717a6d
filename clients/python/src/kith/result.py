"""Results and records.

A :class:`Result` is a sequence of :class:`Record` plus the ``columns`` they share.
A record is a tuple (so unpacking, ``len``, indexing, slicing, hashing and equality
with plain tuples come for free and cost nothing per row) that can also be read by
column name like a mapping: ``rec["displayName"]``, ``rec.keys()``, ``dict(rec)``.
The column-name index lives on a small tuple subclass made once per distinct column
list (like a namedtuple), not on every row.

A write answers with an ordinary one-row result (docs/protocol.md 1.3.1);
:class:`WriteResult` is that row with names, checked once so callers need not.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from .errors import ProtocolError

__all__ = ["Record", "Result", "WriteResult"]


class Record(tuple):
    """One row: a tuple of values that can also be indexed by column name."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _index: dict[str, int] = {}

    def __new__(cls, columns: Sequence[str], values: Iterable[Any]) -> "Record":
        return tuple.__new__(_record_class(tuple(columns)), values)

    def __getitem__(self, key):  # type: ignore[override]
        if isinstance(key, str):
            try:
                key = self._index[key]
            except KeyError:
                raise KeyError(f"no column {key!r}; the columns are {list(self._fields)}") from None
        return tuple.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        """The value of column ``key``, or ``default`` if there is no such column."""
        i = self._index.get(key)
        return default if i is None else tuple.__getitem__(self, i)

    def keys(self) -> list[str]:
        """Column names, in order (also what makes ``dict(rec)`` work)."""
        return list(self._fields)

    def values(self) -> list[Any]:
        return list(self)

    def items(self) -> list[tuple[str, Any]]:
        return list(zip(self._fields, self))

    def data(self) -> dict[str, Any]:
        """The record as a ``dict`` of column name to value."""
        return dict(zip(self._fields, self))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in zip(self._fields, self))
        return f"<Record {inner}>"

    def __reduce__(self):
        return (Record, (self._fields, tuple(self)))


@functools.lru_cache(maxsize=512)
def _record_class(columns: tuple[str, ...]) -> type[Record]:
    index = {name: i for i, name in enumerate(columns)}
    return type("Record", (Record,), {"__slots__": (), "_fields": columns, "_index": index})


class Result(Sequence[Record]):
    """The rows of one call, in the server's order.

    ``columns`` names the values of each record; ``timing`` holds the server's
    ``queue_us``/``exec_us``/``encode_us`` when the call asked for them; ``chunks``
    is how many frames the result arrived in (1 over HTTP). For a Cypher query that
    wrote, ``commit`` is ``{"version": V, "nodes_created": N,
    "relationships_created": M}`` (the server answers once it is durable); otherwise
    ``None``. For an ``EXPLAIN`` or ``PROFILE`` query, ``plan`` is the plan as a
    tree of dicts (``operator``, ``details``, ``estimatedRows``, after PROFILE
    ``rows``, ``dbHits`` and ``timeUs``, and ``children``). ``notifications`` lists
    what the server says of the query beside its rows, as Neo4j 5 raises it: dicts
    with ``code`` (Neo4j's), ``gql_status``, ``title``, ``description``,
    ``status_description``, ``severity``, ``classification`` and, where it points
    at the text, ``position`` (``offset``, ``line``, ``column``); empty if none.
    """

    __slots__ = ("columns", "records", "timing", "chunks", "commit", "plan", "notifications")

    def __init__(
        self,
        columns: Sequence[str],
        rows: Iterable[Iterable[Any]],
        timing: dict[str, int] | None = None,
        chunks: int = 1,
        commit: dict[str, int] | None = None,
        plan: dict[str, Any] | None = None,
        notifications: list[dict[str, Any]] | None = None,
    ) -> None:
        self.columns: list[str] = list(columns)
        cls = _record_class(tuple(self.columns))
        new = tuple.__new__
        self.records: list[Record] = [new(cls, row) for row in rows]
        self.timing = timing
        self.chunks = chunks
        self.commit = commit
        self.plan = plan
        self.notifications: list[dict[str, Any]] = list(notifications or ())

    @overload
    def __getitem__(self, i: int) -> Record: ...
    @overload
    def __getitem__(self, i: slice) -> list[Record]: ...
    def __getitem__(self, i):
        return self.records[i]

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Result):
            return self.columns == other.columns and self.records == other.records
        if isinstance(other, (list, tuple)):
            return len(self.records) == len(other) and all(
                r == (tuple(o) if isinstance(o, list) else o) for r, o in zip(self.records, other)
            )
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def single(self) -> Record | None:
        """The only record, ``None`` for an empty result; ``ValueError`` for more."""
        if len(self.records) > 1:
            raise ValueError(f"expected at most one record, got {len(self.records)}")
        return self.records[0] if self.records else None

    def rows(self) -> list[list[Any]]:
        """The values as plain lists, as the server sent them."""
        return [list(r) for r in self.records]

    def to_dicts(self) -> list[dict[str, Any]]:
        """One ``dict`` per record."""
        cols = self.columns
        return [dict(zip(cols, r)) for r in self.records]

    def __repr__(self) -> str:
        return f"<Result columns={self.columns} rows={len(self.records)}>"


WRITE_COLUMNS = ["version", "nodes", "rels"]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class WriteResult:
    """What a committed write created.

    ``version`` is the transaction's commit version; ``nodes`` and ``rels`` are the
    internal ids of the nodes and relationships it created, in operation order (use
    them with ``kith.ops.node(id)``, ``set_rel``, ``graph.node``). ``timing`` holds
    the server's ``queue_us`` (waiting for the writer) and ``exec_us`` (the group's
    commit including its fsync) when the write asked for them.
    """

    version: int
    nodes: list[int]
    rels: list[int]
    timing: dict[str, int] | None = None

    @classmethod
    def from_result(cls, result: Result) -> "WriteResult":
        """The write answer in ``result``; ``ProtocolError`` if it is not
        ``[version, [node ids], [rel ids]]``, so a server bug surfaces here rather
        than as a wrong id later."""
        row = result.records[0] if len(result.records) == 1 else None
        if row is None or result.columns != WRITE_COLUMNS or len(row) != 3:
            raise _bad_write_answer(result)
        version, nodes, rels = row
        if not (
            _is_int(version)
            and isinstance(nodes, list)
            and isinstance(rels, list)
            and all(_is_int(i) for i in nodes)
            and all(_is_int(i) for i in rels)
        ):
            raise _bad_write_answer(result)
        return cls(version, list(nodes), list(rels), result.timing)


def _bad_write_answer(result: Result) -> ProtocolError:
    return ProtocolError(
        "bad_response",
        f"a write answer is not one row [version, nodes, rels]: columns {result.columns}, "
        f"rows {result.rows()[:2]!r}",
    )
