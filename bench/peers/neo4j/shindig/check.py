"""Check that Neo4j's answers to the 19 S1 Cypher queries equal kith's native procedures.

For each query of queries.json (written by `kith bench shindig --out RUN_DIR`) and its
first K parameter sets, asks kith (HTTP, `POST /v1/call/{procedure}`) and Neo4j (Bolt,
queries.py) and compares the columns and the rows, exactly and in order. Prints one line
per query and, for a mismatch, the first differing row. Exit status 1 on any mismatch,
2 when a server cannot be reached or a query fails.

Run it with the Neo4j peer's venv:

    bench/peers/neo4j/.venv/bin/python bench/peers/neo4j/shindig/check.py \\
        --port 7699 --queries RUN_DIR/queries.json --data DATA_DIR [-k 5]

With --data it starts `kith serve --data DATA_DIR` on a free port for the check and stops
it afterwards; --kith-url http://127.0.0.1:PORT uses a kith server that is already running.

Representation differences, normalised explicitly (nothing else is):
  - DateTime: kith's JSON has {"$datetime": epoch ms} (docs/protocol.md 1.6); the Neo4j
    driver gives neo4j.time.DateTime (the CSV import stores kith's "...T..:..:..mmmZ" as a
    zoned datetime at offset +00:00). Both become ("datetime", epoch ms). A Neo4j value
    with a sub-millisecond part is kept as ("datetime_ns", epoch ns) and so never equals.
  - Maps: compared as maps (key order ignored): kith's JSON objects keep insertion order,
    Neo4j maps have none. Keys and values must match exactly.
  - Ints, floats, strings, booleans and null are compared with their type (true != 1,
    1 != 1.0); floats exactly (both are IEEE doubles; kith's JSON prints the shortest
    round-tripping form). No query here returns a float.
  - Errors: kith answers unknown subject ids with `not_found`; the Cypher gives no rows.
    The benchmark's parameters never hit that case; if they did it shows as a mismatch.

Order: every one of the 19 contracts fixes a total order (ties broken by id) or returns at
most one row, so rows are compared in order for all of them. A query listed in
UNORDERED would be compared as a multiset; the list is empty.
"""

import argparse
import datetime as _dt
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import neo4j
import neo4j.time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import queries as Q  # noqa: E402

# Queries whose contract leaves the row order open (compared as multisets): none of the 19.
UNORDERED = set()

_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


def canon_kith(v):
    """kith JSON value -> canonical tagged form."""
    if v is None:
        return ("null",)
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, int):
        return ("int", v)
    if isinstance(v, float):
        return ("float", v)
    if isinstance(v, str):
        return ("str", v)
    if isinstance(v, list):
        return ("list", tuple(canon_kith(x) for x in v))
    if isinstance(v, dict):
        if list(v) == ["$datetime"] and isinstance(v["$datetime"], int):
            return ("datetime", v["$datetime"])
        return ("map", tuple(sorted((k, canon_kith(x)) for k, x in v.items())))
    raise TypeError(f"unexpected kith JSON value {v!r}")


