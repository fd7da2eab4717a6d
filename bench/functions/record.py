"""Neo4j 5.26's function catalogue and answers, recorded from the real Neo4j.

    record.py [--port P] [--check P]

Runs every case of crates/kith-cypher/tests/fixtures/functions/cases.cypher on a
Neo4j 5.26 (one that `--port` names, or one it starts with ../peers/neo4j/neo4j.sh in
a scratch home) and writes its answers to neo4j-5.26-cases.json beside the cases,
and its `SHOW FUNCTIONS` to neo4j-5.26-show-functions.json. kith's test
(crates/kith-cypher/tests/functions.rs) compares kith's answers with these files.

`--check P` instead runs the cases on the server at Bolt port P (kith, or a Neo4j
again) and reports every case whose answer differs from the recorded one: it exits 1
on any. Answers are encoded the same way in both: floats as their 12 significant
digits (Java's and Rust's libm may differ in the last bits), integers, strings,
booleans and null as JSON, lists and maps as JSON with a tag, an error as its code.
"""
from __future__ import annotations

import argparse
import json
import math
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import neo4j
import neo4j.exceptions

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "crates" / "kith-cypher" / "tests" / "fixtures" / "functions"
PEER = ROOT / "bench" / "peers" / "neo4j" / "neo4j.sh"
CLAUSES = ("RETURN ", "UNWIND ", "WITH ", "MATCH ", "OPTIONAL ", "CALL ")


def cases(path: Path = FIXTURES / "cases.cypher") -> list[str]:
    """The cases' queries, in file order (an expression line becomes `RETURN e AS v`)."""
    out = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        out.append(line if line.startswith(CLAUSES) else f"RETURN {line} AS v")
    return out


def encode(v):
    """A driver value as the fixture's JSON (see the module's doc)."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return {"float": "NaN"}
        if math.isinf(v):
            return {"float": "Infinity" if v > 0 else "-Infinity"}
        return {"float": f"{v:.12g}"}
    if isinstance(v, (list, tuple)):
        return {"list": [encode(x) for x in v]}
    if isinstance(v, dict):
        return {"map": {k: encode(x) for k, x in v.items()}}
    raise TypeError(f"the cases return no {type(v).__name__}: wrap it in toString()")


def answer(session, query: str):
    try:
        result = session.run(query)
        return {"rows": [[encode(x) for x in r.values()] for r in result]}
    except neo4j.exceptions.Neo4jError as e:
        return {"error": e.code}


def run_all(port: int) -> list[dict]:
    with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{port}", auth=None) as d:
        with d.session(database="neo4j") as s:
            return [{"query": q, **answer(s, q)} for q in cases()]


def show_functions(port: int) -> list[dict]:
    query = ("SHOW FUNCTIONS YIELD name, category, signature, aggregating, "
             "argumentDescription, returnDescription RETURN * ORDER BY name, signature")
    with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{port}", auth=None) as d:
        records, _, _ = d.execute_query(query)
    rows = []
    for r in records:
        args = [{"name": a["name"], "type": a["type"],
                 **({"default": a["default"]} if a.get("default") is not None else {})}
                for a in r["argumentDescription"]]
        rows.append({"name": r["name"], "category": r["category"], "signature": r["signature"],
                     "aggregating": r["aggregating"], "arguments": args,
                     "returns": r["returnDescription"]})
    return rows


def differs(got: dict, want: dict) -> bool:
    """Errors by class (both fail, or neither); values exactly as encoded."""
    if "error" in want or "error" in got:
        return ("error" in want) != ("error" in got)
    # rand(), randomUUID() and timestamp() are asked only through comparisons.
    return got["rows"] != want["rows"]


def check(port: int) -> int:
    recorded = json.loads((FIXTURES / "neo4j-5.26-cases.json").read_text())["cases"]
    want = {c["query"]: c for c in recorded}
    bad = 0
    for got in run_all(port):
        w = want.get(got["query"])
        if w is None:
            print(f"not recorded (run record.py): {got['query']}")
            bad += 1
        elif differs(got, w):
            print(f"{got['query']}\n  recorded: {w}\n  got:      {got}")
            bad += 1
    print(f"{len(recorded)} cases, {bad} differ")
    return 1 if bad else 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def record(port: int | None) -> int:
    home = None
    if port is None:
        home, port = Path(tempfile.mkdtemp(prefix="kith-functions-")), free_port()
        subprocess.run(["bash", str(PEER), "start", str(home), str(port)], check=True)
    try:
        answers = run_all(port)
        catalogue = show_functions(port)
    finally:
        if home is not None:
            subprocess.run(["bash", str(PEER), "stop", str(home)], check=False)
            shutil.rmtree(home, ignore_errors=True)
    source = "Neo4j 5.26 Community (bench/peers/neo4j), by bench/functions/record.py"
    (FIXTURES / "neo4j-5.26-cases.json").write_text(
        json.dumps({"source": source, "cases": answers}, indent=1, ensure_ascii=False) + "\n")
    (FIXTURES / "neo4j-5.26-show-functions.json").write_text(
        json.dumps({"source": source, "functions": catalogue}, indent=1) + "\n")
    print(f"{len(answers)} cases and {len(catalogue)} functions recorded in {FIXTURES}")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, help="a running Neo4j's Bolt port (else one is started)")
    p.add_argument("--check", type=int, metavar="PORT",
                   help="compare the server at this Bolt port with the recorded answers")
    args = p.parse_args()
    return check(args.check) if args.check else record(args.port)


if __name__ == "__main__":
    sys.exit(main())
