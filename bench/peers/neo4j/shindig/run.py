"""S1's 19 Shindig queries against Neo4j over Bolt, measured as `kith bench shindig` measures kith.

Latency mode (the default): for each query of queries.json, in order, one session of the
official Python driver runs `warmup + runs` calls one after another, call i with parameter
set params[i % len(params)] (i counting from 0 over the warm-up calls too, as kith does);
the first `warmup` calls are not measured. runs = max(5, round(S1 run count x runs-scale)),
so 2,000 / 200 / 20 calls at --runs-scale 1. A call's latency is the client's wall time
(time.perf_counter_ns) of session.run(query, params) plus reading every record into Python
values (Result.values()). Percentiles as kith computes them: the sorted sample at index
round((n - 1) * q). --quick is kith's --quick: runs-scale / 20 and at most 3 warm-up calls.

Throughput mode (--threads N[,M...] --seconds S): the mix of the non-spike queries (S1 and
`kith bench throughput` leave out FOAF-3, FOAF-2 and friend recommendations; --include-spikes
puts them back), each query weighted by its S1 run count / 20 (at least 1), call j of a query
using params[j], interleaved with the same stride as kith's schedule. N client threads, each
with its own session (one Bolt connection each), thread t starting at position t x 7919 of
the schedule, run for S seconds after a warm-up of S/5; requests/s counts calls that started
and finished inside the measured window. Client and server CPU (cores) are measured over the
window (the server's when --home names the Neo4j home, for its pid). Python's GIL limits
what one client process can issue: compare client_cores with the client's core count.

Output: --out FILE.json (machine-readable), and a Markdown table on stdout.

    bench/peers/neo4j/.venv/bin/python bench/peers/neo4j/shindig/run.py \\
        --port 7699 --queries RUN_DIR/queries.json --out neo4j-shindig.json [--quick]
    ... run.py --port 7699 --queries RUN_DIR/queries.json --out tp.json --threads 4,16 --seconds 5
"""

import argparse
import json
import math
import os
import platform
import sys
import threading
import time

import neo4j

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import queries as Q  # noqa: E402


def percentile(sorted_ns, q):
    """kith's percentile: the sorted sample at index round((n - 1) * q), in µs."""
    if not sorted_ns:
        return 0.0
    # Rust's f64::round rounds half away from zero; Python's round() rounds half to even.
    idx = math.floor((len(sorted_ns) - 1) * q + 0.5)
    return sorted_ns[idx] / 1000.0


def runs_of(runs, runs_scale):
    """kith's runs_of: max(5, round(runs x runs_scale))."""
    return max(5, math.floor(runs * runs_scale + 0.5))


