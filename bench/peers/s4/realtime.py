"""S4 Figure 3: one system under the LDBC update stream from Kafka while N readers query.

One invocation measures one system at one reader count, from a freshly loaded state (run.sh
prepares it: a copy of kith's directory served with `--ingest`, a PostgreSQL database made
from the loaded one as a template, a copy of the Neo4j store):

- the writer, a single one, consumes the topic from its start:
  kith:     `kith serve --ingest` itself, started here (--kith-serve) at the same moment
            as the readers, which connect as soon as it listens (its start-up is charged
            to kith); its progress is /health's `ingest.applied`;
  postgres: a consumer process applying each event with the reference update SQL texts
            (`interactive-update-*.sql`, IU1/4/6/7 as several statements), one
            transaction per event;
  neo4j:    a consumer process applying each event with the official IU Cypher texts
            (`../shared/data/ldbc-cypher/interactive-update-N.cypher`), one transaction
            per event;
- N reader processes, each with its own connection, run S4's mix round-robin: IS1-IS7 and
  IC9 (friends' and friends' friends' messages: the 2-hop complex read), with parameters
  from the data set (persons and IC9 lines from its parameter files, messages from its files),
  kith through its native procedures, PostgreSQL through the official SQL texts, Neo4j
  through the official Cypher texts.

Every 0.2 s the reads and the events applied so far are sampled. Writes --out (JSON):
the samples, reads/s and events/s over the whole window, read latency median and p99.
A reader error or a writer error stops the run (no silently failed calls).

usage: realtime.py --system kith|postgres|neo4j --topic kafka://H:P/T --readers N --seconds S
                   --data SRC --params PARAMS --out FILE
                   [--kith-ws URL --kith-http URL] [--postgres PORT --db NAME] [--neo4j URL]
"""
import argparse
import json
import multiprocessing as mp
import os
import random
import shlex
import statistics
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "../postgres"))
sys.path.insert(0, os.path.join(HERE, "../neo4j/ldbc"))
import ldbc  # noqa: E402
import updates as U  # noqa: E402

CYPHER = os.path.normpath(os.path.join(HERE, "../../../../shared/data/ldbc-cypher"))
SQL = ldbc.TEXTS
MIX = ("ldbc.is1", "ldbc.is2", "ldbc.is3", "ldbc.is4", "ldbc.is5", "ldbc.is6", "ldbc.is7", "ldbc.ic9")
# The reference IU SQL texts per operation: the event's own statement, then one statement
# per element of a list parameter (its name, the text's parameter name(s)).
IU_SQL = {
    1: ("interactive-update-1-add-person.sql",
        [("emails", "interactive-update-1-add-person-emails.sql", ("email",)),
         ("languages", "interactive-update-1-add-person-languages.sql", ("language",)),
         ("tagIds", "interactive-update-1-add-person-tags.sql", ("tagId",)),
         ("studyAt", "interactive-update-1-add-person-universities.sql", ("organizationId", "studiesFromYear")),
         ("workAt", "interactive-update-1-add-person-companies.sql", ("organizationId", "worksFromYear"))]),
    2: ("interactive-update-2.sql", []),
    3: ("interactive-update-3.sql", []),
    4: ("interactive-update-4-add-forum.sql", [("tagIds", "interactive-update-4-add-forum-tags.sql", ("tagId",))]),
    5: ("interactive-update-5.sql", []),
    6: ("interactive-update-6-add-post.sql", [("tagIds", "interactive-update-6-add-post-tags.sql", ("tagId",))]),
    7: ("interactive-update-7-add-comment.sql", [("tagIds", "interactive-update-7-add-comment-tags.sql", ("tagId",))]),
    8: ("interactive-update-8.sql", []),
}


def text(folder, name):
    with open(os.path.join(folder, name), "rb") as f:
        return f.read().decode("utf-8")


def parse_event(line):
    """A topic record (one update-stream line) as (operation, parameters)."""
    fields = line.split("|")
    op = int(fields[2])
    layout = U.IU[op][1]
    if len(fields) != 3 + len(layout):
        raise ValueError(f"IU{op} has {3 + len(layout)} fields, the record {len(fields)}: {line[:120]}")
    return op, {name: U.value(kind, fields[3 + j]) for j, (name, kind) in enumerate(layout)}


def sql_statements(op, params):
    """The bound statements of one event, in order."""
    main, lists = IU_SQL[op]
    out = [ldbc.bind(text(SQL, main), params)]
    for list_name, file, names in lists:
        for item in params[list_name]:
            values = item if isinstance(item, list) else [item]
            out.append(ldbc.bind(text(SQL, file), {**params, **dict(zip(names, values))}))
    return out


