#!/usr/bin/env python3
"""The query suite on kith, Neo4j 5.26 and Ladybug, side by side (issue 41).

Loads one LDBC SNB Interactive data set into each system (kith: `kith load ldbc`, then
`kith serve` with Bolt; Neo4j: `../peers/neo4j/ldbc/load.sh`, its own bulk import;
Ladybug, Kùzu's maintained fork, embedded: `../peers/ladybug/load.py`), picks the
parameters from the data (`queries.PARAMS`), then runs every query of `queries.py` and
the eight adapted official LDBC BI texts (`../shared/data/ldbc-bi/adapted/`):

- kith and Neo4j through the same driver, Neo4j's Python driver over Bolt, one warm-up
  and `--runs` timed runs each (median), a query's writes in a transaction rolled back;
- Ladybug in-process, on the text with `:Message` written `:Post:Comment` (its schema
  has no Message); a query its dialect refuses (or that names City, Country,
  Continent, Company or University, which its schema folds into Place and
  Organisation) is reported as not run, with the reason;
- answers compared with kith's (bags unless the query orders them; floats to 12
  digits), every difference listed.

Writes WORK/suite.json and WORK/suite.md; `kith report WORK` draws them. Exit 1 when
kith's answer differs from Neo4j's on any query.

usage: bench/suite/run.py WORK [--test | --data DIR] [--runs N] [--only NAME,...]
         [--no-ladybug]
(default data: SF0.1, unpacked from ../shared/data; --test: the official test set)
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import neo4j

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SHARED = ROOT.parent / "shared" / "data"
PEER = ROOT / "bench" / "peers" / "neo4j"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "bench" / "difftest"))
sys.path.insert(0, str(ROOT / "bench" / "lib"))
import compare  # noqa: E402
import queries  # noqa: E402
from kith_serve import serve  # noqa: E402
from ldbc_peers import sf01_source, start_neo4j  # noqa: E402

BI = ("bi-1", "bi-3", "bi-5", "bi-7", "bi-9", "bi-13", "bi-14", "bi-18")
LADYBUG_LABELS = re.compile(r":(City|Country|Continent|Company|University)\b")


class TimedOut(Exception):
    """A system did not answer within --timeout: reported as such, not as a wrong answer."""


def data_set(work: Path, args) -> tuple[str, Path]:
    if args.test:
        return "test", SHARED / "ldbc-snb-interactive-test" / "vanilla"
    if args.data:
        return Path(args.data).name, Path(args.data) / "social_network"
    return "sf0.1", sf01_source(work)


class Kith:
    def __init__(self, kith_bin: Path, src: Path, work: Path):
        data = work / "kith"
        if not (data / "graph.kith").exists():
            subprocess.run([str(kith_bin), "load", "ldbc", str(src), "--out", str(data)],
                           check=True, capture_output=True)
        self.served = serve(kith_bin, data, work / "kith-serve.log",
                            "--query-timeout-ms", "120000", seconds=120)
        self.bolt = self.served.bolt

    def stop(self):
        self.served.stop(60)


def open_ladybug(src: Path, work: Path):
    try:
        import ladybug
    except ImportError as e:
        return None, f"ladybug is not installed ({e}): pip install -r bench/peers/s4/requirements.txt"
    db = work / "ladybug"
    if not db.exists():
        subprocess.run([sys.executable, str(ROOT / "bench" / "peers" / "ladybug" / "load.py"),
                        str(src), str(db)], check=True)
    return ladybug.Connection(ladybug.Database(str(db))), None


def pick_params(session) -> dict:
    params = {}
    for name, text in queries.PARAMS.items():
        params[name] = session.run(text).single()["v"]
    countries = session.run(
        "MATCH (c:Country)<-[:IS_PART_OF]-(:City)<-[:IS_LOCATED_IN]-(p:Person) "
        "WITH c, count(p) AS n RETURN c.name AS v ORDER BY n DESC, v SKIP 1 LIMIT 1").single()
    params["country2Name"] = countries["v"]
    return params


def bi_texts() -> list[queries.Q]:
    out = []
    for name in BI:
        text = (SHARED / "ldbc-bi" / "adapted" / f"{name}.cypher").read_text()
        out.append(queries.Q(name, "ldbc-bi", text))
    return out


def bi_params(p: dict) -> dict:
    return {"datetime": p["date"], "country": p["countryName"], "endDate": p["date"],
            "startDate": p["date"] - 30 * 86400000, "country1": p["countryName"],
            "country2": p["country2Name"], "tag": p["tagName"], "tagClass": p["tagClass"]}


def used(text: str, params: dict) -> dict:
    return {k: v for k, v in params.items() if re.search(r"\$" + k + r"\b", text)}


def timed(run, runs: int, timeout_s: float):
    """One warm-up, then `runs` timed runs: (median ms, the first answer).

    A warm-up slower than the timeout ends the measurement: a query that takes minutes
    on one system would otherwise hold the whole suite up for `runs` more of them."""
    began = time.perf_counter()
    answer = run()
    if time.perf_counter() - began > timeout_s:
        raise TimedOut(f"over {timeout_s:g} s")
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        run()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), answer


def bolt_runner(session, q: queries.Q, params: dict, timeout_s: float):
    def once():
        if q.writes:
            tx = session.begin_transaction(timeout=timeout_s)
            try:
                result = tx.run(q.text, params)
                records = [r.values() for r in result]
                return compare.answer_of(result.keys(), records, set(q.bags))
            finally:
                tx.rollback()
        result = session.run(neo4j.Query(q.text, timeout=timeout_s), params)
        records = [r.values() for r in result]
        return compare.answer_of(result.keys(), records, set(q.bags))

    def run():
        try:
            return once()
        except neo4j.exceptions.Neo4jError as e:
            if "Timeout" in (e.code or "") or "TransactionTimedOut" in (e.code or ""):
                raise TimedOut(f"over {timeout_s:g} s ({e.code})") from e
            raise
    return run


def ladybug_text(q: queries.Q) -> tuple[str | None, str | None]:
    if q.writes:
        return None, "writes are not run on Ladybug (its transactions differ)"
    if LADYBUG_LABELS.search(q.text):
        return None, "names a label Ladybug's schema folds into Place or Organisation"
    return q.text.replace(":Message", ":Post:Comment"), None


def ladybug_runner(conn, text: str, q: queries.Q, params: dict):
    def run():
        try:
            result = conn.execute(text, params)
        except RuntimeError as e:
            if "interrupt" in str(e).lower() or "timeout" in str(e).lower():
                raise TimedOut(f"interrupted by its query timeout ({str(e)[:80]})") from e
            raise
        columns = result.get_column_names()
        rows = []
        while result.has_next():
            rows.append(result.get_next())
        return compare.answer_of(columns, rows, set(q.bags))
    return run


def measure(name, run, runs, timeout_s) -> dict:
    try:
        ms, answer = timed(run, runs, timeout_s)
        return {"ms": round(ms, 3), "answer": answer}
    except TimedOut as e:
        return {"ms": None, "timed_out": str(e)}
    except Exception as e:  # the system refused or failed the query: reported, not fatal
        return {"ms": None, "error": f"{type(e).__name__}: {str(e)[:300]}"}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("work", type=Path)
    p.add_argument("--test", action="store_true")
    p.add_argument("--data")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--only", default="")
    p.add_argument("--no-ladybug", action="store_true")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds a system may take on one query before it is reported as timed out")
    args = p.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    kith_bin = Path(os.environ.get("KITH_BIN", ROOT / "target" / "release" / "kith"))
    subprocess.run(["bash", str(PEER / "neo4j.sh"), "build"], check=True)
    name, src = data_set(args.work, args)
    kith = Kith(kith_bin, src, args.work)
    home, port = start_neo4j(src, args.work)
    ladybug, ladybug_missing = (None, "--no-ladybug") if args.no_ladybug else open_ladybug(src, args.work)
    try:
        return run_all(args, name, kith, port, ladybug, ladybug_missing)
    finally:
        kith.stop()
        subprocess.run(["bash", str(PEER / "neo4j.sh"), "stop", str(home)], check=False)


def run_all(args, dataset, kith, port, ladybug, ladybug_missing) -> int:
    drivers = {s: neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{p}", auth=None,
                                              notifications_min_severity="OFF")
               for s, p in (("kith", kith.bolt), ("neo4j", port))}
    sessions = {s: d.session(database="neo4j") for s, d in drivers.items()}
    # The Neo4j peer's load declares this index besides the LDBC ids and names that
    # `kith load ldbc` indexes too: kith gets it as well, so both plan on one schema.
    sessions["kith"].run("CREATE INDEX person_first_name IF NOT EXISTS "
                         "FOR (n:Person) ON (n.firstName)").consume()
    params = pick_params(sessions["kith"])
    only = set(filter(None, args.only.split(",")))
    todo = [q for q in queries.QUERIES + bi_texts() if not only or q.name in only]
    results = []
    for q in todo:
        values = bi_params(params) if q.category == "ldbc-bi" else params
        args_of = used(q.text, values)
        row = {"name": q.name, "category": q.category}
        for system in ("kith", "neo4j"):
            row[system] = measure(system, bolt_runner(sessions[system], q, args_of, args.timeout),
                                  args.runs, args.timeout)
        text, why_not = ladybug_text(q)
        if ladybug is None:
            row["ladybug"] = {"ms": None, "skipped": ladybug_missing}
        elif text is None:
            row["ladybug"] = {"ms": None, "skipped": why_not}
        else:
            ladybug.set_query_timeout(int(args.timeout * 1000))
            row["ladybug"] = measure("ladybug", ladybug_runner(ladybug, text, q, args_of),
                                     args.runs, args.timeout)
        judge(row, q)
        results.append(row)
        print(f"{q.name:32} kith {fmt(row['kith'])} neo4j {fmt(row['neo4j'])} "
              f"ladybug {fmt(row['ladybug'])} {row['verdict']}", flush=True)
        # Written after every query, so a run stopped part way (SF1 takes the better part
        # of an hour) keeps what it measured.
        write_report(args.work, dataset, params, args.runs, results)
    for s in sessions.values():
        s.close()
    report = write_report(args.work, dataset, params, args.runs, results)
    print(markdown(report).split("\n\n| query")[0])
    return 1 if report["kith_differs_from_neo4j"] else 0


def write_report(work: Path, dataset, params, runs, results) -> dict:
    report = summarise(dataset, params, runs, results)
    (work / "suite.json").write_text(json.dumps(report, indent=1, default=str))
    (work / "suite.md").write_text(markdown(report))
    return report


def fmt(m: dict) -> str:
    if m.get("ms") is not None:
        return f"{m['ms']:9.2f} ms"
    return "  timeout   " if "timed_out" in m else "        -   "


def cell(m: dict) -> str:
    if m.get("ms"):
        return str(m["ms"])
    return "timeout" if "timed_out" in m else "error"


def judge(row: dict, q: queries.Q) -> None:
    k, n, l = row["kith"], row["neo4j"], row["ladybug"]
    ordered = q.ordered
    if "answer" in k and "answer" in n:
        how = compare.differ(n["answer"], k["answer"], ordered)
        row["verdict"] = "equal" if how is None else f"DIFFERS ({how})"
    elif "timed_out" in k or "timed_out" in n:
        slow = [s for s, m in (("kith", k), ("Neo4j", n)) if "timed_out" in m]
        row["verdict"] = f"timed out on {' and '.join(slow)}"
        failed = [s for s, m in (("kith", k), ("Neo4j", n)) if "error" in m]
        if failed:  # the other's answer is unknown, so this is no verdict on the failure
            row["verdict"] += f"; {failed[0]} failed"
    elif "error" in k and "error" in n:
        row["verdict"] = "both failed"
    else:
        row["verdict"] = "DIFFERS (one failed)"
    if "answer" in l and "answer" in k:
        how = compare.differ(k["answer"], l["answer"], ordered)
        row["ladybug_verdict"] = "equal" if how is None else f"differs ({how})"
    for m in (k, n, l):
        answer = m.pop("answer", None)
        if answer is not None:
            m["rows"] = len(answer.rows)
            m["sample"] = repr(answer.rows[:3])[:300]


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def summarise(dataset, params, runs, results) -> dict:
    both = [r for r in results if r["kith"].get("ms") and r["neo4j"].get("ms")]
    lady = [r for r in results if r["kith"].get("ms") and r["ladybug"].get("ms")]
    return {
        "dataset": dataset, "runs": runs, "params": params, "queries": len(results),
        "kith_differs_from_neo4j": [r["name"] for r in results if r["verdict"].startswith("DIFFERS")],
        "geomean_neo4j_over_kith": geomean([r["neo4j"]["ms"] / r["kith"]["ms"] for r in both]),
        "geomean_ladybug_over_kith": geomean([r["ladybug"]["ms"] / r["kith"]["ms"] for r in lady]),
        "ladybug_ran": len(lady),
        "kith_slower_than_neo4j": [r["name"] for r in both if r["kith"]["ms"] > r["neo4j"]["ms"]],
        "timed_out": {s: [r["name"] for r in results if "timed_out" in r[s]]
                      for s in ("kith", "neo4j", "ladybug")},
        "results": results,
    }


def timeouts(r: dict) -> str:
    return "; ".join(f"{s} on {', '.join(names)}" for s, names in r["timed_out"].items() if names)


def markdown(r: dict) -> str:
    g = r["geomean_neo4j_over_kith"]
    gl = r["geomean_ladybug_over_kith"]
    lines = [
        f"# The query suite on {r['dataset']}: kith, Neo4j 5.26, Ladybug",
        "",
        f"{r['queries']} queries, median of {r['runs']} runs after one warm-up; kith and Neo4j "
        "through Neo4j's Python driver over Bolt, Ladybug embedded (no network).",
        "",
        f"- geometric mean of Neo4j / kith time: **{g:.2f}x**" if g else "- no common timings",
        f"- geometric mean of Ladybug / kith time ({r['ladybug_ran']} queries Ladybug ran): "
        f"**{gl:.2f}x**" if gl else "- Ladybug ran none",
        f"- kith's answer differs from Neo4j's on: {', '.join(r['kith_differs_from_neo4j']) or 'none'}",
        f"- kith slower than Neo4j on {len(r['kith_slower_than_neo4j'])}: "
        f"{', '.join(r['kith_slower_than_neo4j']) or 'none'}",
        f"- timed out after the --timeout (not in the means): {timeouts(r) or 'none'}",
        "",
        "| query | category | kith ms | Neo4j ms | Neo4j / kith | Ladybug ms | answers |",
        "|---|---|---|---|---|---|---|",
    ]
    for x in r["results"]:
        k, n, l = x["kith"].get("ms"), x["neo4j"].get("ms"), x["ladybug"].get("ms")
        ratio = f"{n / k:.2f}" if k and n else "-"
        lb = f"{l:.2f}" if l else ("timeout" if "timed_out" in x["ladybug"] else "n/a")
        verdict = x["verdict"] + (f"; Ladybug {x['ladybug_verdict']}" if "ladybug_verdict" in x else "")
        lines.append(f"| {x['name']} | {x['category']} | {cell(x['kith'])} | {cell(x['neo4j'])} "
                     f"| {ratio} | {lb} | {verdict} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
