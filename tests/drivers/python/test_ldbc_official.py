"""The official LDBC SNB Interactive read texts, unmodified, sent by Neo4j's Python
driver to kith over Bolt: every answer must equal Neo4j 5.26's own (the fixtures the
Rust suite also checks the engine against), through both `bolt://` sessions and
`neo4j://` routing with `execute_query`."""
from __future__ import annotations

import json

import neo4j
import pytest

from conftest import FIXTURES, SHARED


def cases(dataset: str):
    for path in sorted((FIXTURES / dataset).glob("*.json")):
        fixture = json.loads(path.read_text())
        text = (SHARED / "ldbc-cypher" / fixture["text"]).read_text()
        yield path.stem, fixture, text


def plain(value):
    """A driver value as the fixtures write it (JSON)."""
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def normalise(rows, fixture, name):
    sorted_columns = [fixture["columns"].index(c) for c in fixture["sorted_lists"]]
    out = []
    for row in rows:
        row = list(row)
        for i in sorted_columns:
            if isinstance(row[i], list):
                row[i] = sorted(row[i], key=lambda x: json.dumps(x, ensure_ascii=False))
        out.append(row)
    if name == "ic14":
        # Paths of equal weight come in no defined order (Neo4j's own vary).
        out.sort(key=lambda r: (-r[1], json.dumps(r, ensure_ascii=False)))
    return out


def check(run, dataset: str) -> int:
    failures, count = [], 0
    for name, fixture, text in cases(dataset):
        for case in fixture["cases"]:
            count += 1
            params = case["params"]
            if "error" in case:
                code = case["error"].split(":")[0]
                try:
                    run(text, params)
                    failures.append(f"{name} {params}: Neo4j raised {code}, kith answered")
                except neo4j.exceptions.Neo4jError as e:
                    if e.code != code:
                        failures.append(f"{name} {params}: Neo4j raised {code}, kith {e.code}")
                continue
            keys, rows = run(text, params)
            if keys != fixture["columns"]:
                failures.append(f"{name}: columns {keys}, Neo4j {fixture['columns']}")
                continue
            ours = normalise([[plain(v) for v in r] for r in rows], fixture, name)
            theirs = normalise(case["rows"], fixture, name)
            if ours != theirs:
                failures.append(f"{name} {params}: {len(ours)} rows, Neo4j {len(theirs)}; "
                                f"first rows kith {ours[:1]}, Neo4j {theirs[:1]}")
    assert not failures, f"{len(failures)} of {count} cases differ:\n" + "\n".join(failures[:20])
    return count


@pytest.mark.parametrize("dataset", ["test", "test-probes"])
def test_sessions_over_bolt_answer_as_neo4j(ldbc_server, dataset):
    with neo4j.GraphDatabase.driver(ldbc_server.bolt, auth=("neo4j", "unused")) as driver:
        with driver.session() as session:
            def run(text, params):
                result = session.run(text, params)
                return result.keys(), [r.values() for r in result]
            assert check(run, dataset) > 0


def test_execute_query_with_routing_answers_as_neo4j(ldbc_server):
    with neo4j.GraphDatabase.driver(ldbc_server.neo4j, auth=("neo4j", "unused")) as driver:
        def run(text, params):
            records, _, keys = driver.execute_query(text, params, routing_=neo4j.RoutingControl.READ)
            return keys, [r.values() for r in records]
        assert check(run, "test") > 0
