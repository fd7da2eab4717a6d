"""A/B of two kith servers on the same data: the same calls on both, alternating, the
answers checked equal, and the median of the servers' own `exec_us` per side.

Used for before/after figures in docs/benchmarks.md: start the old binary and the new one
on two copies of a data directory, then

  python bench/ab/servers.py --a ws://127.0.0.1:17001/v1/ws --b ws://127.0.0.1:17002/v1/ws \\
      --fixtures crates/kith-ldbc/tests/fixtures/sf0.1 ic3 ic6 [--repeat 30]
  python bench/ab/servers.py --a ... --b ... --cypher "MATCH (p:Person {id: $personId}) ..." \\
      --persons 50 [--repeat 3]

With --fixtures every case of each named fixture file runs --repeat times; with --cypher
the text runs for --persons persons (every 8th of the first 8×N by id), --repeat rounds.
Needs kith's Python client (clients/python).
"""
import argparse
import json
import os
import statistics
import sys

import kith


def fixture_cases(directory, query):
    path = os.path.join(directory, f"{query}.json")
    try:
        doc = json.load(open(path, encoding="utf-8"))
    except OSError as e:
        sys.exit(f"ab: {path}: {e.strerror}")
    return [(doc["procedure"], case["params"]) for case in doc["cases"]]


def measure(clients, calls, repeat):
    """Median exec_us per side; every call's answers compared across the sides."""
    times = {side: [] for side in clients}
    for _ in range(repeat):
        for run, params in calls:
            answers = []
            for side, client in clients.items():
                r = run(client, params)
                times[side].append(r.timing["exec_us"])
                answers.append(r.rows())
            if answers[0] != answers[1]:
                sys.exit(f"ab: the servers answered {params} differently")
    return {side: statistics.median(t) for side, t in times.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True, help="the first server's WebSocket URL (before)")
    ap.add_argument("--b", required=True, help="the second server's WebSocket URL (after)")
    ap.add_argument("--fixtures", help="an oracle fixture directory; name its queries (ic1 ic3 ...)")
    ap.add_argument("--cypher", help="a Cypher text with $personId")
    ap.add_argument("--persons", type=int, default=50)
    ap.add_argument("--repeat", type=int)
    ap.add_argument("queries", nargs="*")
    a = ap.parse_args()
    if bool(a.fixtures) == bool(a.cypher):
        sys.exit("ab: give --fixtures with query names, or --cypher")
    clients = {"a": kith.connect(a.a), "b": kith.connect(a.b)}
    if a.fixtures:
        if not a.queries:
            sys.exit("ab: name the fixture queries to run (ic1 ic3 ...)")
        for q in a.queries:
            calls = [(lambda c, p, proc=proc: c.call_with(proc, p, timing=True), params)
                     for proc, params in fixture_cases(a.fixtures, q)]
            med = measure(clients, calls, a.repeat or 30)
            print(f"{q}: a {med['a']:.0f} µs, b {med['b']:.0f} µs (median exec_us, {len(calls)} cases × {a.repeat or 30})")
    else:
        ids = [r[0] for r in clients["a"].cypher("MATCH (p:Person) RETURN p.id AS id ORDER BY id LIMIT $n",
                                                 n=a.persons * 8).rows()][::8]
        calls = [(lambda c, p: c.cypher(a.cypher, p, timing=True), {"personId": i}) for i in ids]
        med = measure(clients, calls, a.repeat or 3)
        print(f"cypher: a {med['a']:.0f} µs, b {med['b']:.0f} µs (median exec_us, {len(ids)} persons × {a.repeat or 3})")


if __name__ == "__main__":
    main()
