"""The second data set: a small random graph made to find the corners the LDBC data has
none of. Nodes with zero to three labels; properties of mixed types under one key
(integers, floats, strings, booleans, lists, and absent, that is null); relationships
of three types with self-loops and parallel relationships; every node an integer `id`
(kith's external-id key is an integer on every label: docs/cypher.md). One CREATE
statement, run unchanged on both systems."""
from __future__ import annotations

import random

from gen import literal

LABELS = ["A", "B", "C"]
TYPES = ["R", "S", "T"]

# Indexes declared alike on both systems (before the data, so both fill them as they
# write): the generator's filters on these pairs then go through kith's index seeks
# (ranges, prefixes, CONTAINS, IN over mixed types, equalities on both keys of a
# composite) as well as its scans.
INDEXES = [
    "CREATE INDEX a_x FOR (n:A) ON (n.x)",
    "CREATE INDEX c_y FOR (n:C) ON (n.y)",
    "CREATE TEXT INDEX b_name FOR (n:B) ON (n.name)",
    "CREATE TEXT INDEX a_name FOR (n:A) ON (n.name)",
    "CREATE INDEX b_x_y FOR (n:B) ON (n.x, n.y)",
]


def _value(r: random.Random):
    return r.choice([
        None, None, r.randint(-5, 5), r.randint(0, 100), round(r.uniform(-3, 3), 2),
        r.choice(["", "a", "abc", "B", "a_b", "zz"]), r.choice([True, False]),
        [r.randint(0, 3) for _ in range(r.randint(0, 3))], ["a", "b"][: r.randint(0, 2)],
    ])


def script(seed: int, nodes: int = 40, rels: int = 90) -> str:
    r = random.Random(seed)
    parts = []
    for i in range(nodes):
        labels = "".join(f":{l}" for l in r.sample(LABELS, r.choice([0, 1, 1, 1, 2, 3])))
        props = {"id": i}
        for key in ("x", "y", "name"):
            v = _value(r) if key != "name" else r.choice([None, "ann", "bob", "cid", "", "Dee"])
            if v is not None:
                props[key] = v
        parts.append(f"(n{i}{labels} {literal(props)})")
    for _ in range(rels):
        a = r.randrange(nodes)
        b = a if r.random() < 0.1 else r.randrange(nodes)
        props = {}
        w = _value(r)
        if w is not None and not isinstance(w, list):
            props["w"] = w
        body = f":{r.choice(TYPES)}" + (f" {literal(props)}" if props else "")
        parts.append(f"(n{a})-[{body}]->(n{b})")
    return "CREATE " + ",\n  ".join(parts)
