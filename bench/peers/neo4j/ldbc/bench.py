"""Neo4j's side of `kith bench ldbc`: the same calls (RUN_DIR/queries.json, written by
`kith bench ldbc --out RUN_DIR`), single caller over Bolt, after a warm-up; per query
median and p99 of the client's wall time (sending, running, fetching every row).

Two suites, each written to its own list in the output:
  - "latency": the reads in Cypher written from the specification (queries.py), with
    kith's procedure parameters;
  - "official" (with --texts DIR): the official LDBC texts (interactive-*.cypher) read as
    bytes and sent unmodified, with the reference driver's parameters: the same values,
    except that IC3/IC4 get endDate = startDate + durationDays * 86400000.

usage: bench.py --port 7698 --queries RUN_DIR/queries.json --out RUN_DIR/neo4j-ldbc.json
                [--texts ../shared/data/ldbc-cypher] [--no-spec]
"""
import argparse
import json
import os
import sys
import time

import neo4j

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import queries as Q  # noqa: E402

DAY_MS = 86_400_000


def percentile(sorted_ns, q):
    return sorted_ns[round((len(sorted_ns) - 1) * q)] / 1000.0


def official_file(procedure):
    kind, n = procedure.split(".")[1][:2], int(procedure.split(".")[1][2:])
    return f"interactive-{'short' if kind == 'is' else 'complex'}-{n}.cypher"


def driver_params(procedure, params):
    """The reference driver's parameters: IC3/IC4 get endDate instead of durationDays."""
    out = dict(params)
    if procedure in ("ldbc.ic3", "ldbc.ic4"):
        out["endDate"] = out["startDate"] + out.pop("durationDays") * DAY_MS
    return out


def measure(session, name, sets, text_of, params_of, a):
    """`warmup + calls` calls of one query, parameter sets in rotation (as kith does)."""
    samples, rows = [], 0
    for i in range(a.warmup + a.calls):
        p = sets[i % len(sets)]
        text, params = text_of(p), params_of(p)
        t0 = time.perf_counter_ns()
        values = session.run(text, params).values()
        ns = time.perf_counter_ns() - t0
        if i >= a.warmup:
            samples.append(ns)
            rows += len(values)
    samples.sort()
    return {"procedure": name, "calls": len(samples), "p50_us": percentile(samples, 0.5),
            "p99_us": percentile(samples, 0.99), "rows_mean": rows / len(samples)}


def spec_suite(session, suite, a):
    out = []
    for q in suite:
        name = q["procedure"]
        m = measure(session, name, q["params"], lambda p, n=name: Q.cypher(n, p),
                    lambda p, n=name: Q.params_for(n, p), a)
        out.append(m)
        print(f"bench: {name:<10} p50 {m['p50_us']:>10.0f} µs  p99 {m['p99_us']:>10.0f} µs", file=sys.stderr)
    return out


def official_suite(session, suite, a):
    out = []
    for q in suite:
        name = q["procedure"]
        # Read as bytes and decoded, never edited: the text the reference sends.
        with open(os.path.join(a.texts, official_file(name)), "rb") as f:
            text = f.read().decode("utf-8")
        m = measure(session, name, q["params"], lambda p, t=text: t,
                    lambda p, n=name: driver_params(n, p), a)
        m["text"] = official_file(name)
        out.append(m)
        print(f"bench: official {name:<10} p50 {m['p50_us']:>10.0f} µs  p99 {m['p99_us']:>10.0f} µs",
              file=sys.stderr)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=7698)
    ap.add_argument("--queries", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--calls", type=int, default=20, help="measured calls per query")
    ap.add_argument("--warmup", type=int, default=3, help="unmeasured calls per query first")
    ap.add_argument("--texts", help="the official texts' folder: measure them too (list \"official\")")
    ap.add_argument("--no-spec", action="store_true", help="skip the spec's Cypher (list \"latency\")")
    a = ap.parse_args()
    with open(a.queries, encoding="utf-8") as f:
        suite = json.load(f)
    try:
        driver = neo4j.GraphDatabase.driver(f"bolt://{a.host}:{a.port}", auth=None)
        driver.verify_connectivity()
    except (neo4j.exceptions.ServiceUnavailable, OSError) as e:
        sys.exit(f"bench: cannot reach Neo4j at bolt://{a.host}:{a.port}: {e}")
    result = {"driver": f"neo4j-python {neo4j.__version__}", "calls": a.calls, "warmup": a.warmup}
    with driver, driver.session(database="neo4j") as s:
        version = s.run("CALL dbms.components() YIELD versions RETURN versions[0] AS v").single()["v"]
        result["server"] = f"Neo4j {version}"
        if not a.no_spec:
            result["latency"] = spec_suite(s, suite, a)
        if a.texts:
            result["official"] = official_suite(s, suite, a)
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
