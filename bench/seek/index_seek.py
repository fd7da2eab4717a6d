"""WHERE conjuncts answered by an index, on kith and Neo4j 5.26, beside kith's scans.

Ranges, `IN`, `STARTS WITH`, `CONTAINS` and `ENDS WITH` on indexed properties of the
LDBC SF0.1 graph (kith: RANGE indexes on `Comment.length` and `Comment.creationDate`,
a TEXT index on `Person.lastName`, a composite RANGE index on `Comment(browserUsed,
length)`; Neo4j: the same, declared alike). Each query also
runs on kith in a form the planner cannot seek (`c.length + 0 > ...`): the label scan
the seek replaced.

    KITH_BIN=target/release/kith target/py-venv/bin/python bench/seek/index_seek.py WORK [--runs 30]

WORK keeps the loaded systems (kith's data directory, Neo4j's home), so a second run
skips the loading. kith and Neo4j run through the same client, Neo4j's Python driver
over Bolt: one session each, 5 warm-up runs, then `--runs`; the medians in
milliseconds. Answers are compared; the run fails on a difference.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import neo4j

ROOT = Path(__file__).resolve().parents[2]
PEER = ROOT / "bench" / "peers" / "neo4j"
sys.path.insert(0, str(ROOT / "bench" / "lib"))
from kith_serve import serve  # noqa: E402
from ldbc_peers import sf01_source, start_neo4j  # noqa: E402

INDEXES = [
    "CREATE INDEX comment_length IF NOT EXISTS FOR (c:Comment) ON (c.length)",
    "CREATE INDEX comment_date IF NOT EXISTS FOR (c:Comment) ON (c.creationDate)",
    "CREATE TEXT INDEX person_last_name IF NOT EXISTS FOR (p:Person) ON (p.lastName)",
    "CREATE INDEX comment_browser_length IF NOT EXISTS FOR (c:Comment) ON (c.browserUsed, c.length)",
]

# (name, the query, the same filter in a form no index answers)
QUERIES = [
    ("range", "MATCH (c:Comment) WHERE c.length > 100 AND c.length <= 120 RETURN count(*)",
     "MATCH (c:Comment) WHERE c.length + 0 > 100 AND c.length + 0 <= 120 RETURN count(*)"),
    ("range_dates", "MATCH (c:Comment) WHERE c.creationDate >= 1347000000000 RETURN count(*)",
     "MATCH (c:Comment) WHERE c.creationDate + 0 >= 1347000000000 RETURN count(*)"),
    ("equal", "MATCH (c:Comment) WHERE c.length = 150 RETURN count(*)",
     "MATCH (c:Comment) WHERE c.length + 0 = 150 RETURN count(*)"),
    ("in_list", "MATCH (c:Comment) WHERE c.length IN [3, 150, 200] RETURN count(*)",
     "MATCH (c:Comment) WHERE c.length + 0 IN [3, 150, 200] RETURN count(*)"),
    ("range_expand_group",
     "MATCH (c:Comment)-[:HAS_CREATOR]->(p:Person) WHERE c.creationDate >= 1347400000000 "
     "RETURN p.firstName AS name, count(*) AS n ORDER BY n DESC, name LIMIT 3",
     "MATCH (c:Comment)-[:HAS_CREATOR]->(p:Person) WHERE c.creationDate + 0 >= 1347400000000 "
     "RETURN p.firstName AS name, count(*) AS n ORDER BY n DESC, name LIMIT 3"),
    ("composite",
     "MATCH (c:Comment) WHERE c.browserUsed = 'Safari' AND c.length = 150 RETURN count(*)",
     "MATCH (c:Comment) WHERE c.browserUsed + '' = 'Safari' AND c.length + 0 = 150 "
     "RETURN count(*)"),
    ("composite_pattern",
     "MATCH (c:Comment {length: 150, browserUsed: 'Safari'})-[:HAS_CREATOR]->(p) "
     "RETURN count(DISTINCT p)",
     "MATCH (c:Comment)-[:HAS_CREATOR]->(p) WHERE c.browserUsed + '' = 'Safari' "
     "AND c.length + 0 = 150 RETURN count(DISTINCT p)"),
    ("prefix", "MATCH (p:Person) WHERE p.lastName STARTS WITH 'Sm' RETURN count(*)",
     "MATCH (p:Person) WHERE p.lastName + '' STARTS WITH 'Sm' RETURN count(*)"),
    ("contains", "MATCH (p:Person) WHERE p.lastName CONTAINS 'an' RETURN count(*)",
     "MATCH (p:Person) WHERE p.lastName + '' CONTAINS 'an' RETURN count(*)"),
    ("ends_with", "MATCH (p:Person) WHERE p.lastName ENDS WITH 'ez' RETURN count(*)",
     "MATCH (p:Person) WHERE p.lastName + '' ENDS WITH 'ez' RETURN count(*)"),
    ("prefix_expand",
     "MATCH (p:Person)<-[:HAS_CREATOR]-(c:Comment) WHERE p.lastName STARTS WITH 'Z' "
     "AND c.length < 10 RETURN count(*)",
     "MATCH (p:Person)<-[:HAS_CREATOR]-(c:Comment) WHERE p.lastName + '' STARTS WITH 'Z' "
     "AND c.length + 0 < 10 RETURN count(*)"),
]


def median_ms(session, query: str, runs: int) -> tuple[float, list]:
    answer = None
    for _ in range(5):
        answer = [list(r.values()) for r in session.run(query)]
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        session.run(query).consume()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), answer


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("work", type=Path)
    p.add_argument("--runs", type=int, default=30)
    args = p.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    kith_bin = Path(os.environ.get("KITH_BIN", ROOT / "target" / "release" / "kith"))
    subprocess.run(["bash", str(PEER / "neo4j.sh"), "build"], check=True)
    src = sf01_source(args.work)
    data = args.work / "kith"
    if not (data / "graph.kith").exists():
        subprocess.run([str(kith_bin), "load", "ldbc", str(src), "--out", str(data)],
                       check=True, capture_output=True)
    kith = serve(kith_bin, data, args.work / "kith-serve.log", seconds=120)
    home, port = start_neo4j(src, args.work)
    differ = 0
    try:
        drivers = [neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{p}", auth=None)
                   for p in (kith.bolt, port)]
        sessions = [d.session(database="neo4j") for d in drivers]
        for s in sessions:
            for text in INDEXES:
                s.run(text).consume()
        sessions[1].run("CALL db.awaitIndexes(300)").consume()
        print(f"| query | kith (index) | kith (scan form) | Neo4j (index) | Neo4j / kith |")
        print("|---|---|---|---|---|")
        for name, query, scan in QUERIES:
            k, k_answer = median_ms(sessions[0], query, args.runs)
            ks, ks_answer = median_ms(sessions[0], scan, args.runs)
            n, n_answer = median_ms(sessions[1], query, args.runs)
            same = k_answer == n_answer == ks_answer
            differ += not same
            mark = "" if same else f" **differs**: {k_answer} / {ks_answer} / {n_answer}"
            print(f"| {name} | {k:.2f} | {ks:.2f} | {n:.2f} | {n / k:.1f}x |{mark}", flush=True)
        for s in sessions:
            s.close()
        for d in drivers:
            d.close()
    finally:
        kith.stop(60)
        subprocess.run(["bash", str(PEER / "neo4j.sh"), "stop", str(home)], check=False)
    print(f"answers differing: {differ}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
