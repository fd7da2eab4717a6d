"""Run the LDBC reads on Neo4j and write kith's test fixtures.

For every substitution-parameter line of IC1..IC14 and for IS1..IS7 on chosen persons
and messages, the Cypher of queries.py runs over Bolt and the rows are written to
FIXTURES/<query>.json in the format crates/kith-ldbc/tests/oracle.rs reads:
{"procedure", "dataset", "columns", "order", "generated_by", "neo4j", "cases": [{"params", "rows"}]}.

Lists whose order the specification leaves open are written sorted. The persons for
IS1..IS3 are every k-th person by id (COUNT of them); the messages for IS4..IS7 are
every k-th post and every k-th comment by id (COUNT/2 each), read from the CSVs.

usage: oracle.py --port 7698 --src SRC_DIR --params PARAMS_DIR --dataset NAME --out FIXTURES
"""
import argparse
import glob
import json
import os
import sys
import time

import neo4j

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import queries as Q  # noqa: E402

INT_PARAMS = {"personId", "person1Id", "person2Id", "maxDate", "startDate", "durationDays", "minDate",
              "month", "workFromYear", "messageId"}
OPEN_LISTS = {"ldbc.ic1": {"friendEmails", "friendLanguages", "friendUniversities", "friendCompanies"},
              "ldbc.ic12": {"tagNames"}}
ORDER = {
    "ldbc.ic14": "sorted by pathWeight desc; paths of equal weight as a set",
}


def ids(src, table):
    out = []
    for f in sorted(glob.glob(os.path.join(src, "dynamic", f"{table}_*_*.csv"))):
        if not os.path.basename(f)[len(table) + 1:-4].replace("_", "").isdigit():
            continue
        with open(f, encoding="utf-8") as r:
            next(r)
            out += [int(line.split("|", 1)[0]) for line in r if line.strip()]
    return sorted(out)


def every_kth(values, count):
    step = max(len(values) // max(count, 1), 1)
    return values[::step][:count]


def param_lines(params_dir, n):
    path = os.path.join(params_dir, f"interactive_{n}_param.txt")
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("|")
        for line in f:
            line = line.rstrip("\n")
            if line:
                yield {k: (int(v) if k in INT_PARAMS else v) for k, v in zip(header, line.split("|"))}


def normalise(name, columns, row):
    out = []
    for c, v in zip(columns, row):
        if c in OPEN_LISTS.get(name, ()) and isinstance(v, list):
            v = sorted(v, key=lambda x: json.dumps(x, ensure_ascii=False))
        out.append(v)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=7698)
    ap.add_argument("--src", required=True, help="the data set (static/, dynamic/)")
    ap.add_argument("--params", required=True, help="substitution_parameters/")
    ap.add_argument("--dataset", required=True, help="name written into the fixtures (test, sf0.1)")
    ap.add_argument("--out", required=True, help="fixture directory to write")
    ap.add_argument("--short", type=int, default=50, help="persons and messages for IS1..IS7")
    ap.add_argument("--after-updates", metavar="STREAM_DIR",
                    help="the graph has had these update streams replayed: the short reads also "
                         "take the first --short persons and messages the streams added")
    ap.add_argument("--replayed", type=int, help="with --after-updates: only the first N events were replayed")
    a = ap.parse_args()

    persons = every_kth(ids(a.src, "person"), a.short)
    messages = every_kth(ids(a.src, "post"), a.short // 2) + every_kth(ids(a.src, "comment"), a.short - a.short // 2)
    if a.after_updates:
        import updates
        events = updates.read_events(a.after_updates)[:a.replayed]
        persons += [e[3]["personId"] for e in events if e[2] == 1][:a.short]
        messages += [e[3]["postId"] for e in events if e[2] == 6][:a.short // 2]
        messages += [e[3]["commentId"] for e in events if e[2] == 7][:a.short - a.short // 2]
    calls = {}
    for n in range(1, 8):
        calls[f"ldbc.is{n}"] = ([{"personId": p} for p in persons] if n <= 3
                                else [{"messageId": m} for m in messages])
    for n in range(1, 15):
        calls[f"ldbc.ic{n}"] = list(param_lines(a.params, n))

    if a.after_updates:
        import updates  # noqa: F811
    os.makedirs(a.out, exist_ok=True)
    command = "bench/peers/neo4j/ldbc/regen.sh"
    try:
        driver = neo4j.GraphDatabase.driver(f"bolt://{a.host}:{a.port}", auth=None)
        driver.verify_connectivity()
    except (neo4j.exceptions.ServiceUnavailable, OSError) as e:
        sys.exit(f"oracle: cannot reach Neo4j at bolt://{a.host}:{a.port}: {e}")
    with driver, driver.session(database="neo4j") as s:
        version = s.run("CALL dbms.components() YIELD versions RETURN versions[0] AS v").single()["v"]
        for name, cases in calls.items():
            t0 = time.time()
            out_cases, columns, rows_total = [], None, 0
            for p in cases:
                result = s.run(Q.cypher(name, p), Q.params_for(name, p))
                keys = result.keys()
                rows = [normalise(name, keys, r) for r in result.values()]
                columns = columns or list(keys)
                rows_total += len(rows)
                out_cases.append({"params": p, "rows": rows})
            doc = {
                "procedure": name,
                "dataset": a.dataset,
                "columns": columns,
                "order": ORDER.get(name, "total"),
                "generated_by": command,
                "replayed_events": (len(updates.read_events(a.after_updates)[:a.replayed])
                                    if a.after_updates else None),
                "neo4j": version,
                "cases": out_cases,
            }
            path = os.path.join(a.out, name.split(".")[1] + ".json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(doc, f, ensure_ascii=False, indent=None, separators=(",", ":"))
                f.write("\n")
            print(f"oracle: {name:<10} {len(out_cases):>3} cases, {rows_total:>5} rows, "
                  f"{time.time() - t0:.1f} s -> {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