def neo4j_datetime_ms(v):
    """Epoch ms of a Neo4j DateTime (exact integer arithmetic), or None with a ns remainder."""
    if v.tzinfo is None:
        raise ValueError(f"local datetime without a zone: {v}")
    native = v.to_native()  # microsecond precision, tz-aware
    delta = native - _EPOCH
    micros = (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
    nanos = micros * 1000 + v.nanosecond % 1000
    return nanos


def canon_neo4j(v):
    """Neo4j driver value -> canonical tagged form."""
    if v is None:
        return ("null",)
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, int):
        return ("int", v)
    if isinstance(v, float):
        return ("float", v)
    if isinstance(v, str):
        return ("str", v)
    if isinstance(v, (list, tuple)):
        return ("list", tuple(canon_neo4j(x) for x in v))
    if isinstance(v, dict):
        return ("map", tuple(sorted((k, canon_neo4j(x)) for k, x in v.items())))
    if isinstance(v, neo4j.time.DateTime):
        ns = neo4j_datetime_ms(v)
        if ns % 1_000_000:
            return ("datetime_ns", ns)
        return ("datetime", ns // 1_000_000)
    raise TypeError(f"unexpected Neo4j value {v!r} ({type(v).__name__})")


def show(c):
    """Canonical form -> readable text."""
    tag = c[0]
    if tag == "null":
        return "null"
    if tag in ("bool", "int", "float"):
        return json.dumps(c[1])
    if tag == "str":
        s = json.dumps(c[1], ensure_ascii=False)
        return s if len(s) <= 60 else s[:57] + '..."'
    if tag == "datetime":
        t = _EPOCH + _dt.timedelta(milliseconds=c[1])
        return f"datetime({t.strftime('%Y-%m-%dT%H:%M:%S')}.{c[1] % 1000:03d}Z={c[1]})"
    if tag == "datetime_ns":
        return f"datetime_ns({c[1]})"
    if tag == "list":
        return "[" + ", ".join(show(x) for x in c[1]) + "]"
    if tag == "map":
        return "{" + ", ".join(f"{k}: {show(x)}" for k, x in c[1]) + "}"
    return repr(c)


def show_row(columns, row):
    if row is None:
        return "(no row)"
    return "{" + ", ".join(f"{k}={show(v)}" for k, v in zip(columns, row[1])) + "}"


# --- kith over HTTP -------------------------------------------------------------------

class KithHttp:
    def __init__(self, url):
        self.url = url.rstrip("/")

    def call(self, procedure, params):
        body = json.dumps(params).encode()
        req = urllib.request.Request(f"{self.url}/v1/call/{procedure}", data=body,
                                     headers={"Content-Type": "application/json"}, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                doc = json.loads(r.read())
        except urllib.error.HTTPError as e:
            return None, f"kith error {e.code}: {e.read().decode(errors='replace')[:300]}"
        return doc, None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_kith(kith, data):
    port = free_port()
    proc = subprocess.Popen([kith, "serve", "--data", data, "--listen", f"127.0.0.1:{port}", "--bolt-listen", "off"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "RUST_LOG": "warn"})
    deadline = time.time() + 120
    url = f"http://127.0.0.1:{port}"
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"check: kith serve exited: {proc.stderr.read().decode(errors='replace')}")
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2) as r:
                if r.status == 200:
                    return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("check: kith serve did not answer /health within 120 s")


# --- comparison -----------------------------------------------------------------------

def compare(procedure, kith_doc, neo_cols, neo_rows):
    """None if equal, else a description of the first difference."""
    kcols = kith_doc["columns"]
    if kcols != neo_cols:
        return f"columns differ: kith {kcols} vs neo4j {neo_cols}"
    krows = [tuple(canon_kith(v) for v in r) for r in kith_doc["rows"]]
    nrows = [tuple(canon_neo4j(v) for v in r) for r in neo_rows]
    if procedure in UNORDERED:
        krows_s, nrows_s = sorted(krows), sorted(nrows)
        if krows_s == nrows_s:
            return None
        krows, nrows = krows_s, nrows_s
    if krows == nrows:
        return None
    for i in range(max(len(krows), len(nrows))):
        k = krows[i] if i < len(krows) else None
        n = nrows[i] if i < len(nrows) else None
        if k != n:
            lines = [f"{len(krows)} rows from kith, {len(nrows)} from neo4j; first difference at row {i}:",
                     f"  kith:  {show_row(kcols, (i, k) if k else None)}",
                     f"  neo4j: {show_row(kcols, (i, n) if n else None)}"]
            if k and n:
                diff = [c for c, a, b in zip(kcols, k, n) if a != b]
                lines.append(f"  columns that differ: {', '.join(diff)}")
            return "\n".join(lines)
    return "rows differ"


