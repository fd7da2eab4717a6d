"""The S4 run's tables (run.sh's last step): WORK/s4.json and WORK/s4.md.

Table 4 (loading): seconds per system and elements/s, elements being the LDBC graph's
nodes + relationships as kith counted them (the same data in every system; PostgreSQL
holds it as rows). Tables 2 and 3 (micro-queries): client-observed median and p99 per
system, the server's own mean time, and kith's speed-up over each peer. The check of the
21 official SQL texts is summarised per query.

usage: summary.py --work WORK --dataset NAME --load SYSTEM=SECONDS ...
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import queries as Q  # noqa: E402

# Ladybug is embedded: its times are not round trips, so no client-side ratio.
PEERS = ("postgres", "neo4j", "falkordb")


def fmt(v, digits=3):
    return "-" if v is None else f"{v:.{digits}f}"


def ratio(a, b):
    return None if a in (None, 0) or b is None else b / a


def table4(loads, elements):
    rows = ["| system | seconds | elements/s |", "| --- | ---: | ---: |"]
    for system, seconds in loads.items():
        rows.append(f"| {system} | {seconds:.1f} | {elements / seconds:,.0f} |")
    return rows


def micro_tables(micro):
    systems = micro["systems"]
    head = "| query | " + " | ".join(systems) + " |"
    out = ["Client-observed median / p99 (ms), one client thread, "
           f"{micro['runs']} calls each:", "", head, "|---" * (len(systems) + 1) + "|"]
    for q in Q.QUERIES:
        cells = [f"{fmt(systems[s][q]['median_ms'])} / {fmt(systems[s][q]['p99_ms'])}"
                 + (f" ({systems[s][q]['timeouts']} timed out)" if systems[s][q]["timeouts"] else "")
                 for s in systems]
        out.append(f"| {q} | " + " | ".join(cells) + " |")
    out += ["", "Server's own mean time per call (ms):", "", head, "|---" * (len(systems) + 1) + "|"]
    for q in Q.QUERIES:
        out.append(f"| {q} | " + " | ".join(fmt(systems[s][q]["server_mean_ms"], 4) for s in systems) + " |")
    out += ["", "kith native's speed-up (peer / kith; client median, then server mean):", "",
            "| query | " + " | ".join(f"vs {p}" for p in PEERS if p in systems) + " |",
            "|---" * (1 + sum(p in systems for p in PEERS)) + "|"]
    for q in Q.QUERIES:
        k = systems["kith"][q]
        cells = []
        for p in PEERS:
            if p in systems:
                c = ratio(k["median_ms"], systems[p][q]["median_ms"])
                s = ratio(k["server_mean_ms"], systems[p][q]["server_mean_ms"])
                cells.append(f"{fmt(c, 1)}x / {fmt(s, 1)}x")
        out.append(f"| {q} | " + " | ".join(cells) + " |")
    return out


def realtime(work):
    """Figure 3's points: {system: {readers: run}} from WORK/realtime/SYSTEM-N.json."""
    folder = os.path.join(work, "realtime")
    out = {}
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        system, _, n = name[:-5].rpartition("-")
        if n.isdigit():
            out.setdefault(system, {})[int(n)] = json.load(open(os.path.join(folder, name)))
    return out


def figure3(points):
    systems = list(points)
    levels = sorted({n for runs in points.values() for n in runs})
    out = ["Reads/s while the writer had events, events/s of the writer (one writer, "
           "fresh state per point, the same topic):", "",
           "| readers | " + " | ".join(f"{s} reads/s | {s} events/s" for s in systems) + " |",
           "|---" * (1 + 2 * len(systems)) + "|"]
    for n in levels:
        cells = []
        for s in systems:
            r = points[s].get(n)
            cells += ["-", "-"] if r is None else [
                f"{r['reads_per_s_while_writing']:,.0f} (p99 {fmt(r['read_p99_ms'], 1)} ms)",
                f"{r['events_per_s']:,.0f}" + (f" (drained in {r['writer_seconds']:.1f} s)" if r["drained"] else "")]
        out.append(f"| {n} | " + " | ".join(cells) + " |")
    if "kith" in points and "postgres" in points:
        out += ["", "kith over PostgreSQL: " + ", ".join(
            f"{n} readers: reads {fmt(ratio(points['postgres'][n]['reads_per_s_while_writing'], points['kith'][n]['reads_per_s_while_writing']), 1)}x, "
            f"events {fmt(ratio(points['postgres'][n]['events_per_s'], points['kith'][n]['events_per_s']), 1)}x"
            for n in levels if n in points["kith"] and n in points["postgres"])]
    return out