def consume(topic, make_handle, applied, stop, failure):
    """The single writer: every record of the topic from its start, one transaction each.
    Any failure, connecting included, is reported to the parent, which stops the run."""
    from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, TopicPartition
    c = None
    try:
        handle = make_handle()
        hosts, name = topic.removeprefix("kafka://").split("/", 1)
        c = Consumer({"bootstrap.servers": hosts, "group.id": f"s4-{os.getpid()}-{time.time()}",
                      "enable.auto.commit": False})
        # Partition 0 from its start, as kith's ingest reads it: no group join in the window.
        c.assign([TopicPartition(name, 0, OFFSET_BEGINNING)])
        while not stop.is_set():
            msg = c.poll(0.2)
            if msg is None:
                continue
            if msg.error():
                if msg.error().code() == KafkaError._PARTITION_EOF:
                    continue
                raise RuntimeError(f"Kafka: {msg.error()}")
            op, params = parse_event(msg.value().decode("utf-8"))
            handle(op, params)
            with applied.get_lock():
                applied.value += 1
    except Exception as e:
        failure.put(f"writer: {type(e).__name__}: {e}")
    finally:
        if c is not None:
            c.close()


def postgres_writer(port, db):
    import psycopg
    conn = psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname=db)

    def handle(op, params):
        with conn.transaction():
            for stmt in sql_statements(op, params):
                conn.execute(stmt)
    return handle


def neo4j_writer(url):
    import neo4j
    session = neo4j.GraphDatabase.driver(url, auth=None).session(database="neo4j")
    texts = {op: text(CYPHER, f"interactive-update-{op}.cypher") for op in range(1, 9)}

    def handle(op, params):
        session.execute_write(lambda tx: tx.run(texts[op], params).consume())
    return handle


def reader_calls(system, a):
    """A function running one mix call by name."""
    if system == "kith":
        import kith
        deadline = time.time() + 60
        while True:  # the server starts with the readers
            try:
                client = kith.connect(a.kith_ws)
                break
            except kith.KithError:
                if time.time() > deadline:
                    raise
                time.sleep(0.02)
        return lambda proc, p: client.call_with(proc, p, timeout=600).rows()
    if system == "postgres":
        import psycopg
        conn = psycopg.connect(host="127.0.0.1", port=a.postgres, user="postgres", dbname=a.db, autocommit=True)
        texts = {q: ldbc.read_text(q) for q in MIX}
        return lambda proc, p: conn.execute(ldbc.bind(texts[proc], p)).fetchall()
    import neo4j
    session = neo4j.GraphDatabase.driver(a.neo4j, auth=None).session(database="neo4j")
    texts = {q: text(CYPHER, os.path.basename(ldbc.text_file(q))[:-4] + ".cypher") for q in MIX}
    return lambda proc, p: session.execute_read(lambda tx: tx.run(texts[proc], p).values())


def read_loop(system, a, cases, index, reads, stop, failure, latencies):
    try:
        call = reader_calls(system, a)
        rng = random.Random(index)
        mine = []
        i = index
        while not stop.is_set():
            proc = MIX[i % len(MIX)]
            params = rng.choice(cases[proc])
            t0 = time.perf_counter()
            call(proc, params)
            if len(mine) < 20000:
                mine.append((time.perf_counter() - t0) * 1000)
            reads[index] += 1
            i += 1
        latencies.put(mine)
    except Exception as e:
        failure.put(f"reader {index}: {type(e).__name__}: {e}")
        latencies.put([])


