"""Differences between kith and Neo4j that are deliberate, each with its reason (the
same list is in docs/cypher.md, "Deliberate differences from Neo4j"). A difference
that matches none is unexplained: a bug until it is fixed or listed here."""
from __future__ import annotations

import compare
import gen

#: (short name, the reason) of each deliberate difference.
REASONS = {
    "pattern-as-value": "kith reads a pattern expression outside a boolean context "
                        "(`RETURN (a)-->() AS x`, `count((a)-->())`) as the boolean it is "
                        "elsewhere; Neo4j 5 refuses it with a SyntaxError. A superset: no "
                        "query Neo4j answers is answered differently.",
    "reverse-of-stored-list": "Neo4j 5.26 refuses reverse() of a list stored as a property "
                              "(`reverse(p.email)`: \"Expected a string or a list\"), which "
                              "it is; kith reverses it, as Neo4j reverses the same list made "
                              "in the query.",
    "null-in-map-merge": "`SET n += {k: null}` on a node without `k`: Neo4j counts a "
                         "property set when the key `k` was ever used in the database (even "
                         "by a transaction rolled back), not otherwise; kith never counts a "
                         "property that was not there (as Neo4j does for `SET n.k = null`).",
    "evaluation-extent": "A runtime error (type, arithmetic) that one system raises on a "
                         "row the other's plan never evaluates: with ORDER BY ... LIMIT, "
                         "Neo4j evaluates some projections only for rows that can reach "
                         "the limit, or before a filter; kith places a WHERE conjunct as "
                         "soon as its variables are bound, so it may evaluate it on a "
                         "partial match that never becomes whole. Checked: without its "
                         "ORDER BY, SKIP and LIMIT the query gives both the same answer, "
                         "or kith's naive plan (filters on whole matches) agrees with Neo4j, "
                         "or the side that answered found no row at all (every row failed "
                         "some conjunct; Neo4j reorders conjuncts and folds constant ones, "
                         "kith takes them as written).",
    "utf16-empty-replace": "`replace(s, '', r)` puts `r` between the characters of `s`; "
                           "Neo4j does so between UTF-16 code units, so a character outside "
                           "the Basic Multilingual Plane (an emoji) is split into two lone "
                           "surrogates, which its driver decodes as '?'. kith works on "
                           "characters and keeps the emoji whole.",
    "static-types": "Neo4j refuses, before running, an expression whose literal or "
                    "parameter has the wrong type for its function or operator (`abs($list)`, "
                    "`toFloat([1])`), even on a branch no row reaches (`CASE WHEN true THEN 1 "
                    "ELSE abs($list) END`); kith checks types as it evaluates, so it answers "
                    "where nothing ill-typed is evaluated, and fails where it is.",
    "neo4j-distinct-dropped": "Neo4j 5.26 answers a `RETURN DISTINCT` with the same row "
                              "more than once: after a variable-length expand it plans as "
                              "a pruning breadth-first search (`MATCH (a)<-[:R*..2]-(b) "
                              "RETURN DISTINCT b.absent`), it drops the Distinct operator, "
                              "since the search already yields each `b` once, though the "
                              "returned value is not `b` (199 nulls; checked with "
                              "EXPLAIN). kith's DISTINCT answer holds each row once.",
}


def explain(pair: str, q: gen.Query, a: compare.Answer, b: compare.Answer, how: str) -> str | None:
    """The short name of the deliberate difference this is, or None."""
    if pair != "neo4j-kith":
        return None  # kith's two plan modes must always agree
    if how == "counters" and "SET n += {" in q.text and a.counters and b.counters:
        fewer = {k: a.counters[k] - b.counters[k] for k in a.counters}
        if fewer["properties_set"] > 0 and sum(fewer.values()) == fewer["properties_set"]:
            return "null-in-map-merge"
    if how == "rows" and empty_replace_splits_a_pair(q, a):
        return "utf16-empty-replace"
    if how == "rows" and distinct_with_duplicates(q, a, b):
        return "neo4j-distinct-dropped"
    if how != "only_first_failed":
        return None
    if a.error == "Neo.ClientError.Statement.SyntaxError" and (
            a.message.startswith("A pattern expression should only be used")
            or "but was List<Path>" in a.message):
        return "pattern-as-value"
    if a.error == "Neo.ClientError.Statement.SyntaxError" and (
            a.message.startswith("Type mismatch")
            or a.message.startswith("Coercion of list to boolean is not allowed")):
        return "static-types"
    if (a.error == "Neo.ClientError.Statement.TypeError"
            and a.message.startswith("Invalid input for function 'reverse()'")
            and "reverse(" in q.text):
        return "reverse-of-stored-list"
    return None


def empty_replace_splits_a_pair(q: gen.Query, neo4j: compare.Answer) -> bool:
    """The query replaces the empty string in a text with a character beyond the BMP,
    and Neo4j's answer carries the '?' its driver makes of a lone surrogate."""
    text = q.text + repr(q.params)
    return ("'', " in text and "replace(" in text and any(ord(c) > 0xFFFF for c in text)
            and "?" in repr(neo4j.rows))


def distinct_with_duplicates(q: gen.Query, neo4j: compare.Answer, kith: compare.Answer) -> bool:
    """The query ends in RETURN DISTINCT, Neo4j's answer holds a row twice (which no
    DISTINCT answer can) and kith's holds each row once."""
    last = q.text.rsplit("RETURN ", 1)
    if len(last) != 2 or not last[1].startswith("DISTINCT ") or "UNION" in last[1]:
        return False
    def twice(rows):
        seen = [repr(r) for r in rows or []]
        return len(set(seen)) < len(seen)
    return twice(neo4j.rows) and not twice(kith.rows)
