"""The 21 LDBC reads on every system, one run: kith native, PostgreSQL's official SQL
texts, Neo4j's official Cypher texts, with the same calls.

The calls are the oracle fixtures' parameter cases of the data set (every IC parameter
line on chosen persons, 50 chosen persons or messages per IS). Each system runs every
case once after one untimed pass (--warmup 0 skips it), from one client thread; the figure
per query is the median over its cases, client-observed, beside the server's own mean
(kith: `exec_us + encode_us`; PostgreSQL: `pg_stat_statements`; Neo4j: the result
summary, whole ms). A call over --timeout-s is counted, not timed. Answers are not
compared here: check.py and the oracle fixtures do that.

usage: reads.py --fixtures DIR --out FILE --kith ws://H:P/v1/ws [--postgres PORT]
                [--neo4j bolt://H:P] [--timeout-s 10] [--warmup 1]
"""
import argparse
import glob
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../postgres"))
import ldbc  # noqa: E402
import session  # noqa: E402

CYPHER = os.path.normpath(os.path.join(HERE, "../../../../shared/data/ldbc-cypher"))
DAY_MS = 86_400_000


def cases(fixtures):
    out = {}
    for f in sorted(glob.glob(os.path.join(fixtures, "i[cs]*.json"))):
        doc = json.load(open(f, encoding="utf-8"))
        out[doc["procedure"]] = [c["params"] for c in doc["cases"]]
    return out


class Kith:
    name = "kith"

    def __init__(self, url):
        import kith
        self.client = kith.connect(url)

    def run(self, proc, params, timeout_s):
        r = self.client.call_with(proc, params, timing=True, timeout=timeout_s)
        return (r.timing["exec_us"] + r.timing["encode_us"]) / 1000


class Postgres(session.Session):
    name = "postgres"

    def __init__(self, port, timeout_s):
        super().__init__(port, timeout_s)
        self.texts = {}

    def run(self, proc, params, timeout_s):
        text = self.texts.setdefault(proc, ldbc.read_text(proc))
        try:
            self.conn.execute(ldbc.bind(text, params)).fetchall()
        except self.errors.QueryCanceled:
            raise TimeoutError from None
        return None


class Neo4j:
    name = "neo4j"

    def __init__(self, url):
        import neo4j
        self.neo4j = neo4j
        self.session = neo4j.GraphDatabase.driver(url, auth=None).session(database="neo4j")
        self.texts = {}

    def run(self, proc, params, timeout_s):
        name = os.path.basename(ldbc.text_file(proc))[:-4] + ".cypher"
        text = self.texts.setdefault(proc, open(os.path.join(CYPHER, name), encoding="utf-8").read())
        if proc in ("ldbc.ic3", "ldbc.ic4"):  # the reference driver passes endDate
            params = {**params, "endDate": params["startDate"] + params["durationDays"] * DAY_MS}
        try:
            result = self.session.run(self.neo4j.Query(text, timeout=timeout_s), params)
            result.data()
            s = result.consume()
        except self.neo4j.exceptions.ClientError as e:
            if "TimedOut" in (e.code or "") or "Timeout" in (e.code or "") or "terminated" in (e.message or ""):
                raise TimeoutError from None
            raise
        return (s.result_available_after or 0) + (s.result_consumed_after or 0)


def measure(system, proc, calls, warmup, timeout_s):
    for p in [p for _ in range(warmup) for p in calls]:
        try:
            system.run(proc, p, timeout_s)
        except TimeoutError:
            pass
    if hasattr(system, "reset"):
        system.reset()
    times, server, late = [], [], 0
    for p in calls:
        t0 = time.perf_counter()
        try:
            s = system.run(proc, p, timeout_s)
        except TimeoutError:
            late += 1
            times.append(timeout_s * 1000)  # at the timeout, a lower bound
            continue
        times.append((time.perf_counter() - t0) * 1000)
        if s is not None:
            server.append(s)
    mean = system.server_mean_ms() if hasattr(system, "server_mean_ms") else (
        statistics.fmean(server) if server else None)
    return {"median_ms": statistics.median(times) if times else None, "server_mean_ms": mean,
            "calls": len(calls), "timeouts": late}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--kith", required=True)
    ap.add_argument("--postgres", type=int)
    ap.add_argument("--neo4j")
    ap.add_argument("--timeout-s", type=float, default=10)
    ap.add_argument("--warmup", type=int, default=1, help="untimed passes over the cases first")
    a = ap.parse_args()
    work = cases(a.fixtures)
    systems = [Kith(a.kith)]
    if a.postgres:
        systems.append(Postgres(a.postgres, a.timeout_s))
    if a.neo4j:
        systems.append(Neo4j(a.neo4j))
    report = {}
    for proc in sorted(work, key=lambda q: (q[5:7], int(q[7:]))):
        for s in systems:
            r = measure(s, proc, work[proc], a.warmup, a.timeout_s)
            report.setdefault(proc, {})[s.name] = r
            med = f"{r['median_ms']:.3f}" if r["median_ms"] is not None else "-"
            srv = f"{r['server_mean_ms']:.3f}" if r["server_mean_ms"] is not None else "-"
            print(f"reads: {proc:<10} {s.name:<9} median {med:>9} ms  server mean {srv:>9} ms"
                  + (f"  {r['timeouts']} over {a.timeout_s:g} s" if r["timeouts"] else ""), file=sys.stderr)
    with open(a.out, "w") as f:
        json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