def check_variants(a, suite, kith_url):
    """Checks VARIANTS against kith on their `compare` columns; counts the calls where the
    other columns differ (allowed). Returns the number of variants that fail."""
    kith = KithHttp(kith_url)
    failed = 0
    with neo4j.GraphDatabase.driver(f"bolt://{a.host}:{a.port}", auth=None) as driver:
        with driver.session(database=a.database) as session:
            for name, v in Q.VARIANTS.items():
                q = next((q for q in suite if q["procedure"] == v["procedure"]), None)
                if q is None:
                    continue
                sets = q["params"] if a.k == 0 else q["params"][:a.k]
                other_differs, problem = 0, None
                for params in sets:
                    kdoc, kerr = kith.call(v["procedure"], params)
                    res = session.run(Q.cypher(name), Q.with_defaults(name, params))
                    ncols, nrows = list(res.keys()), res.values()
                    if kerr or ncols != kdoc["columns"]:
                        problem = (params, kerr or f"columns {ncols} vs {kdoc['columns']}")
                        break
                    idx = [ncols.index(c) for c in v["compare"]]
                    krows = [tuple(canon_kith(r[i]) for i in idx) for r in kdoc["rows"]]
                    nr = [tuple(canon_neo4j(r[i]) for i in idx) for r in nrows]
                    if krows != nr:
                        problem = (params, f"{v['compare']}: kith {[[show(x) for x in r] for r in krows]} "
                                           f"vs neo4j {[[show(x) for x in r] for r in nr]}")
                        break
                    full_k = [tuple(canon_kith(x) for x in r) for r in kdoc["rows"]]
                    full_n = [tuple(canon_neo4j(x) for x in r) for r in nrows]
                    other_differs += full_k != full_n
                if problem:
                    failed += 1
                    print(f"MISMATCH variant {name} with {json.dumps(problem[0])}:\n  {problem[1]}")
                else:
                    print(f"ok       variant {name}: {', '.join(v['compare'])} equal in {len(sets)} calls; "
                          f"the other columns differ in {other_differs} of them (not promised)")
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1", help="Neo4j host")
    ap.add_argument("--port", type=int, required=True, help="Neo4j Bolt port")
    ap.add_argument("--database", default="neo4j")
    ap.add_argument("--queries", required=True, help="RUN_DIR/queries.json from `kith bench shindig --out RUN_DIR`")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--data", help="kith data directory: start `kith serve` on it for the check")
    g.add_argument("--kith-url", help="a running kith server, e.g. http://127.0.0.1:7600")
    ap.add_argument("--kith", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "../../../../target/release/kith"),
                    help="the kith binary (for --data)")
    ap.add_argument("-k", type=int, default=5, help="parameter sets per query (first K; 0 = all)")
    ap.add_argument("--only", help="comma-separated procedure names or numbers")
    ap.add_argument("--verbose", "-v", action="store_true", help="print every call")
    ap.add_argument("--variants", action="store_true",
                    help="also check queries.py VARIANTS on the columns they promise (reported, never fatal for the others)")
    a = ap.parse_args()

    with open(a.queries) as f:
        suite = json.load(f)
    if a.only:
        want = set(a.only.split(","))
        suite = [q for q in suite if q["procedure"] in want or str(q["number"]) in want]
    missing = [q["procedure"] for q in suite if q["procedure"] not in Q.QUERIES]
    if missing:
        sys.exit(f"check: no Cypher for {missing}")

    kith_proc = None
    if a.data:
        kith_proc, url = start_kith(os.path.abspath(a.kith), a.data)
    else:
        url = a.kith_url
    kith = KithHttp(url)

    failed = 0
    total_rows = 0
    try:
        with neo4j.GraphDatabase.driver(f"bolt://{a.host}:{a.port}", auth=None) as driver:
            driver.verify_connectivity()
            with driver.session(database=a.database) as session:
                for q in suite:
                    proc = q["procedure"]
                    sets = q["params"] if a.k == 0 else q["params"][:a.k]
                    rows_seen = 0
                    problem = None
                    for params in sets:
                        kdoc, kerr = kith.call(proc, params)
                        try:
                            res = session.run(Q.cypher(proc), Q.with_defaults(proc, params))
                            ncols = list(res.keys())
                            nrows = res.values()
                        except neo4j.exceptions.Neo4jError as e:
                            print(f"check: {proc}: Neo4j failed: {e.code}: {e.message}", file=sys.stderr)
                            sys.exit(2)
                        if kerr:
                            problem = (params, f"{kerr}; neo4j gave {len(nrows)} rows")
                            break
                        if a.verbose:
                            print(f"  {proc} {json.dumps(params)}: kith {len(kdoc['rows'])} rows, neo4j {len(nrows)} rows")
                        diff = compare(proc, kdoc, ncols, nrows)
                        rows_seen += len(kdoc["rows"])
                        if diff:
                            problem = (params, diff)
                            break
                    total_rows += rows_seen
                    order = "multiset" if proc in UNORDERED else "ordered"
                    if problem:
                        failed += 1
                        print(f"MISMATCH {q['number']:>2} {proc} with {json.dumps(problem[0])}:\n  {problem[1]}")
                    else:
                        print(f"ok       {q['number']:>2} {proc:<34} {len(sets)} parameter sets, "
                              f"{rows_seen} rows equal ({order})")
        if a.variants:
            failed += check_variants(a, suite, url)
    except neo4j.exceptions.ServiceUnavailable as e:
        print(f"check: cannot reach Neo4j at bolt://{a.host}:{a.port}: {e}", file=sys.stderr)
        sys.exit(2)
    finally:
        if kith_proc:
            kith_proc.terminate()
            try:
                kith_proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                kith_proc.kill()

    n = len(suite)
    if failed:
        print(f"check: {failed} of {n} queries differ ({total_rows} kith rows compared before the first differences)")
        sys.exit(1)
    print(f"check: all {n} queries match ({total_rows} rows compared)")


if __name__ == "__main__":
    main()
