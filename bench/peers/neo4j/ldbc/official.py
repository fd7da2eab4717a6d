"""Run the official LDBC SNB Interactive Cypher texts, unmodified, on Neo4j and keep the answers.

The texts are `../shared/data/ldbc-cypher/interactive-{short,complex,update}-N.cypher`
(ldbc/ldbc_snb_interactive_v1_impls, Apache 2.0). Each file is read as bytes, decoded as
UTF-8 and sent as is; only the parameters come from here, as the reference driver passes
them: ids, dates (epoch ms) and integers as 64-bit integers, strings as strings, and for
IC3/IC4 `endDate = startDate + durationDays * 86400000` in place of `durationDays`.

The parameter cases are those of the spec-written oracle (oracle.py): they are read from
ORACLE/<query>.json ("cases"[i]["params"]), so case i of both files is the same call.
The answers go to OUT/<query>.json in the oracle's format ({"procedure", "dataset",
"columns", "order", "generated_by", "replayed_events", "neo4j", "cases": [{"params",
"rows"}]}) plus "text" (the file) and "text_sha256". Columns are named as the text
names them, params are the ones sent, values are what the driver returns (ints stay
ints, floats floats). The lists whose order the specification leaves open (IC1's
e-mails, languages, universities and companies; IC12's tag names) are written sorted,
as oracle.py does, and named in "sorted_lists"; IC14's rows keep Neo4j's pathWeight
order, with the paths of equal weight sorted (Neo4j's order among them varies). A query that fails in Neo4j gives the
case {"params", "error"} instead of "rows".

With --streams, the update stream is replayed first with the official IU1..IU8 texts
(events in timestamp order as updates.py reads them): the first N events, where N is
the oracle fixtures' "replayed_events" (the whole stream when they lack it).

usage: official.py --port 7698 --dataset NAME --oracle FIXTURES_DIR --out OUT_DIR [--probes DIR]
                   [--texts ldbc-cypher/] [--streams STREAM_DIR]
"""
import argparse
import glob
import hashlib
import json
import os
import sys
import time

import neo4j

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import updates as U  # noqa: E402

DAY_MS = 86_400_000
# Lists with no order in the specification: written sorted (by their JSON text).
OPEN_LISTS = {"ldbc.ic1": {"friendEmails", "friendLanguages", "friendUniversities", "friendCompanies"},
              "ldbc.ic12": {"tagNames"}}
ORDER = {"ldbc.ic14": "the text orders by pathWeight desc only: paths of equal weight are a set, "
                      "written sorted by personIdsInPath"}
GENERATED_BY = "bench/peers/neo4j/ldbc/regen.sh (official.py)"


def text_file(procedure):
    kind, n = procedure.split(".")[1][:2], int(procedure.split(".")[1][2:])
    return f"interactive-{'short' if kind == 'is' else 'complex'}-{n}.cypher"


def read_text(texts, name):
    raw = open(os.path.join(texts, name), "rb").read()
    return raw.decode("utf-8"), hashlib.sha256(raw).hexdigest()


def driver_params(procedure, params):
    """The reference driver's parameters: IC3/IC4 get endDate instead of durationDays."""
    if procedure not in ("ldbc.ic3", "ldbc.ic4"):
        return dict(params)
    out = {}
    for k, v in params.items():
        if k == "durationDays":
            out["endDate"] = params["startDate"] + v * DAY_MS
        else:
            out[k] = v
    return out


