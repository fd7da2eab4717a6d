#!/usr/bin/env python3
"""Notifications compared with Neo4j 5.26 (issue 42): each query of
notification_cases.txt runs on kith and on the real Neo4j through Neo4j's Python
driver (Bolt 5.x: GQL status objects), on the same two-node graph; their statuses
(GQL status, Neo4j code, offset, severity, classification) are compared, and for
the ones both raise, the status description too. Differences kith makes on purpose
are listed below with their reason (also in docs/cypher.md, "Notifications"); any
other difference fails the run (exit 1).

usage: bench/difftest/notifications.py --start [--cases FILE]
       bench/difftest/notifications.py --kith bolt://HOST:PORT --neo4j bolt://HOST:PORT
         [--neo4j-password PASSWORD] [--cases FILE]
`--start` starts both on scratch directories (kith from KITH_BIN, Neo4j with
bench/peers/neo4j/neo4j.sh) and stops them after. Given URLs, both databases are
emptied and given the graph first: point it at scratch servers.
"""
from __future__ import annotations

import argparse
import contextlib
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import neo4j

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "lib"))
from kith_serve import free_port, serve  # noqa: E402

GRAPH = "CREATE (:Person {name: 'a'})-[:KNOWS]->(:Person {name: 'b'})"

# (GQL status, which queries, reason): notifications Neo4j raises that kith does not,
# on purpose.
NOT_RAISED = [
    ("03N92", "", "kith enumerates paths by increasing length for a shortest path's "
     "residual predicate (issue 41) but does not say so yet"),
    ("03N60", "", "shadowing of an outer variable inside a subquery is not noted (kith "
     "reads scopes in the binder, not the parser)"),
    ("01N63", "", "a relationship variable repeated in one pattern is a syntax error in "
     "kith, not a warning on a query that can have no result"),
    ("01N52", "relationships(p)", "a key read of a variable no pattern binds "
     "(`r IN relationships(p)`) is not checked"),
]


def not_raised(text: str, status: str) -> bool:
    return any(s == status and where in text for s, where, _ in NOT_RAISED)


# Texts kith words differently: its pattern text is the query's own, and it has one runtime.
WORDED = ("03N90", "01N40")


def statuses(driver, text: str):
    try:
        with driver.session() as s:
            summary = s.run(text).consume()
    except neo4j.exceptions.Neo4jError as e:
        return f"error {e.code}"
    return [
        (
            st.gql_status,
            st.diagnostic_record.get("_position", {}).get("offset"),
            st.diagnostic_record.get("_severity"),
            st.diagnostic_record.get("_classification"),
            st.status_description,
        )
        for st in summary.gql_status_objects
    ]


def compare(text: str, kith, neo) -> list[str]:
    if isinstance(neo, list) and any(s[0] == "01N63" for s in neo):
        # kith refuses what Neo4j warns of (NOT_RAISED).
        return [] if isinstance(kith, str) and "SyntaxError" in kith else [f"kith {kith}"]
    if isinstance(kith, str) or isinstance(neo, str):
        return [] if kith == neo else [f"kith {kith} / Neo4j {neo}"]
    problems = []
    wanted = [s for s in neo if not not_raised(text, s[0])]
    for got, want in zip(kith, wanted):
        if got[:4] != want[:4]:
            problems.append(f"kith {got[:4]} / Neo4j {want[:4]}")
        elif got[4] != want[4] and want[0] not in WORDED:
            problems.append(f"{got[0]}: kith says {got[4]!r} / Neo4j {want[4]!r}")
    if len(kith) != len(wanted):
        problems.append(f"kith {[s[0] for s in kith]} / Neo4j {[s[0] for s in wanted]}")
    return problems


@contextlib.contextmanager
def started():
    """kith and Neo4j on scratch directories: their Bolt URLs."""
    work = Path(tempfile.mkdtemp(prefix="kith-notifications-"))
    kith_bin = Path(os.environ.get("KITH_BIN", ROOT / "target" / "release" / "kith"))
    peer = ROOT / "bench" / "peers" / "neo4j" / "neo4j.sh"
    home, port = work / "neo4j", free_port()
    subprocess.run(["bash", str(peer), "start", str(home), str(port)], check=True, capture_output=True)
    served = None
    try:
        served = serve(kith_bin, work / "kith", work / "kith.log")
        yield f"bolt://127.0.0.1:{served.bolt}", f"bolt://127.0.0.1:{port}"
    finally:
        if served is not None:
            served.stop()
        subprocess.run(["bash", str(peer), "stop", str(home)], check=False, capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--start", action="store_true")
    ap.add_argument("--kith")
    ap.add_argument("--neo4j")
    ap.add_argument("--neo4j-password", default="password")
    ap.add_argument("--cases", default=str(here / "notification_cases.txt"))
    args = ap.parse_args()
    if args.start:
        with started() as (kith_url, neo4j_url):
            return run(args.cases, kith_url, neo4j_url, None)
    if not (args.kith and args.neo4j):
        ap.error("give --start, or both --kith and --neo4j")
    return run(args.cases, args.kith, args.neo4j, ("neo4j", args.neo4j_password))


def run(cases_file: str, kith_url: str, neo4j_url: str, neo4j_auth) -> int:
    # The driver logs each notification it receives: here they are the data, compared.
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)
    cases = [line for line in Path(cases_file).read_text().splitlines() if line and not line.startswith("#")]
    kith = neo4j.GraphDatabase.driver(kith_url, auth=("neo4j", "unused"))
    neo = neo4j.GraphDatabase.driver(neo4j_url, auth=neo4j_auth)
    for d in (kith, neo):
        d.execute_query("MATCH (n) DETACH DELETE n")
        # The cases declare and drop these: a second run starts as the first.
        for rule in ("INDEX pn", "INDEX pn2", "CONSTRAINT pc"):
            d.execute_query(f"DROP {rule} IF EXISTS")
        d.execute_query(GRAPH)
    unexplained = 0
    explained = 0
    for text in cases:
        k, n = statuses(kith, text), statuses(neo, text)
        if not isinstance(n, str):
            explained += sum(1 for s in n if not_raised(text, s[0]))
        problems = compare(text, k, n)
        unexplained += bool(problems)
        for p in problems:
            print(f"DIFFERENT  {text}\n           {p}")
    kith.close()
    neo.close()
    print(
        f"notifications: {len(cases)} queries, {len(cases) - unexplained} alike, "
        f"{explained} Neo4j notification(s) kith does not raise on purpose, "
        f"{unexplained} unexplained"
    )
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
