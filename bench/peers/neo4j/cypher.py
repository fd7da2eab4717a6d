"""Run one Cypher query against a Neo4j server over Bolt and print each row as a JSON line.

Used by `neo4j.sh cypher PORT QUERY [PARAMS_JSON]`; run it with the venv's Python:

    .venv/bin/python cypher.py --port 7687 'MATCH (n) RETURN count(n) AS c'
    -> {"c": 0}

Values: nodes become {"_id": element id, "_labels": [...], ...properties}, relationships
{"_id", "_type", "_start", "_end", ...properties}, paths {"nodes": [...], "relationships":
[...]}; temporal and spatial values their string form. Exit status 1 with the server's
error message on stderr when the query fails, 2 when the server cannot be reached.
"""

import argparse
import json
import sys

import neo4j
from neo4j.exceptions import Neo4jError, ServiceUnavailable
from neo4j.graph import Node, Path, Relationship


def to_json(v):
    if isinstance(v, Node):
        return {"_id": v.element_id, "_labels": sorted(v.labels), **{k: to_json(x) for k, x in v.items()}}
    if isinstance(v, Relationship):
        return {
            "_id": v.element_id,
            "_type": v.type,
            "_start": v.start_node.element_id if v.start_node is not None else None,
            "_end": v.end_node.element_id if v.end_node is not None else None,
            **{k: to_json(x) for k, x in v.items()},
        }
    if isinstance(v, Path):
        return {"nodes": [to_json(n) for n in v.nodes], "relationships": [to_json(r) for r in v.relationships]}
    if isinstance(v, (list, tuple)):
        return [to_json(x) for x in v]
    if isinstance(v, dict):
        return {k: to_json(x) for k, x in v.items()}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (bytes, bytearray)):
        return v.hex()
    return str(v)  # temporal, spatial


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--database", default="neo4j")
    ap.add_argument("--summary", action="store_true", help="print counters and timing to stderr")
    ap.add_argument("query", help="Cypher text, or - to read it from standard input")
    ap.add_argument("params", nargs="?", default="{}", help="query parameters as a JSON object")
    a = ap.parse_args()

    query = sys.stdin.read() if a.query == "-" else a.query
    try:
        params = json.loads(a.params)
    except json.JSONDecodeError as e:
        sys.exit(f"cypher: parameters are not valid JSON ({e}): {a.params}")
    if not isinstance(params, dict):
        sys.exit(f"cypher: parameters must be a JSON object, got: {a.params}")

    uri = f"bolt://{a.host}:{a.port}"
    try:
        with neo4j.GraphDatabase.driver(uri, auth=None) as driver:
            with driver.session(database=a.database) as session:
                result = session.run(query, params)
                for record in result:
                    print(json.dumps({k: to_json(v) for k, v in record.items()}, ensure_ascii=False))
                summary = result.consume()
                if a.summary:
                    c = summary.counters
                    print(
                        f"cypher: available after {summary.result_available_after} ms, consumed after "
                        f"{summary.result_consumed_after} ms, counters {c}",
                        file=sys.stderr,
                    )
    except ServiceUnavailable as e:
        print(f"cypher: cannot reach Neo4j at {uri}: {e}", file=sys.stderr)
        sys.exit(2)
    except Neo4jError as e:
        print(f"cypher: query failed: {e.code}: {e.message}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