def cpu_seconds(pid="self"):
    """User + system CPU seconds of a process, from /proc/PID/stat."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_pid(home):
    if not home:
        return None
    try:
        with open(os.path.join(home, "neo4j-peer.pid")) as f:
            pid = f.read().strip()
        return pid if cpu_seconds(pid) is not None else None
    except OSError:
        return None


# --- latency --------------------------------------------------------------------------

# The floor: a round trip that does no database work, run like a 2,000-call query.
FLOOR = {"number": 0, "procedure": "floor: RETURN 1", "runs": 2000, "params": [{}]}


def prewarm(driver, suite, a, passes):
    """Unmeasured passes over the whole suite at S1's run counts / 20 (kith's --quick
    scale), so the JVM has compiled the shared paths (Bolt, planner, operators) before the
    first query is measured. kith has no JIT; this exists only for the JVM."""
    t0 = time.time()
    calls = 0
    with driver.session(database=a.database) as session:
        for _ in range(passes):
            for q in suite:
                query = Q.cypher(q["procedure"])
                for i in range(runs_of(q["runs"], 1 / 20)):
                    session.run(query, Q.with_defaults(q["procedure"], q["params"][i % len(q["params"])])).values()
                    calls += 1
    return {"passes": passes, "calls": calls, "seconds": round(time.time() - t0, 1)}


def latency(driver, suite, names, a, runs_scale, warmup, progress):
    out = []
    for q in [FLOOR] + suite:
        for name in names(q):
            if q is FLOOR:
                params, query = [{}], "RETURN 1 AS x"
            else:
                params = [Q.with_defaults(name, p) for p in q["params"]]
                query = Q.cypher(name)
            runs = runs_of(q["runs"], runs_scale)
            samples, rows, avail, consumed = [], [], [], []
            with driver.session(database=a.database) as session:
                for i in range(warmup + runs):
                    p = params[i % len(params)]
                    t0 = time.perf_counter_ns()
                    result = session.run(query, p)
                    values = result.values()
                    ns = time.perf_counter_ns() - t0
                    if i >= warmup:
                        samples.append(ns)
                        rows.append(len(values))
                        # Server-side times from the summary (already received; not timed).
                        s = result.consume()
                        avail.append(s.result_available_after or 0)
                        consumed.append(s.result_consumed_after or 0)
            samples_sorted = sorted(samples)
            n = len(samples)
            m = {
                "query": q["number"],
                "procedure": q["procedure"],
                "variant": None if name == q["procedure"] else name,
                "calls": n,
                "warmup": warmup,
                "p50_us": percentile(samples_sorted, 0.5),
                "p95_us": percentile(samples_sorted, 0.95),
                "p99_us": percentile(samples_sorted, 0.99),
                "mean_us": sum(samples) / n / 1000.0,
                "min_us": samples_sorted[0] / 1000.0,
                "max_us": samples_sorted[-1] / 1000.0,
                "rows_mean": sum(rows) / n,
                # Neo4j's own timings (ms resolution): until the first record was available,
                # and until the result was consumed (streamed out).
                "server_available_after_ms_mean": sum(avail) / n,
                "server_consumed_after_ms_mean": sum(consumed) / n,
            }
            out.append(m)
            progress(m)
    return out


# --- throughput -----------------------------------------------------------------------

def schedule(suite, include_spikes):
    """kith's throughput schedule (crates/kith-bench/src/throughput.rs)."""
    calls = []
    for q in suite:
        if q["spike"] and not include_spikes:
            continue
        weight = max(q["runs"] // 20, 1)
        for i in range(weight):
            p = q["params"][i % len(q["params"])]
            calls.append((q["procedure"], Q.cypher(q["procedure"]), Q.with_defaults(q["procedure"], p)))
    n = len(calls)
    stride = next((s for s in range(n - 1, 0, -1) if math.gcd(s, n) == 1 and s > n // 3), 1)
    return [calls[(i * stride) % n] for i in range(n)]


def _tp_client(uri, database, calls, first_thread, threads, ready, go, window, out):
    """One client process: `threads` threads, one session (connection) each. Thread k of
    this process is client thread first_thread + k of the whole run."""
    driver = neo4j.GraphDatabase.driver(uri, auth=None, max_connection_pool_size=max(threads, 1) + 1)
    results = [None] * threads
    errors = [0] * threads
    connected = threading.Barrier(threads + 1)

    def worker(k):
        lat = []
        i = (first_thread + k) * 7919
        with driver.session(database=database) as session:
            session.run("RETURN 1").consume()  # open the connection before the clock starts
            connected.wait()
            go.wait()
            measure_from, measure_until = window[0], window[1]
            while True:
                if time.monotonic() >= measure_until:
                    break
                _, query, params = calls[i % len(calls)]
                i += 1
                sent = time.monotonic()
                try:
                    session.run(query, params).values()
                    ok = True
                except neo4j.exceptions.Neo4jError:
                    ok = False
                done = time.monotonic()
                if sent >= measure_from and done <= measure_until:
                    if ok:
                        lat.append(done - sent)
                    else:
                        errors[k] += 1
        results[k] = lat

    ts = [threading.Thread(target=worker, args=(k,), daemon=True) for k in range(threads)]
    for t in ts:
        t.start()
    connected.wait()
    ready.wait()  # every process connected
    for t in ts:
        t.join()
    driver.close()
    out.put(([x for r in results for x in r], sum(errors)))


def throughput(uri, database, calls, threads, processes, seconds, pid):
    """One throughput cell: `threads` client threads spread over `processes` processes."""
    import multiprocessing as mp
    ctx = mp.get_context("fork")
    processes = max(1, min(processes, threads))
    split = [threads // processes + (1 if p < threads % processes else 0) for p in range(processes)]
    ready = ctx.Barrier(processes + 1)
    go = ctx.Event()
    window = ctx.Array("d", 2)
    out = ctx.Queue()
    procs, first = [], 0
    for n in split:
        p = ctx.Process(target=_tp_client, args=(uri, database, calls, first, n, ready, go, window, out), daemon=True)
        p.start()
        procs.append(p)
        first += n
    ready.wait()
    # Warm-up of a fifth of the measured time, as kith's throughput cells.
    window[0] = time.monotonic() + seconds / 5.0
    window[1] = window[0] + seconds
    go.set()
    client_cpu = lambda: sum(cpu_seconds(str(p.pid)) or 0.0 for p in procs)  # noqa: E731
    time.sleep(max(0.0, window[0] - time.monotonic()))
    c0, s0 = client_cpu(), cpu_seconds(pid) if pid else None
    time.sleep(max(0.0, window[1] - time.monotonic()))
    c1, s1 = client_cpu(), cpu_seconds(pid) if pid else None
    lat, errors = [], 0
    for _ in procs:
        l, e = out.get()
        lat += l
        errors += e
    for p in procs:
        p.join()
    lat.sort()
    at = lambda q: (lat[math.floor((len(lat) - 1) * q + 0.5)] * 1e6) if lat else 0.0  # noqa: E731
    return {
        "threads": threads,
        "processes": processes,
        "seconds": seconds,
        "requests": len(lat),
        "requests_per_s": len(lat) / seconds,
        "p50_us": at(0.5),
        "p99_us": at(0.99),
        "errors": errors,
        "client_cores": (c1 - c0) / seconds,
        "server_cores": (s1 - s0) / seconds if s0 is not None else None,
        # CPU per answered request, ms: where a 2-core machine's time goes.
        "client_cpu_ms_per_request": (c1 - c0) * 1000 / len(lat) if lat else None,
        "server_cpu_ms_per_request": (s1 - s0) * 1000 / len(lat) if (lat and s0 is not None) else None,
    }


def _has_rust_ext():
    try:
        import neo4j._rust  # noqa: F401  (the optional neo4j-rust-ext PackStream codec)
        return True
    except ImportError:
        return False


# --- main -----------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True, help="Neo4j Bolt port")
    ap.add_argument("--database", default="neo4j")
    ap.add_argument("--queries", required=True, help="RUN_DIR/queries.json from `kith bench shindig --out RUN_DIR`")
    ap.add_argument("--out", required=True, help="results JSON file")
    ap.add_argument("--runs-scale", type=float, default=1.0, help="multiplies S1's run counts [1]")
    ap.add_argument("--warmup", type=int, default=20, help="warm-up calls per query [20]")
    ap.add_argument("--prewarm", type=int, default=0,
                    help="unmeasured passes over the whole suite at S1's counts / 20 before measuring, "
                         "to warm the JVM's JIT (not part of kith's protocol) [0]")
    ap.add_argument("--quick", action="store_true", help="runs-scale / 20 and at most 3 warm-up calls (kith's --quick)")
    ap.add_argument("--only", help="comma-separated procedure names or query numbers")
    ap.add_argument("--variants", action="store_true", help="also measure queries.py VARIANTS (e.g. Q7 with shortestPath)")
    ap.add_argument("--threads", help="throughput mode: client threads, comma-separated (e.g. 4,16)")
    ap.add_argument("--seconds", type=float, default=5.0, help="throughput: measured seconds per thread count [5]")
    ap.add_argument("--processes", type=int, default=1,
                    help="throughput: client processes the threads are spread over (Python's GIL caps one "
                         "process at about one core) [1]")
    ap.add_argument("--include-spikes", action="store_true", help="throughput: keep FOAF-3, FOAF-2, recommendations")
    ap.add_argument("--latency", action="store_true", help="with --threads: run the latency suite too")
    ap.add_argument("--home", help="the Neo4j home (for the server's pid, to measure its CPU)")
    ap.add_argument("--label", default="neo4j", help="name of this run in the output")
    a = ap.parse_args()

    with open(a.queries) as f:
        suite = json.load(f)
    if a.only:
        want = set(a.only.split(","))
        suite = [q for q in suite if q["procedure"] in want or str(q["number"]) in want]
    for q in suite:
        if q["procedure"] not in Q.QUERIES:
            sys.exit(f"run: no Cypher for {q['procedure']}")
    runs_scale = a.runs_scale / 20.0 if a.quick else a.runs_scale
    warmup = min(a.warmup, 3) if a.quick else a.warmup

    def names(q):
        out = [q["procedure"]]
        if q is FLOOR:
            return out
        if a.variants:
            out += [k for k, v in Q.VARIANTS.items() if v["procedure"] == q["procedure"]]
        return out

    doc = {
        "label": a.label,
        "target": f"bolt://{a.host}:{a.port}",
        "queries_json": os.path.abspath(a.queries),
        "options": {"runs_scale": runs_scale, "warmup": warmup, "quick": a.quick, "prewarm": a.prewarm},
        "driver": f"neo4j-python {neo4j.__version__}" + (" + neo4j-rust-ext" if _has_rust_ext() else ""),
        "python": platform.python_version(),
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    pid = server_pid(a.home)
    t_all = time.time()
    with neo4j.GraphDatabase.driver(f"bolt://{a.host}:{a.port}", auth=None) as driver:
        try:
            driver.verify_connectivity()
        except (neo4j.exceptions.ServiceUnavailable, OSError) as e:
            sys.exit(f"run: cannot reach Neo4j at bolt://{a.host}:{a.port} "
                     f"(start it with neo4j.sh start HOME {a.port}): {e}")
        with driver.session(database=a.database) as s:
            comp = s.run("CALL dbms.components() YIELD name, versions, edition "
                         "RETURN name, versions[0] AS version, edition").single()
            doc["server"] = f"{comp['name']} {comp['version']} {comp['edition']}"
            doc["graph"] = s.run("MATCH (n) RETURN count(n) AS nodes").single()["nodes"]

        if a.prewarm:
            doc["prewarm"] = prewarm(driver, suite, a, a.prewarm)
            print(f"run: prewarm {doc['prewarm']}", file=sys.stderr)

        if not a.threads or a.latency:
            print(f"run: latency, {len(suite)} queries, runs x {runs_scale:g}, {warmup} warm-up calls, "
                  f"{doc['server']}, {doc['graph']} nodes", file=sys.stderr)

            def progress(m):
                label = m["variant"] or m["procedure"]
                print(f"  {m['query']:>2} {label:<40} {m['calls']:>5} calls  p50 {m['p50_us']:>9.0f} µs  "
                      f"p99 {m['p99_us']:>9.0f} µs  rows {m['rows_mean']:.0f}", file=sys.stderr)
            doc["latency"] = latency(driver, suite, names, a, runs_scale, warmup, progress)

        if a.threads:
            calls = schedule(suite, a.include_spikes)
            doc["throughput"] = {"mix_calls": len(calls), "include_spikes": a.include_spikes,
                                 "server_cpu_measured": pid is not None, "cells": []}
            for threads in (int(t) for t in a.threads.split(",")):
                cell = throughput(f"bolt://{a.host}:{a.port}", a.database, calls, threads,
                                  a.processes, a.seconds, pid)
                doc["throughput"]["cells"].append(cell)
                sc = f"{cell['server_cores']:.2f}" if cell["server_cores"] is not None else "?"
                print(f"run: throughput {threads} threads in {cell['processes']} process(es): "
                      f"{cell['requests_per_s']:.0f} req/s, "
                      f"p50 {cell['p50_us']:.0f} µs, p99 {cell['p99_us']:.0f} µs, errors {cell['errors']}, "
                      f"client {cell['client_cores']:.2f} cores, server {sc} cores", file=sys.stderr)
    doc["elapsed_s"] = round(time.time() - t_all, 1)

    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")

    # Markdown summary.
    if "latency" in doc:
        pw = f", after {a.prewarm} unmeasured pass(es) over the suite" if a.prewarm else ""
        print(f"Neo4j ({doc['server']}, {doc['driver']}), single client, S1's run counts x {runs_scale:g}, "
              f"{warmup} warm-up calls per query{pw}. Latency in µs.\n")
        print("| # | procedure | calls | p50 | p95 | p99 | mean | rows |")
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        for m in doc["latency"]:
            label = m["procedure"] + (f" ({m['variant'].split(':', 1)[1]})" if m["variant"] else "")
            print(f"| {m['query']} | {label} | {m['calls']} | {m['p50_us']:.0f} | {m['p95_us']:.0f} | "
                  f"{m['p99_us']:.0f} | {m['mean_us']:.0f} | {m['rows_mean']:.0f} |")
    if "throughput" in doc:
        t = doc["throughput"]
        print(f"\nThroughput, Shindig mix {'with' if t['include_spikes'] else 'without'} the spike queries "
              f"({t['mix_calls']} calls in the schedule), {a.seconds:g} s per cell:\n")
        print("| client threads | processes | req/s | p50 µs | p99 µs | errors | client cores | server cores |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for c in t["cells"]:
            sc = f"{c['server_cores']:.2f}" if c["server_cores"] is not None else "—"
            print(f"| {c['threads']} | {c['processes']} | {c['requests_per_s']:.0f} | {c['p50_us']:.0f} | {c['p99_us']:.0f} | "
                  f"{c['errors']} | {c['client_cores']:.2f} | {sc} |")
    print(f"\nraw results: {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
