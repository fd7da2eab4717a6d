"""Id and element-id equalities as seeks, beside the same filters as scans.

`WHERE id(n) = $x` / `elementId(n) = $x` find the node, `id(r)` / `elementId(r)` the
relationship's ends.

    KITH_BIN=target/release/kith target/py-venv/bin/python bench/seek/id_seek.py [--scale 1] [--runs 300]

Generates the Shindig graph at `--scale` into a scratch directory, serves it with
`kith serve`, and times each query through Neo4j's Python driver over Bolt (one
session, 20 warm-up runs, then `--runs`), printing the medians in milliseconds. The
`+ ''` and `+ 0` forms compute the same filter where the planner cannot seek: the plan
the seek replaced.
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import neo4j

ROOT = Path(__file__).resolve().parents[2]
QUERIES = [
    ("RETURN 1", {}),
    ("MATCH (n) WHERE elementId(n) = $e RETURN n.displayName", {"e": "500"}),
    ("MATCH (n) WHERE elementId(n) + '' = $e RETURN n.displayName", {"e": "500"}),
    ("MATCH (n) WHERE id(n) = $i RETURN n.displayName", {"i": 500}),
    ("MATCH (n) WHERE id(n) + 0 = $i RETURN n.displayName", {"i": 500}),
    ("MATCH (a)-[r]->(b) WHERE elementId(r) = $e RETURN type(r), b.displayName", {"e": "r500"}),
    ("MATCH (a)-[r]->(b) WHERE elementId(r) + '' = $e RETURN type(r), b.displayName",
     {"e": "r500"}),
    ("MATCH (a)-[r]-(b) WHERE id(r) = $i RETURN type(r), b.displayName", {"i": 500}),
    ("MATCH (a)-[r]-(b) WHERE id(r) + 0 = $i RETURN type(r), b.displayName", {"i": 500}),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def median_ms(session, query: str, params: dict, runs: int) -> float:
    for _ in range(20):
        session.run(query, **params).consume()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        session.run(query, **params).consume()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", default="1")
    p.add_argument("--runs", type=int, default=300)
    args = p.parse_args()
    kith = os.environ.get("KITH_BIN", str(ROOT / "target" / "release" / "kith"))
    with tempfile.TemporaryDirectory() as work:
        data = Path(work) / "data"
        subprocess.run([kith, "generate", "shindig", "--scale", args.scale, "--out", str(data)],
                       check=True, capture_output=True)
        http, bolt = free_port(), free_port()
        server = subprocess.Popen([kith, "serve", "--data", str(data), "--listen", f"127.0.0.1:{http}",
                                   "--bolt-listen", f"127.0.0.1:{bolt}"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            driver = neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{bolt}", auth=("neo4j", "x"))
            for _ in range(100):
                try:
                    driver.verify_connectivity()
                    break
                except neo4j.exceptions.ServiceUnavailable:
                    time.sleep(0.1)
            with driver.session() as session:
                for query, params in QUERIES:
                    print(f"{median_ms(session, query, params, args.runs):8.3f} ms  {query}")
            driver.close()
        finally:
            server.terminate()
            server.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
