"""What the generator knows of a loaded graph: its labels, which relationship types join
which labels, and each label's and type's property keys with sample values (constants
drawn from real values make predicates select something). Read from the graph itself
through a Bolt session, so any data set works."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Schema:
    # label -> key -> sample values (non-null)
    node_props: dict[str, dict[str, list]] = field(default_factory=dict)
    # (source label, type, target label)
    rels: list[tuple[str, str, str]] = field(default_factory=list)
    # type -> key -> sample values
    rel_props: dict[str, dict[str, list]] = field(default_factory=dict)
    # label -> how many nodes carry it
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def labels(self) -> list[str]:
        return sorted(self.node_props)

    def rels_from(self, label: str | None) -> list[tuple[str, str, str, str]]:
        """(type, direction, other label, this label) of relationships at `label`
        (any label when None); direction is '>' when `label` is the source."""
        out = []
        for src, t, dst in self.rels:
            if label is None or src == label:
                out.append((t, ">", dst, src))
            if label is None or dst == label:
                out.append((t, "<", src, dst))
        return out


def _specific(labels: list[str]) -> list[str]:
    return labels


def read(session, sample: int = 200) -> Schema:
    """The schema of the graph `session` reads."""
    s = Schema()
    for r in session.run("MATCH (n) UNWIND labels(n) AS l RETURN l, count(*) AS c"):
        s.counts[r["l"]] = r["c"]
        s.node_props[r["l"]] = {}
    seen = set()
    query = ("MATCH (a)-[r]->(b) WITH labels(a) AS la, type(r) AS t, labels(b) AS lb "
             "RETURN DISTINCT la, t, lb")
    for r in session.run(query):
        for la in r["la"]:
            for lb in r["lb"]:
                key = (la, r["t"], lb)
                if key not in seen:
                    seen.add(key)
                    s.rels.append(key)
    s.rels.sort()
    for label in s.node_props:
        q = (f"MATCH (n:`{label}`) WITH n LIMIT {sample} UNWIND keys(n) AS k "
             "WITH k, collect(n[k]) AS vs RETURN k, vs[0..12] AS vs")
        for r in session.run(q):
            s.node_props[label][r["k"]] = [v for v in r["vs"] if v is not None]
    for t in sorted({t for _, t, _ in s.rels}):
        q = (f"MATCH ()-[n:`{t}`]->() WITH n LIMIT {sample} UNWIND keys(n) AS k "
             "WITH k, collect(n[k]) AS vs RETURN k, vs[0..12] AS vs")
        s.rel_props[t] = {}
        for r in session.run(q):
            s.rel_props[t][r["k"]] = [v for v in r["vs"] if v is not None]
    return s
