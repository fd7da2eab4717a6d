"""S4 Tables 2 and 3: the four micro-queries on every system, one run, same parameters.

Each system runs each query --runs times (default 100) from one client thread over one
connection, after --warmup untimed calls, with the same parameter list: persons spread
evenly over the data set's person file (those with at least one friend), and for the
shortest path the data set's IC13 parameter pairs, cycled. Every answer is checked equal
to kith native's for the same parameters; a difference stops the run.

Systems (each optional; named on the command line):
  kith        kith native procedures over WebSocket (kith's Python client)
  kith-cypher the Cypher texts on kith over WebSocket (kith's Python client)
  kith-bolt   the Cypher texts on kith over Bolt (Neo4j's Python driver)
  neo4j       the Cypher texts on Neo4j over Bolt (Neo4j's Python driver)
  postgres    the SQL texts on PostgreSQL (psycopg, prepared statements; IC13's text as sent)

Writes --out (JSON): per system and query the latencies' median, p99, mean, count of
timeouts, and the parameters' count.

usage: micro.py --data SRC_DIR --params PARAMS_DIR --out FILE [--runs 100] [--warmup 10]
                [--kith ws://H:P/v1/ws] [--kith-bolt bolt://H:P] [--neo4j bolt://H:P]
                [--postgres PORT] [--pg-timeout-s 10]
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../postgres"))
import ldbc  # noqa: E402
import queries as Q  # noqa: E402


def canonical(rows):
    return [[ldbc.plain(v) for v in r] for r in rows]


class Kith:
    name = "kith"

    def __init__(self, url):
        import kith
        self.client = kith.connect(url)

    def run(self, query, params):
        return self.client.call_with(f"s4.{query}", params, timeout=600).rows()


class KithCypher(Kith):
    name = "kith-cypher"

    def run(self, query, params):
        return self.client.cypher(Q.CYPHER[query], params).rows()


class Bolt:
    def __init__(self, name, url):
        import neo4j
        self.name = name
        self.driver = neo4j.GraphDatabase.driver(url, auth=None)
        self.session = self.driver.session(database="neo4j")

    def run(self, query, params):
        return [list(r.values()) for r in self.session.run(Q.CYPHER[query], params)]


class Postgres:
    name = "postgres"

    def __init__(self, port, timeout_s):
        import psycopg
        self.errors = psycopg.errors
        self.conn = psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname="ldbc", autocommit=True)
        self.conn.execute(f"SET statement_timeout = {int(timeout_s * 1000)}")
        self.ic13 = Q.ic13_text()

    def run(self, query, params):
        try:
            if query == "shortest_path":
                return self.conn.execute(ldbc.bind(self.ic13, params), prepare=False).fetchall()
            return self.conn.execute(Q.SQL[query], params, prepare=True).fetchall()
        except self.errors.QueryCanceled:
            return None


def parameters(data, params_dir, n):
    """n persons with friends, spread evenly over the id order; n IC13 pairs, cycled."""
    friends = set()
    with open(os.path.join(data, "dynamic", "person_knows_person_0_0.csv")) as f:
        next(f)
        for line in f:
            a, b, _ = line.split("|", 2)
            friends.update((int(a), int(b)))
    persons = sorted(friends)
    step = max(len(persons) // n, 1)
    people = [{"personId": persons[(i * step) % len(persons)]} for i in range(n)]
    with open(os.path.join(params_dir, "interactive_13_param.txt")) as f:
        next(f)
        pairs = [dict(zip(("person1Id", "person2Id"), map(int, line.strip().split("|")))) for line in f if line.strip()]
    return {"point_lookup": people, "one_hop": people, "two_hop": people,
            "shortest_path": [pairs[i % len(pairs)] for i in range(n)]}


def measure(system, query, cases, warmup, expected):
    """(latency summary, answers): each answer is checked against `expected` when given."""
    for p in cases[:warmup]:
        system.run(query, p)
    times, timeouts, answers = [], 0, []
    for i, p in enumerate(cases):
        t0 = time.perf_counter()
        rows = system.run(query, p)
        ms = (time.perf_counter() - t0) * 1000
        if rows is None:
            timeouts += 1
            answers.append(None)
            continue
        times.append(ms)
        answers.append(canonical(rows))
        if expected is not None and answers[-1] != expected[i]:
            sys.exit(f"micro: {system.name} {query} {p} answered {answers[-1][:5]}..., kith {expected[i][:5]}...")
    times.sort()
    summary = {"median_ms": statistics.median(times) if times else None,
               "p99_ms": times[min(len(times) - 1, int(len(times) * 0.99))] if times else None,
               "mean_ms": statistics.fmean(times) if times else None,
               "calls": len(cases), "timeouts": timeouts,
               "rows_mean": statistics.fmean(len(a) for a in answers if a is not None) if times else None}
    return summary, answers


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--params", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--kith", required=True, help="kith's WebSocket URL (kith native is the reference answer)")
    ap.add_argument("--kith-bolt")
    ap.add_argument("--neo4j")
    ap.add_argument("--postgres", type=int)
    ap.add_argument("--pg-timeout-s", type=float, default=10)
    a = ap.parse_args()
    cases = parameters(a.data, a.params, a.runs)
    systems = [Kith(a.kith), KithCypher(a.kith)]
    if a.kith_bolt:
        systems.append(Bolt("kith-bolt", a.kith_bolt))
    if a.neo4j:
        systems.append(Bolt("neo4j", a.neo4j))
    if a.postgres:
        systems.append(Postgres(a.postgres, a.pg_timeout_s))
    report = {"runs": a.runs, "warmup": a.warmup, "data": a.data, "systems": {}}
    reference = {}
    for s in systems:
        report["systems"][s.name] = {}
        for q in Q.QUERIES:
            r, answers = measure(s, q, cases[q], a.warmup, reference.get(q))
            reference.setdefault(q, answers)  # kith native runs first: its answers are the reference
            report["systems"][s.name][q] = r
            med = f"{r['median_ms']:.3f}" if r["median_ms"] is not None else "-"
            p99 = f"{r['p99_ms']:.3f}" if r["p99_ms"] is not None else "-"
            print(f"micro: {s.name:<12} {q:<14} median {med:>9} ms  p99 {p99:>9} ms"
                  + (f"  {r['timeouts']} over {a.pg_timeout_s:g} s" if r["timeouts"] else ""), file=sys.stderr)
    with open(a.out, "w") as f:
        json.dump(report, f, indent=1)
    print(f"micro: every system answered every call as kith native did; {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
