"""Neo4j's side of `kith bench ldbc`: the same calls (RUN_DIR/queries.json, written by
`kith bench ldbc --out RUN_DIR`), single caller over Bolt, after a warm-up; per query
median and p99 of the client's wall time (sending, running, fetching every row).

usage: bench.py --port 7698 --queries RUN_DIR/queries.json --out RUN_DIR/neo4j-ldbc.json
"""
import argparse
import json
import os
import sys
import time

import neo4j

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import queries as Q  # noqa: E402


def percentile(sorted_ns, q):
    return sorted_ns[round((len(sorted_ns) - 1) * q)] / 1000.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=7698)
    ap.add_argument("--queries", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--calls", type=int, default=20, help="measured calls per query")
    ap.add_argument("--warmup", type=int, default=3, help="unmeasured calls per query first")
    a = ap.parse_args()
    with open(a.queries, encoding="utf-8") as f:
        suite = json.load(f)
    out = []
    try:
        driver = neo4j.GraphDatabase.driver(f"bolt://{a.host}:{a.port}", auth=None)
        driver.verify_connectivity()
    except (neo4j.exceptions.ServiceUnavailable, OSError) as e:
        sys.exit(f"bench: cannot reach Neo4j at bolt://{a.host}:{a.port}: {e}")
    with driver, driver.session(database="neo4j") as s:
        version = s.run("CALL dbms.components() YIELD versions RETURN versions[0] AS v").single()["v"]
        for q in suite:
            name, sets = q["procedure"], q["params"]
            samples, rows = [], 0
            for i in range(a.warmup + a.calls):
                p = sets[i % len(sets)]
                text, params = Q.cypher(name, p), Q.params_for(name, p)
                t0 = time.perf_counter_ns()
                values = s.run(text, params).values()
                ns = time.perf_counter_ns() - t0
                if i >= a.warmup:
                    samples.append(ns)
                    rows += len(values)
            samples.sort()
            m = {"procedure": name, "calls": len(samples), "p50_us": percentile(samples, 0.5),
                 "p99_us": percentile(samples, 0.99), "rows_mean": rows / len(samples)}
            out.append(m)
            print(f"bench: {name:<10} p50 {m['p50_us']:>10.0f} µs  p99 {m['p99_us']:>10.0f} µs", file=sys.stderr)
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump({"server": f"Neo4j {version}", "driver": f"neo4j-python {neo4j.__version__}",
                   "calls": a.calls, "warmup": a.warmup, "latency": out}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