def reads_table(reads):
    systems = ["kith", "postgres", "neo4j"]
    out = ["Median over the oracle's cases, client-observed (the server's own mean), ms; "
           "kith's speed-up client / server:", "",
           "| query | " + " | ".join(systems) + " | vs postgres | vs neo4j |", "|---" * 6 + "|"]
    for q in sorted(reads, key=lambda q: (q[5:7], int(q[7:]))):
        r = reads[q]
        cells = [f"{fmt(r[s]['median_ms'])} ({fmt(r[s]['server_mean_ms'])})"
                 + (f", {r[s]['timeouts']} timed out" if r[s]["timeouts"] else "") if s in r else "-"
                 for s in systems]
        for p in ("postgres", "neo4j"):
            if p in r:
                c = ratio(r["kith"]["median_ms"], r[p]["median_ms"])
                v = ratio(r["kith"]["server_mean_ms"], r[p]["server_mean_ms"])
                cells.append(f"{fmt(c, 1)}x / {fmt(v, 0)}x")
            else:
                cells.append("-")
        out.append(f"| {q} | " + " | ".join(cells) + " |")
    return out


def check_lines(check):
    out = ["| query | cases | equal | differ only by the text's quirk | PostgreSQL over the timeout |",
           "| --- | ---: | ---: | ---: | ---: |"]
    for q, r in sorted(check.items(), key=lambda kv: (kv[0][5:7], int(kv[0][7:]))):
        out.append(f"| {q} | {r['cases']} | {r['equal']} | {r['quirk']} | {r['timed_out']} |")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", required=True)
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--load", action="append", default=[], metavar="SYSTEM=SECONDS")
    a = ap.parse_args()
    w = a.work
    dataset = json.load(open(os.path.join(w, "kith", "dataset.json")))
    elements = dataset["nodes"] + dataset["relationships"]
    loads = {k: float(v) for k, v in (x.split("=", 1) for x in a.load)}
    micro = json.load(open(os.path.join(w, "micro.json")))
    check = json.load(open(os.path.join(w, "check.json")))
    points = realtime(w)
    reads = json.load(open(os.path.join(w, "reads.json")))
    after = os.path.join(w, "check-after-updates.json")
    after = json.load(open(after)) if os.path.exists(after) else None
    doc = {"dataset": a.dataset, "elements": elements, "load_seconds": loads, "micro": micro, "check": check,
           "reads": reads, "realtime": points, "check_after_updates": after}
    with open(os.path.join(w, "s4.json"), "w") as f:
        json.dump(doc, f, indent=1)
    md = [f"# S4 side by side on {a.dataset} ({elements:,} elements)", "",
          "## Table 4: loading", ""] + table4(loads, elements) + [
          "", "## Tables 2 and 3: micro-queries", ""] + micro_tables(micro) + [
          "", "## The 21 LDBC reads, same calls", ""] + reads_table(reads) + [
          "", "## Figure 3: the update stream from Kafka while readers query", ""] + figure3(points) + [
          "", "## The 21 official SQL texts on PostgreSQL against kith", ""] + check_lines(check)
    if after:
        md += ["", "After the whole update stream (PostgreSQL's writer, the reference IU texts; kith's "
               "ingest):", ""] + check_lines(after)
    with open(os.path.join(w, "s4.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