def mix_cases(data, params_dir):
    persons = []
    with open(os.path.join(data, "dynamic", "person_knows_person_0_0.csv")) as f:
        next(f)
        for line in f:
            persons.append(int(line.split("|", 1)[0]))
    persons = sorted(set(persons))[::max(len(set(persons)) // 200, 1)]
    messages = []
    for name in ("post", "comment"):
        with open(os.path.join(data, "dynamic", f"{name}_0_0.csv")) as f:
            next(f)
            ids = [int(line.split("|", 1)[0]) for line in f]
        messages += ids[::max(len(ids) // 100, 1)]
    with open(os.path.join(params_dir, "interactive_9_param.txt")) as f:
        next(f)
        ic9 = [dict(zip(("personId", "maxDate"), map(int, line.strip().split("|")))) for line in f if line.strip()]
    by_person = [{"personId": p} for p in persons]
    by_message = [{"messageId": m} for m in messages]
    return {"ldbc.is1": by_person, "ldbc.is2": by_person, "ldbc.is3": by_person, "ldbc.is4": by_message,
            "ldbc.is5": by_message, "ldbc.is6": by_message, "ldbc.is7": by_message, "ldbc.ic9": ic9}


def kith_applied(url):
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=5) as r:
            return json.load(r)["ingest"]["applied"]
    except OSError:  # not listening yet
        return 0


server_box = []


def start_server(a):
    if a.system == "kith":
        server_box.append(subprocess.Popen(shlex.split(a.kith_serve), stdout=open(a.kith_log, "ab"),
                                           stderr=subprocess.STDOUT))


def run_window(a, procs, written, failure, reads, latencies, stop, start):
    """Starts the server (kith) and the processes, samples every 0.2 s; (samples, error, latencies)."""
    start()
    base = 0 if a.system == "kith" else written()
    for p in procs:
        p.start()
    samples, t0, error = [], time.time(), None
    while time.time() - t0 < a.seconds and error is None:
        time.sleep(0.2)
        samples.append({"t": round(time.time() - t0, 3), "reads": sum(reads), "events": written() - base})
        if not failure.empty():
            error = failure.get()
        if a.drain is not None and samples[-1]["events"] >= a.drain:
            break
    if a.drain is not None and samples[-1]["events"] < a.drain and error is None:
        error = f"the writer applied {samples[-1]['events']} of {a.drain} events in {a.seconds:g} s"
    stop.set()
    lat = sorted(x for _ in range(a.readers) for x in latencies.get(timeout=120))
    return samples, error, lat


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--system", choices=("kith", "postgres", "neo4j"), required=True)
    ap.add_argument("--topic", required=True)
    ap.add_argument("--readers", type=int, required=True)
    ap.add_argument("--seconds", type=float, required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--params", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--kith-ws")
    ap.add_argument("--kith-http")
    ap.add_argument("--kith-serve", help="the `kith serve ... --ingest TOPIC` command line to start")
    ap.add_argument("--kith-log", default=os.devnull)
    ap.add_argument("--postgres", type=int)
    ap.add_argument("--db", default="ldbc")
    ap.add_argument("--neo4j")
    ap.add_argument("--events", type=int, help="the events in the topic (to tell a drained writer)")
    ap.add_argument("--drain", type=int, metavar="EVENTS",
                    help="stop once the writer applied EVENTS (--seconds is then the time limit, an error when hit)")
    a = ap.parse_args()
    cases = mix_cases(a.data, a.params)
    ctx = mp.get_context("fork")
    stop, failure, latencies = ctx.Event(), ctx.Queue(), ctx.Queue()
    applied = ctx.Value("q", 0)
    reads = ctx.Array("q", a.readers)
    procs = []
    if a.system != "kith":
        handle_of = (lambda: postgres_writer(a.postgres, a.db)) if a.system == "postgres" else (lambda: neo4j_writer(a.neo4j))
        procs.append(ctx.Process(target=consume, args=(a.topic, handle_of, applied, stop, failure), daemon=True))
    procs += [ctx.Process(target=read_loop, args=(a.system, a, cases, i, reads, stop, failure, latencies),
                          daemon=True) for i in range(a.readers)]
    written = (lambda: kith_applied(a.kith_http)) if a.system == "kith" else (lambda: applied.value)
    try:
        samples, error, lat = run_window(a, procs, written, failure, reads, latencies, stop,
                                         lambda: start_server(a))
    finally:
        stop.set()
        for p in procs:
            p.join(timeout=60)
            if p.is_alive():
                p.terminate()
        if server_box:
            server_box[0].terminate()
            server_box[0].wait(timeout=60)
    crashed = [p.exitcode for p in procs if p.exitcode not in (0, None)]
    if crashed and error is None:
        error = f"a writer or reader process exited with {crashed}"
    if error or not failure.empty():
        sys.exit(f"realtime: {a.system}: {error or failure.get()}")
    reads_total = samples[-1]["reads"]
    span = samples[-1]["t"]
    total = samples[-1]["events"]
    # The writer's window: the whole run, or, when it applied the whole topic (--events),
    # up to the first sample holding every event (not charged for the idle rest).
    drained = a.events is not None and total >= a.events
    busy = next(s for s in samples if s["events"] == total) if drained else samples[-1]
    out = {"system": a.system, "readers": a.readers, "seconds": span, "samples": samples,
           "reads_per_s": reads_total / span, "events": total, "drained": drained,
           "writer_seconds": busy["t"], "events_per_s": total / busy["t"],
           "reads_per_s_while_writing": busy["reads"] / busy["t"],
           "read_median_ms": statistics.median(lat) if lat else None,
           "read_p99_ms": lat[int(len(lat) * 0.99)] if lat else None}
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
    print(f"realtime: {a.system:<8} {a.readers:>2} readers: {out['reads_per_s']:>9.0f} reads/s "
          f"(median {out['read_median_ms'] or 0:.2f} ms, p99 {out['read_p99_ms'] or 0:.2f} ms), "
          f"{out['events_per_s']:>8.0f} events/s ({total} events{', drained in ' + str(busy['t']) + ' s' if drained else ''}; "
          f"{out['reads_per_s_while_writing']:.0f} reads/s while writing)", file=sys.stderr)


if __name__ == "__main__":
    main()
