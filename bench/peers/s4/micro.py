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
  falkordb    FalkorDB's Cypher over its Redis protocol (PyPI `falkordb`)
  ladybug     Ladybug's Cypher, embedded in this process (no network: not like for like)

Writes --out (JSON): per system and query the client-observed latencies' median, p99 and
mean, the count of timeouts, and the server's own mean time per call where the server
reports it: kith's `exec_us + encode_us` (the `timing` answer), PostgreSQL's
`pg_stat_statements` execution time (planning excluded), Neo4j's
`result_available_after + result_consumed_after` (whole milliseconds), FalkorDB's
`run_time_ms`.

usage: micro.py --data SRC_DIR --params PARAMS_DIR --out FILE [--runs 100] [--warmup 10]
                [--kith ws://H:P/v1/ws] [--kith-bolt bolt://H:P] [--neo4j bolt://H:P]
                [--postgres PORT] [--pg-timeout-s 10] [--falkordb PORT] [--ladybug DB]
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
import session  # noqa: E402
import queries as Q  # noqa: E402


def canonical(rows):
    return [[ldbc.plain(v) for v in r] for r in rows]


class Kith:
    name = "kith"

    def __init__(self, url):
        import kith
        self.client = kith.connect(url)

    server_ms = None

    def run(self, query, params):
        r = self.client.call_with(f"s4.{query}", params, timing=True, timeout=600)
        self.server_ms = (r.timing["exec_us"] + r.timing["encode_us"]) / 1000
        return r.rows()


class KithCypher(Kith):
    name = "kith-cypher"

    def run(self, query, params):
        r = self.client.cypher(Q.CYPHER[query], params, timing=True)
        self.server_ms = (r.timing["exec_us"] + r.timing["encode_us"]) / 1000
        return r.rows()


class Bolt:
    def __init__(self, name, url, server_time):
        """server_time: keep the summary's times (whole ms: only Neo4j's are worth it;
        kith's own are read over WebSocket in microseconds)."""
        import neo4j
        self.name = name
        self.server_time = server_time
        self.server_ms = None
        self.driver = neo4j.GraphDatabase.driver(url, auth=None)
        self.session = self.driver.session(database="neo4j")

    def run(self, query, params):
        result = self.session.run(Q.CYPHER[query], params)
        rows = [list(r.values()) for r in result]
        summary = result.consume()
        if self.server_time:
            self.server_ms = (summary.result_available_after or 0) + (summary.result_consumed_after or 0)
        return rows


class Ladybug:
    """Embedded: the queries run inside this process, so its times have no network in them."""
    name = "ladybug"
    server_ms = None

    def __init__(self, path):
        import ladybug
        self.conn = ladybug.Connection(ladybug.Database(path, read_only=True))

    def run(self, query, params):
        # Its "server" time is the in-process call: engine plus Python binding.
        t0 = time.perf_counter()
        rows = self.conn.execute(Q.LADYBUG[query], params).get_all()
        self.server_ms = (time.perf_counter() - t0) * 1000
        return rows


class FalkorDB:
    """FalkorDB over its Redis protocol (PyPI `falkordb`, one connection); the server's time
    is its reported `run_time_ms` (the query's execution inside the module)."""
    name = "falkordb"
    server_ms = None

    def __init__(self, port):
        from falkordb import FalkorDB as Client
        self.graph = Client(host="127.0.0.1", port=port).select_graph("ldbc")

    def run(self, query, params):
        result = self.graph.query(Q.FALKORDB[query], params)
        self.server_ms = result.run_time_ms
        return result.result_set


class Postgres(session.Session):
    name = "postgres"

    def __init__(self, port, timeout_s):
        super().__init__(port, timeout_s)
        self.ic13 = Q.ic13_text()
        self.server_ms = None

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
    if hasattr(system, "reset"):
        system.reset()
    times, timeouts, answers, server = [], 0, [], []
    for i, p in enumerate(cases):
        t0 = time.perf_counter()
        rows = system.run(query, p)
        ms = (time.perf_counter() - t0) * 1000
        if rows is None:
            # Counted at the timeout, a lower bound: a percentile must not forget it.
            timeouts += 1
            times.append(system.timeout_ms)
            answers.append(None)
            continue
        times.append(ms)
        if getattr(system, "server_ms", None) is not None:
            server.append(system.server_ms)
        answers.append(canonical(rows))
        if expected is not None and answers[-1] != expected[i]:
            sys.exit(f"micro: {system.name} {query} {p} answered {answers[-1][:5]}..., kith {expected[i][:5]}...")
    times.sort()
    summary = {"median_ms": statistics.median(times) if times else None,
               "p99_ms": times[min(len(times) - 1, int(len(times) * 0.99))] if times else None,
               "mean_ms": statistics.fmean(times) if times else None,
               "server_mean_ms": (system.server_mean_ms() if hasattr(system, "server_mean_ms")
                                  else statistics.fmean(server) if server else None),
               "calls": len(cases), "timeouts": timeouts,
               "rows_mean": (statistics.fmean(len(a) for a in answers if a is not None)
                             if len(times) > timeouts else None)}
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
    ap.add_argument("--falkordb", type=int, help="the port of a FalkorDB loaded by bench/peers/falkordb/load.py")
    ap.add_argument("--ladybug", help="a Ladybug database made by bench/peers/ladybug/load.py")
    a = ap.parse_args()
    cases = parameters(a.data, a.params, a.runs)
    systems = [Kith(a.kith), KithCypher(a.kith)]
    if a.kith_bolt:
        systems.append(Bolt("kith-bolt", a.kith_bolt, server_time=False))
    if a.neo4j:
        systems.append(Bolt("neo4j", a.neo4j, server_time=True))
    if a.postgres:
        systems.append(Postgres(a.postgres, a.pg_timeout_s))
    if a.falkordb:
        systems.append(FalkorDB(a.falkordb))
    if a.ladybug:
        systems.append(Ladybug(a.ladybug))
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
            srv = f"{r['server_mean_ms']:.3f}" if r["server_mean_ms"] is not None else "-"
            print(f"micro: {s.name:<12} {q:<14} median {med:>9} ms  p99 {p99:>9} ms  server mean {srv:>8} ms"
                  + (f"  {r['timeouts']} over {a.pg_timeout_s:g} s" if r["timeouts"] else ""), file=sys.stderr)
    with open(a.out, "w") as f:
        json.dump(report, f, indent=1)
    print(f"micro: every system answered every call as kith native did; {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
