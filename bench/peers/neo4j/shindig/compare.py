"""Side-by-side medians: kith (`kith bench shindig --out RUN_DIR`, RUN_DIR/shindig.csv) and
Neo4j (run.py --out FILE.json), one row per S1 query, as Markdown on stdout.

    python3 bench/peers/neo4j/shindig/compare.py RUN_DIR/shindig.csv neo4j.json [--metric p50_us]

Columns: each kith path's value, then Neo4j's (Cypher over Bolt, Python driver), then the
ratio Neo4j / kith for each kith path, then Neo4j's own mean server time (ms resolution:
result_available_after + result_consumed_after from the result summary), which leaves out
the client's share (the Python driver decoding records). Needs only the standard library.
"""

import argparse
import csv
import json


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kith_csv")
    ap.add_argument("neo4j_json")
    ap.add_argument("--metric", default="p50_us", choices=["p50_us", "p95_us", "p99_us", "mean_us"])
    a = ap.parse_args()

    kith = {}
    paths = []
    with open(a.kith_csv) as f:
        for r in csv.DictReader(f):
            if r["path"] not in paths:
                paths.append(r["path"])
            kith[(int(r["query"]), r["path"])] = (r["procedure"], float(r[a.metric]), int(r["calls"]))
    with open(a.neo4j_json) as f:
        neo = json.load(f)
    lat = {m["query"]: m for m in neo.get("latency", []) if not m.get("variant")}
    variants = [m for m in neo.get("latency", []) if m.get("variant")]

    metric = a.metric.replace("_us", "")
    print(f"{metric} latency in µs, single client. kith: native procedures; Neo4j: {neo.get('server')}, "
          f"Cypher over Bolt ({neo.get('driver')}), S1's run counts x {neo['options']['runs_scale']:g}.\n")
    head = "| # | procedure | " + " | ".join(f"kith {p}" for p in paths) + " | Neo4j Bolt | " + \
        " | ".join(f"Neo4j / kith {p}" for p in paths) + " | Neo4j server-side mean, ms |"
    print(head)
    print("|---|---|" + "---:|" * (2 * len(paths) + 2))
    floor = lat.get(0)
    def server(m):
        return f"{m['server_available_after_ms_mean'] + m['server_consumed_after_ms_mean']:.1f}"
    if floor:
        print("| 0 | floor: RETURN 1 (Neo4j only) | " + " | ".join("" for _ in paths) +
              f" | {floor[a.metric]:.0f} | " + " | ".join("" for _ in paths) + f" | {server(floor)} |")
    queries = sorted({q for q, _ in kith})
    for q in queries:
        proc = next(kith[(q, p)][0] for p in paths if (q, p) in kith)
        kv = [kith.get((q, p), (None, None, None))[1] for p in paths]
        n = lat.get(q)
        nv = n[a.metric] if n else None
        cells = [f"{v:.0f}" if v is not None else "—" for v in kv]
        ratios = [f"{nv / v:.0f}x" if (nv is not None and v) else "—" for v in kv]
        neo_cell = f"{nv:.0f}" if nv is not None else "—"
        print(f"| {q} | {proc} | " + " | ".join(cells) + f" | {neo_cell} | " + " | ".join(ratios) +
              f" | {server(n) if n else '—'} |")
    for m in variants:
        print(f"\nVariant {m['variant']}: {metric} {m[a.metric]:.0f} µs over {m['calls']} calls.")


if __name__ == "__main__":
    main()
