#!/usr/bin/env python3
"""The bank workload: writers moving money between a few accounts in managed
transactions, through Neo4j's own Python driver, against kith or Neo4j.

Each transfer is one `session.execute_write` whose function runs one statement
(`MATCH (a:Account {id: $from}), (b:Account {id: $to}) SET a.balance = a.balance -
$amount, b.balance = b.balance + $amount`). Two transfers touching one account
collide: a server that refuses the later one (`Outdated`) makes the driver retry with
its exponential backoff; one that makes it wait for the lock answers it once the
first commits. Reported: transfer latency (median, p99, maximum), the driver's
retries (the function called more than once), failures, throughput, and whether the
balances still add up (no lost update).

    python bench/contention/bank.py --uri bolt://127.0.0.1:7687 --seconds 20
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import threading
import time

import neo4j

TRANSFER = (
    "MATCH (a:Account {id: $from}), (b:Account {id: $to}) "
    "SET a.balance = a.balance - $amount, b.balance = b.balance + $amount"
)
OPENING = 1000


def arguments() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--uri", default="bolt://127.0.0.1:7687")
    p.add_argument("--user", default="neo4j")
    p.add_argument("--password", default="password")
    p.add_argument("--accounts", type=int, default=20)
    p.add_argument("--writers", type=int, default=16)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--label", default="", help="a name for the server in the report")
    return p.parse_args()


def open_accounts(driver: neo4j.Driver, accounts: int) -> None:
    driver.execute_query("MATCH (a:Account) DETACH DELETE a")
    driver.execute_query(
        "UNWIND range(0, $n - 1) AS i CREATE (:Account {id: i, balance: $opening})",
        n=accounts,
        opening=OPENING,
    )


def writer(driver, args, seed, stop, out):
    rng = random.Random(seed)
    latencies, attempts, failures = [], [0], 0
    with driver.session() as session:
        while not stop.is_set():
            a, b = rng.sample(range(args.accounts), 2)
            amount = rng.randint(1, 50)

            def transfer(tx):
                attempts[0] += 1
                tx.run(TRANSFER, {"from": a, "to": b, "amount": amount}).consume()

            began = time.perf_counter()
            try:
                session.execute_write(transfer)
                latencies.append(time.perf_counter() - began)
            except neo4j.exceptions.Neo4jError:
                failures += 1
    out.append((latencies, attempts[0], failures))


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def main() -> None:
    args = arguments()
    driver = neo4j.GraphDatabase.driver(args.uri, auth=(args.user, args.password))
    open_accounts(driver, args.accounts)
    stop, out = threading.Event(), []
    threads = [
        threading.Thread(target=writer, args=(driver, args, args.seed * 1000 + i, stop, out))
        for i in range(args.writers)
    ]
    began = time.perf_counter()
    for t in threads:
        t.start()
    time.sleep(args.seconds)
    stop.set()
    for t in threads:
        t.join()
    ran = time.perf_counter() - began
    total = driver.execute_query("MATCH (a:Account) RETURN sum(a.balance) AS s").records[0]["s"]
    driver.close()
    latencies = [x for lat, _, _ in out for x in lat]
    transfers = len(latencies)
    report = {
        "server": args.label or args.uri,
        "writers": args.writers,
        "accounts": args.accounts,
        "transfers": transfers,
        "per_second": round(transfers / ran, 1),
        "retries": sum(a for _, a, _ in out) - transfers - sum(f for _, _, f in out),
        "failures": sum(f for _, _, f in out),
        "p50_ms": round(statistics.median(latencies) * 1000, 2),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
        "max_ms": round(max(latencies) * 1000, 2),
        "balances_add_up": total == args.accounts * OPENING,
    }
    report["p99_over_p50"] = round(report["p99_ms"] / report["p50_ms"], 1)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
