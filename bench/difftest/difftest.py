#!/usr/bin/env python3
"""The differential harness (issue 41): generated queries run on kith and on Neo4j 5.26
through the same driver (Neo4j's Python driver over Bolt), and on kith again in its
naive plan mode (`CYPHER planner=naive`, the plainest correct plan), on two data sets:
the LDBC SNB test set and a small random graph with nulls, lists, mixed types and
self-loops. Answers are compared as bags unless the query orders them, errors by class
(both fail, or neither), writes (run in a transaction, then rolled back) by their rows,
their summary counters and a read of their effect in the same transaction.

Every difference is either explained by `known.py` (each reason listed in
docs/cypher.md, "Deliberate differences from Neo4j") or counted as unexplained and
written to OUT/differences.jsonl. The run fails (exit 1) on any unexplained difference.

usage: bench/difftest/difftest.py [--count N] [--seed S] [--datasets ldbc,random]
         [--variants V] [--progress N] [--out DIR] [--work DIR]
env:   KITH_BIN (target/release/kith), and bench/peers/neo4j/neo4j.sh's settings
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import neo4j
from neo4j.exceptions import Neo4jError

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
import compare  # noqa: E402
import gen  # noqa: E402
import known  # noqa: E402
import random_graph  # noqa: E402
import schema  # noqa: E402
from kith_serve import free_port, serve  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"
PEER = ROOT / "bench" / "peers" / "neo4j"
TIMEOUT_S = 1.0
NAIVE = "CYPHER planner=naive "


class Kith:
    def __init__(self, kith_bin: Path, data: Path, log: Path):
        self.served = serve(kith_bin, data, log, "--query-timeout-ms", str(int(TIMEOUT_S * 1000)))
        self.bolt = self.served.bolt

    def stop(self):
        self.served.stop()


def neo4j_peer(*args: str) -> None:
    subprocess.run(["bash", str(PEER / "neo4j.sh"), *args], check=True)


class Target:
    """One system reached through a driver."""

    def __init__(self, name: str, port: int, prefix: str = ""):
        self.name, self.prefix = name, prefix
        # Notifications (deprecations, unknown property keys) are Neo4j's advice, not answers.
        self.driver = neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{port}", auth=None,
                                                 notifications_min_severity="OFF")
        self.session = self.driver.session(database="neo4j")

    def run(self, q: gen.Query) -> compare.Answer:
        text = self.prefix + q.text
        try:
            if q.writes:
                return self._write(q, text)
            result = self.session.run(neo4j.Query(text, timeout=TIMEOUT_S), q.params)
            records = [r.values() for r in result]
            return compare.answer_of(result.keys(), records, q.unordered)
        except Neo4jError as e:
            return self._failed(e)
        except Exception as e:  # a driver-level failure: broken connection, bad value
            self._reconnect()
            return compare.Answer(error=f"driver:{type(e).__name__}", message=str(e)[:300])

    def _write(self, q: gen.Query, text: str) -> compare.Answer:
        tx = self.session.begin_transaction(timeout=TIMEOUT_S)
        try:
            result = tx.run(text, q.params)
            records = [r.values() for r in result]
            summary = result.consume()
            answer = compare.answer_of(result.keys(), records, q.unordered,
                                       compare.counters_of(summary))
            after = q.shape.split(":", 1)[1]
            back = tx.run(self.prefix + after)
            answer.rows.append(("after",) + tuple(compare.norm(v) for v in back.single().values()))
            return answer
        finally:
            if not tx.closed():
                tx.rollback()

    def _failed(self, e: Neo4jError) -> compare.Answer:
        code = e.code or "unknown"
        timed_out = "Timeout" in code or "TransactionTimedOut" in code or "timed out" in str(e).lower()
        return compare.Answer(error=code, message=(e.message or "")[:300], timed_out=timed_out)

    def _reconnect(self):
        try:
            self.session.close()
        except Exception:
            pass
        self.session = self.driver.session(database="neo4j")

    def close(self):
        self.session.close()
        self.driver.close()


def setup(dataset: str, work: Path, kith_bin: Path, seed: int):
    """Starts kith and Neo4j on `dataset`; returns (kith, neo4j home, neo4j port)."""
    home = work / f"neo4j-{dataset}"
    data = work / f"kith-{dataset}"
    port = free_port()
    if dataset == "ldbc":
        src = SHARED / "ldbc-snb-interactive-test" / "vanilla"
        subprocess.run([str(kith_bin), "load", "ldbc", str(src), "--out", str(data)],
                       check=True, capture_output=True)
        env = dict(os.environ, KEEP_RUNNING="1")
        subprocess.run(["bash", str(PEER / "ldbc" / "load.sh"), str(src), str(home), str(port)],
                       check=True, env=env, capture_output=True)
        kith = Kith(kith_bin, data, work / f"kith-{dataset}.log")
    else:
        neo4j_peer("start", str(home), str(port))
        kith = Kith(kith_bin, data, work / f"kith-{dataset}.log")
        script = random_graph.script(seed)
        for p in (kith.bolt, port):
            with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{p}", auth=None) as d:
                for index in random_graph.INDEXES:
                    d.execute_query(index)
                d.execute_query(script)
    if dataset == "ldbc":
        # The Neo4j peer's load declares this index besides those `kith load ldbc`
        # makes: kith gets it too, so both answer from one schema.
        with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{kith.bolt}", auth=None) as d:
            d.execute_query("CREATE INDEX person_first_name IF NOT EXISTS "
                            "FOR (n:Person) ON (n.firstName)")
    return kith, home, port


def run_dataset(dataset: str, args, work: Path, kith_bin: Path, report: dict, out) -> None:
    kith, home, port = setup(dataset, work, kith_bin, args.seed)
    targets = {"neo4j": Target("neo4j", port), "kith": Target("kith", kith.bolt),
               "naive": Target("naive", kith.bolt, NAIVE)}
    try:
        with targets["kith"].driver.session(database="neo4j") as s:
            sch = schema.read(s)
        g = gen.Gen(sch, args.seed)
        stats = report.setdefault(dataset, collections.Counter())
        started = time.monotonic()
        variants = random.Random(args.seed)
        done = 0
        spent = collections.Counter()
        while done < args.count:
            template = g.query()
            stats["templates"] += 1
            for v in range(min(args.variants, args.count - done)):
                q = template if v == 0 else template.variant(variants)
                answers = {}
                for name, t in targets.items():
                    began = time.monotonic()
                    answers[name] = t.run(q)
                    spent[name] += time.monotonic() - began
                    if answers[name].timed_out:
                        break  # a query too slow for one is skipped for all
                classify(dataset, q, answers, stats, out, targets)
                done += 1
                if args.progress and done % args.progress == 0:
                    rate = done / (time.monotonic() - started)
                    times = {k: round(v, 1) for k, v in spent.items()}
                    print(f"{dataset}: {done} queries ({rate:.0f}/s), seconds by target {times}: "
                          f"{dict(stats)}", flush=True)
                    write_summary(args, report, args.started, finished=False)
    finally:
        for t in targets.values():
            t.close()
        kith.stop()
        neo4j_peer("stop", str(home))


RUNTIME_ERRORS = ("Neo.ClientError.Statement.TypeError", "Neo.ClientError.Statement.ArithmeticError",
                  "Neo.ClientError.Statement.ArgumentError")


def limited(a: compare.Answer) -> bool:
    return a.error == "Neo.ClientError.Statement.ExecutionFailed" and "held more than" in a.message


def filter_placement(pair, how, n4j, kith, naive) -> str | None:
    """kith's optimised plan raised a runtime error on a partial match (a WHERE
    conjunct placed as soon as its variables are bound) that its naive plan, which
    filters only whole matches, never reached, and the naive plan agrees with Neo4j."""
    kith_failed = (pair == "neo4j-kith" and how == "only_second_failed") or (
        pair == "kith-naive" and how == "only_first_failed")
    if kith_failed and kith.error in RUNTIME_ERRORS and compare.differ(n4j, naive, False) is None:
        return "evaluation-extent"
    # One side failed at run time where the other found no row at all: every row
    # failed some conjunct, and which conjunct is evaluated first (Neo4j reorders
    # them and folds constant ones; kith takes them as written) decides whether the
    # failing one is reached. Both of kith's plans must agree, so it is not a plan's.
    empty = lambda a: not a.failed and not a.rows  # noqa: E731
    if pair == "neo4j-kith" and how == "only_second_failed" and kith.error in RUNTIME_ERRORS \
            and naive.error in RUNTIME_ERRORS and empty(n4j):
        return "evaluation-extent"
    if pair == "neo4j-kith" and how == "only_first_failed" and n4j.error in RUNTIME_ERRORS \
            and empty(kith) and empty(naive):
        return "evaluation-extent"
    # The naive plan takes conjuncts as written, the optimised one folds constant
    # ones (`x AND false`): where both other answers found no row at all, the
    # conjunct the naive plan failed on decided nothing.
    if pair == "kith-naive" and how == "only_second_failed" and naive.error in RUNTIME_ERRORS \
            and empty(kith) and empty(n4j):
        return "evaluation-extent"
    # Both optimised plans (kith's and Neo4j's) evaluated a conjunct on a partial
    # match and failed; the naive plan, filtering whole matches only, did not.
    if (pair == "kith-naive" and how == "only_first_failed" and kith.error in RUNTIME_ERRORS
            and n4j.error in RUNTIME_ERRORS):
        return "evaluation-extent"
    return None


def evaluation_extent(pair, q, a, b, how, targets) -> str | None:
    """One side failed at run time on an ordered, limited query: if the query without
    its ORDER BY, SKIP and LIMIT gives both the same answer (both fail, or equal bags),
    the error came from a row only one plan evaluated."""
    failed = a if how == "only_first_failed" else b
    if not how.startswith("only_") or failed.error not in RUNTIME_ERRORS or " ORDER BY " not in q.text:
        return None
    whole = gen.Query(q.text[: q.text.rindex(" ORDER BY ")], q.params, False, q.unordered,
                      q.writes, q.shape)
    first, second = pair.split("-")
    if compare.differ(targets[first].run(whole), targets[second].run(whole), False) is None:
        return "evaluation-extent"
    return None


def classify(dataset, q, answers, stats, out, targets) -> None:
    stats["queries"] += 1
    stats[f"shape:{q.shape.split(':')[0]}"] += 1
    if len(answers) < 3 or any(a.timed_out for a in answers.values()):
        stats["timed out (skipped)"] += 1
        return
    n4j, kith, naive = answers["neo4j"], answers["kith"], answers["naive"]
    if limited(naive) and not limited(kith):
        # The naive plan's cartesian products may pass the row bound where the
        # optimised plan expands: no answer to compare (as in the fuzz target).
        answers = dict(answers, naive=kith)
        naive = kith
        stats["naive plan over the row bound (not compared)"] += 1
    stats["both answered" if not (n4j.failed or kith.failed) else
          "both failed" if (n4j.failed and kith.failed) else "one failed"] += 1
    for pair, (a, b) in {"neo4j-kith": (n4j, kith), "kith-naive": (kith, naive)}.items():
        how = compare.differ(a, b, q.ordered)
        if how is None:
            continue
        reason = (known.explain(pair, q, a, b, how)
                  or filter_placement(pair, how, n4j, kith, naive)
                  or evaluation_extent(pair, q, a, b, how, targets))
        if reason:
            stats[f"explained: {reason}"] += 1
            continue
        stats[f"UNEXPLAINED {pair} {how}"] += 1
        out.write(json.dumps({
            "dataset": dataset, "pair": pair, "how": how, "query": q.text, "params": q.params,
            "ordered": q.ordered, "first": describe(a), "second": describe(b),
        }, default=str) + "\n")
        out.flush()


def describe(a: compare.Answer) -> dict:
    if a.failed:
        return {"error": a.error, "message": a.message}
    return {"columns": a.columns, "rows": repr(a.rows[:10]), "row_count": len(a.rows),
            "counters": a.counters}


def write_summary(args, report: dict, started: float, finished: bool) -> dict:
    """Writes OUT/summary.json: at the end, and at every progress line so that a long
    run stopped part way still has its counts."""
    summary = {"seed": args.seed, "count_per_dataset": args.count, "variants": args.variants,
               "seconds": round(time.monotonic() - started, 1), "finished": finished,
               "datasets": {d: dict(sorted(c.items())) for d, c in report.items()}}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=1000, help="queries per data set")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--datasets", default="ldbc,random")
    p.add_argument("--out", type=Path, default=ROOT / "target" / "difftest")
    p.add_argument("--work", type=Path, default=None)
    p.add_argument("--progress", type=int, default=0, help="print counts every N queries")
    p.add_argument("--variants", type=int, default=1,
                   help="queries per generated text: its own parameters, then others drawn "
                        "from the graph's values (a plan cache answers them without planning)")
    args = p.parse_args()
    kith_bin = Path(os.environ.get("KITH_BIN", ROOT / "target" / "release" / "kith"))
    args.out.mkdir(parents=True, exist_ok=True)
    work = args.work or Path(tempfile.mkdtemp(prefix="kith-difftest-"))
    work.mkdir(parents=True, exist_ok=True)
    neo4j_peer("build")
    report: dict = {}
    started = args.started = time.monotonic()
    with (args.out / "differences.jsonl").open("w") as out:
        for dataset in args.datasets.split(","):
            run_dataset(dataset, args, work, kith_bin, report, out)
    summary = write_summary(args, report, started, finished=True)
    print(json.dumps(summary, indent=2))
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    unexplained = sum(n for c in report.values() for k, n in c.items() if k.startswith("UNEXPLAINED"))
    if unexplained:
        print(f"{unexplained} unexplained differences: {args.out / 'differences.jsonl'}")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