def plain(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    raise TypeError(f"unexpected value from Neo4j: {type(v).__name__} {v!r}")


def normalise(procedure, columns, row):
    out = []
    for c, v in zip(columns, row):
        v = plain(v)
        if c in OPEN_LISTS.get(procedure, ()) and isinstance(v, list):
            v = sorted(v, key=lambda x: json.dumps(x, ensure_ascii=False))
        out.append(v)
    return out


def canonical_order(procedure, rows):
    """IC14 orders by pathWeight only; Neo4j's order among equal weights varies from run to
    run, so equal-weight paths are written sorted (the weights' sequence is Neo4j's)."""
    if procedure != "ldbc.ic14":
        return rows
    weights = [r[1] for r in rows]
    assert weights == sorted(weights, reverse=True), f"IC14 rows not in pathWeight desc order: {weights}"
    return sorted(rows, key=lambda r: (-r[1], json.dumps(r[0])))


def replay(session, texts, events, batch):
    """IU1..IU8 texts over the events; returns per-operation counts and write counters."""
    iu = {op: read_text(texts, f"interactive-update-{op}.cypher")[0] for op in range(1, 9)}
    stats = {op: {"events": 0, "no_write": 0, "nodes": 0, "rels": 0} for op in range(1, 9)}
    t0 = time.time()
    for start in range(0, len(events), batch):
        with session.begin_transaction() as tx:
            for _, _, op, params in events[start:start + batch]:
                c = tx.run(iu[op], params).consume().counters
                st = stats[op]
                st["events"] += 1
                st["nodes"] += c.nodes_created
                st["rels"] += c.relationships_created
                if not c.contains_updates:
                    st["no_write"] += 1
            tx.commit()
        if (start // batch) % 10 == 0:
            print(f"official: {min(start + batch, len(events))}/{len(events)} events, {time.time() - t0:.0f} s",
                  file=sys.stderr)
    print(f"official: replayed {len(events)} events with the IU texts in {time.time() - t0:.1f} s", file=sys.stderr)
    for op, st in stats.items():
        print(f"official:   IU{op}: {st}", file=sys.stderr)
    return stats


PROBE_PAIRS = """
MATCH (a:Person) WHERE EXISTS { (a)-[:KNOWS]-() } WITH min(a.id) AS linked
MATCH (b:Person) WHERE NOT EXISTS { (b)-[:KNOWS]-() }
RETURN linked, min(b.id) AS isolated, max(b.id) AS isolated2
"""


def probe(session, texts, out, dataset, version):
    """IC13 and IC14 on the pairs the parameter files do not hold: two existing persons
    with no path between them (one has no KNOWS at all; two such), a person with
    himself, and persons that do not exist."""
    linked, isolated, isolated2 = session.run(PROBE_PAIRS).single().values()
    missing = 1  # checked: no person has this id
    if session.run("MATCH (p:Person {id: $id}) RETURN count(p) AS c", id=missing).single()["c"]:
        sys.exit("official: person 1 exists; pick another id for the probes")
    pairs = [(linked, isolated, "no path: the second person has no KNOWS"),
             (isolated, linked, "no path, reversed"),
             (isolated, isolated2, "no path: neither has KNOWS"),
             (linked, linked, "the same person twice"),
             (isolated, isolated, "the same person twice, no KNOWS"),
             (linked, missing, "the second person does not exist"),
             (missing, linked, "the first person does not exist"),
             (missing, missing, "the same missing person twice")]
    os.makedirs(out, exist_ok=True)
    for name in ("ldbc.ic13", "ldbc.ic14"):
        file = text_file(name)
        text, digest = read_text(texts, file)
        cases, columns = [], None
        for a, b, what in pairs:
            params = {"person1Id": a, "person2Id": b}
            try:
                result = session.run(text, params)
                keys = result.keys()
                rows = canonical_order(name, [normalise(name, keys, r) for r in result.values()])
                columns = columns or list(keys)
                cases.append({"probe": what, "params": params, "rows": rows})
            except neo4j.exceptions.Neo4jError as e:
                cases.append({"probe": what, "params": params, "error": f"{e.code}: {e.message}"})
        doc = {"procedure": name, "dataset": dataset, "text": file, "text_sha256": digest, "columns": columns,
               "order": ORDER.get(name, "total"), "sorted_lists": [], "generated_by": GENERATED_BY,
               "replayed_events": None, "neo4j": version, "cases": cases}
        path = os.path.join(out, name.split(".")[1] + ".json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False, indent=None, separators=(",", ":"))
            f.write("\n")
        for c in cases:
            print(f"official: probe {name} {c['params']} ({c['probe']}): "
                  f"{c['rows'] if 'rows' in c else c['error'][:70]}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=7698)
    ap.add_argument("--dataset", required=True, help="name written into the fixtures")
    ap.add_argument("--oracle", required=True, help="the spec oracle's fixtures (the parameter cases)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--texts", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                    "../../../../../shared/data/ldbc-cypher"))
    ap.add_argument("--streams", help="replay this update stream with the IU texts first")
    ap.add_argument("--batch", type=int, default=500, help="update events per transaction")
    ap.add_argument("--probes", metavar="DIR", help="also write the IC13/IC14 probes (see probe()) to DIR")
    ap.add_argument("--only", help="comma-separated queries (ic13,is7) to run; default all")
    a = ap.parse_args()

    files = sorted(glob.glob(os.path.join(a.oracle, "*.json")))
    if not files:
        sys.exit(f"official: no fixtures in {a.oracle}")
    oracle = [json.load(open(f, encoding="utf-8")) for f in files]
    replayed = {d.get("replayed_events") for d in oracle}
    if len(replayed) != 1:
        sys.exit(f"official: the oracle fixtures disagree on replayed_events: {replayed}")
    replayed = replayed.pop()
    if a.only:
        keep = {f"ldbc.{q}" for q in a.only.split(",")}
        oracle = [d for d in oracle if d["procedure"] in keep]
    os.makedirs(a.out, exist_ok=True)
    try:
        driver = neo4j.GraphDatabase.driver(f"bolt://{a.host}:{a.port}", auth=None)
        driver.verify_connectivity()
    except (neo4j.exceptions.ServiceUnavailable, OSError) as e:
        sys.exit(f"official: cannot reach Neo4j at bolt://{a.host}:{a.port}: {e}")
    with driver, driver.session(database="neo4j") as s:
        version = s.run("CALL dbms.components() YIELD versions RETURN versions[0] AS v").single()["v"]
        if a.streams:
            events = U.read_events(a.streams)
            if replayed is not None:
                events = events[:replayed]
            replayed = len(events)
            replay(s, a.texts, events, a.batch)
        elif replayed is not None:
            sys.exit("official: the oracle fixtures were taken after updates; pass --streams")
        if a.probes:
            probe(s, a.texts, a.probes, a.dataset, version)
        t_all = time.time()
        for spec in oracle:
            name = spec["procedure"]
            file = text_file(name)
            text, digest = read_text(a.texts, file)
            t0 = time.time()
            out_cases, columns, rows_total, errors = [], None, 0, 0
            for case in spec["cases"]:
                params = driver_params(name, case["params"])
                try:
                    result = s.run(text, params)
                    keys = result.keys()
                    rows = canonical_order(name, [normalise(name, keys, r) for r in result.values()])
                except neo4j.exceptions.Neo4jError as e:
                    errors += 1
                    out_cases.append({"params": params, "error": f"{e.code}: {e.message}"})
                    continue
                columns = columns or list(keys)
                rows_total += len(rows)
                out_cases.append({"params": params, "rows": rows})
            doc = {
                "procedure": name,
                "dataset": a.dataset,
                "text": file,
                "text_sha256": digest,
                "columns": columns,
                "order": ORDER.get(name, "total"),
                "sorted_lists": sorted(OPEN_LISTS.get(name, ())),
                "generated_by": GENERATED_BY,
                "replayed_events": replayed,
                "neo4j": version,
                "cases": out_cases,
            }
            path = os.path.join(a.out, name.split(".")[1] + ".json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(doc, f, ensure_ascii=False, indent=None, separators=(",", ":"))
                f.write("\n")
            print(f"official: {name:<10} {len(out_cases):>3} cases, {rows_total:>5} rows, {errors} errors, "
                  f"{time.time() - t0:.1f} s -> {path}", file=sys.stderr)
        print(f"official: reads took {time.time() - t_all:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
