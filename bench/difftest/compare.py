"""Answers made comparable across two systems: values through Neo4j's Python driver
normalised (nodes and relationships by labels, type and properties, since internal ids
differ; floats to 12 significant digits, as two correct sums in another order may
differ in the last bits), rows compared as bags unless the query orders them, bag
columns sorted, errors by class (both fail, or neither)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import neo4j.graph
import neo4j.spatial
import neo4j.time


def norm(v):
    """A hashable, order-independent-where-it-should-be form of a driver value."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return ("float", "NaN")
        if math.isinf(v):
            return ("float", "inf" if v > 0 else "-inf")
        if v == 0:
            return ("float", "0")
        return ("float", f"{v:.12g}")
    if isinstance(v, neo4j.graph.Node):
        return ("node", tuple(sorted(v.labels)), _props(v))
    if isinstance(v, neo4j.graph.Relationship):
        return ("rel", v.type, _props(v))
    if isinstance(v, neo4j.graph.Path):
        return ("path", tuple(norm(n) for n in v.nodes),
                tuple(norm(r) for r in v.relationships))
    if isinstance(v, (list, tuple)):
        return ("list", tuple(norm(x) for x in v))
    if isinstance(v, dict):
        return ("map", tuple(sorted((k, norm(x)) for k, x in v.items())))
    if isinstance(v, (bytes, bytearray)):
        return ("bytes", bytes(v).hex())
    if isinstance(v, (neo4j.time.Date, neo4j.time.DateTime, neo4j.time.Time,
                      neo4j.time.Duration, neo4j.spatial.Point)):
        return (type(v).__name__, str(v))
    return ("other", type(v).__name__, str(v))


def _props(entity) -> tuple:
    return tuple(sorted((k, norm(x)) for k, x in dict(entity).items()))


def _bag(v):
    """A bag column's list with its order forgotten."""
    if isinstance(v, tuple) and v and v[0] == "list":
        return ("bag", tuple(sorted(v[1], key=repr)))
    return v


@dataclass
class Answer:
    """One system's answer: its rows (normalised), or its error."""
    columns: list[str] | None = None
    rows: list | None = None
    counters: dict | None = None
    error: str | None = None  # the Neo4j status code
    message: str = ""
    timed_out: bool = False

    @property
    def failed(self) -> bool:
        return self.error is not None


def _bag_at(v, keys: list[str]):
    """The bag at a path of map keys inside `v` (`card.tags`: the list under key `tags`
    of the map in column `card`), its order forgotten; anything else left as it is."""
    if not keys:
        return _bag(v)
    if isinstance(v, tuple) and v and v[0] == "map":
        return ("map", tuple((k, _bag_at(x, keys[1:]) if k == keys[0] else x) for k, x in v[1]))
    return v


def answer_of(columns, records, bags: set, counters: dict | None = None) -> Answer:
    """Rows normalised; a name in `bags` is a column (or `column.key...` inside a map
    column) whose list is compared as a bag: a collect, or a pattern comprehension,
    whose order Cypher leaves to the storage."""
    paths = [b.split(".") for b in bags]
    index = [(columns.index(p[0]), p[1:]) for p in paths if p[0] in columns]
    rows = []
    for r in records:
        row = [norm(x) for x in r]
        for i, keys in index:
            row[i] = _bag_at(row[i], keys)
        rows.append(tuple(row))
    return Answer(list(columns), rows, counters)


COUNTERS = ("nodes_created", "nodes_deleted", "relationships_created",
            "relationships_deleted", "properties_set", "labels_added", "labels_removed")


def counters_of(summary) -> dict:
    c = summary.counters
    return {k: getattr(c, k) for k in COUNTERS}


def differ(a: Answer, b: Answer, ordered: bool) -> str | None:
    """How two answers differ (`None`: they agree)."""
    if a.failed or b.failed:
        if a.failed and b.failed:
            return None
        return "only_" + ("first" if a.failed else "second") + "_failed"
    if a.columns != b.columns:
        return "columns"
    rows_a, rows_b = a.rows, b.rows
    if not ordered:
        rows_a, rows_b = sorted(rows_a, key=repr), sorted(rows_b, key=repr)
    if rows_a != rows_b:
        return "rows"
    if a.counters is not None and b.counters is not None and a.counters != b.counters:
        return "counters"
    return None
