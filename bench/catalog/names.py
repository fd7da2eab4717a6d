#!/usr/bin/env python3
"""Many distinct names, none kept: write latency and server memory as they go by.

Each step creates a node with a label and a property key never used before and
deletes it again (`CREATE (n:L17 {k17: 1}) DELETE n`), through Neo4j's own Python
driver. Every `--every` steps it times a fixed write (`CREATE (:Fixed {p: 1})`, the
median of `--probes`) and reads the server's resident memory (`--pid`, from
/proc). A server whose catalog keeps every name ever used grows and slows down as the
names pass; one that reclaims unused names stays flat.

    python bench/catalog/names.py --uri bolt://127.0.0.1:7687 --pid PID --names 100000
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import neo4j


def arguments() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--uri", default="bolt://127.0.0.1:7687")
    p.add_argument("--user", default="neo4j")
    p.add_argument("--password", default="password")
    p.add_argument("--names", type=int, default=100_000)
    p.add_argument("--every", type=int, default=10_000)
    p.add_argument("--probes", type=int, default=50)
    p.add_argument("--pid", type=int, help="the server's process, for its resident memory")
    p.add_argument("--prefix", default="N", help="names are PREFIX_L<i> and PREFIX_k<i>")
    return p.parse_args()


def rss_mib(pid: int | None) -> float | None:
    if pid is None:
        return None
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return None


def probe(session, probes: int) -> float:
    times = []
    for _ in range(probes):
        began = time.perf_counter()
        session.run("CREATE (:Fixed {p: 1})").consume()
        times.append(time.perf_counter() - began)
    return round(statistics.median(times) * 1000, 3)


def main() -> None:
    args = arguments()
    driver = neo4j.GraphDatabase.driver(args.uri, auth=(args.user, args.password))
    rows = []
    with driver.session() as session:
        session.run("MATCH (f:Fixed) DELETE f").consume()
        for i in range(args.names + 1):
            if i % args.every == 0:
                row = {"names": i, "fixed_write_ms": probe(session, args.probes), "rss_mib": rss_mib(args.pid)}
                rows.append(row)
                print(json.dumps(row), flush=True)
            if i < args.names:
                label, key = f"{args.prefix}_L{i}", f"{args.prefix}_k{i}"
                session.run(f"CREATE (n:{label} {{{key}: 1}}) DELETE n").consume()
    driver.close()
    first, last = rows[0], rows[-1]
    summary = {
        "names": args.names,
        "fixed_write_ms_first": first["fixed_write_ms"],
        "fixed_write_ms_last": last["fixed_write_ms"],
        "rss_mib_first": first["rss_mib"],
        "rss_mib_last": last["rss_mib"],
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
