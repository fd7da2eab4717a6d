"""IS1 (the official LDBC text, unmodified) from Python, one process: Neo4j's own
driver over Bolt to kith and to Neo4j, and kith's Python client over WebSocket-BSON
for reference. Single-client latency (median, p99 of CALLS round trips, after a
warm-up), then throughput with THREADS driver threads (one session each) for SECONDS.

usage: is1.py --queries WORK/run/queries.json --text ../shared/data/ldbc-cypher/interactive-short-1.cypher
              [--kith-bolt bolt://127.0.0.1:7687] [--neo4j bolt://127.0.0.1:7698]
              [--kith-ws ws://127.0.0.1:7600/v1/ws] [--calls 2000] [--threads 8] [--seconds 10]
Prints one JSON object per target and path.
"""
from __future__ import annotations

import argparse
import itertools
import json
import statistics
import threading
import time


def person_ids(queries_path: str) -> list[int]:
    for q in json.load(open(queries_path)):
        if q["procedure"] == "ldbc.is1":
            return [p["personId"] for p in q["params"]]
    raise SystemExit("no ldbc.is1 parameters in " + queries_path)


def bolt_runner(url: str):
    import neo4j
    driver = neo4j.GraphDatabase.driver(url, auth=("neo4j", "neo4j-peer"))

    def session_call():
        session = driver.session()

        def call(text, pid):
            return list(session.run(text, personId=pid))
        return call
    return driver, session_call


def ws_runner(url: str):
    import kith
    clients = []

    def session_call():
        client = kith.connect(url, encoding="bson")
        clients.append(client)

        def call(text, pid):
            return client.cypher(text, personId=pid).rows
        return call

    class Closer:
        def close(self):
            for c in clients:
                c.close()
    return Closer(), session_call


def _pack(v) -> bytes:
    """Just enough PackStream for RUN and PULL: str, int, dict, list of tiny sizes."""
    import struct
    if isinstance(v, str):
        b = v.encode()
        head = bytes([0x80 | len(b)]) if len(b) < 16 else (
            bytes([0xD0, len(b)]) if len(b) < 256 else b"\xD1" + struct.pack(">H", len(b)))
        return head + b
    if isinstance(v, int):
        return bytes([v]) if 0 <= v < 128 else (b"\xCB" + struct.pack(">q", v))
    if isinstance(v, dict):
        return bytes([0xA0 | len(v)]) + b"".join(_pack(k) + _pack(x) for k, x in v.items())
    raise TypeError(v)


def _message(tag: int, *fields) -> bytes:
    import struct
    body = bytes([0xB0 | len(fields), tag]) + b"".join(_pack(f) for f in fields)
    return struct.pack(">H", len(body)) + body + b"\x00\x00"


def raw_runner(url: str):
    """Bolt 5.0 by hand over a socket (no driver): the server's own round trip for
    RUN + PULL, what a driver adds on top of it excluded. A bolt+ssc:// URL wraps the
    socket in TLS without checking the certificate."""
    import socket
    import ssl

    scheme, address = url.split("://")
    host, port = address.rsplit(":", 1)
    sockets = []

    def session_call():
        s = socket.create_connection((host, int(port)))
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if scheme.endswith("+ssc"):  # encrypted, any certificate (as the drivers' +ssc)
            context = ssl.create_default_context()
            context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
            s = context.wrap_socket(s, server_hostname=host)
        sockets.append(s)
        s.sendall(b"\x60\x60\xb0\x17" + bytes([0, 0, 0, 5]) + bytes(12))
        assert s.recv(4) == bytes([0, 0, 0, 5])
        s.sendall(_message(0x01, {"user_agent": "raw/1", "scheme": "none"}))
        read_reply(s)

        def call(text, pid):
            s.sendall(_message(0x10, text, {"personId": pid}, {}) + _message(0x3F, {"n": -1}))
            read_reply(s)  # RUN's SUCCESS
            return read_reply(s)  # records, then PULL's SUCCESS
        return call

    pending: dict = {}

    def read_reply(s):
        """Reads messages until a SUCCESS; returns the count of RECORDs (bytes read past
        it are kept for the next reply)."""
        records, buf = 0, pending.pop(s, b"")
        while True:
            while True:
                msg = b""
                while True:
                    while len(buf) < 2:
                        buf += s.recv(65536)
                    size = int.from_bytes(buf[:2], "big")
                    while len(buf) < 2 + size:
                        buf += s.recv(65536)
                    msg, buf = msg + buf[2:2 + size], buf[2 + size:]
                    if size == 0:
                        break
                tag = msg[1]
                if tag == 0x71:
                    records += 1
                    continue
                assert tag == 0x70, f"not SUCCESS: {msg[:80]!r}"
                pending[s] = buf
                return records or 1

    class Closer:
        def close(self):
            for s in sockets:
                s.close()
    return Closer(), session_call


def latency(call, text, ids, calls, warmup=200):
    cycle = itertools.cycle(ids)
    for _ in range(warmup):
        call(text, next(cycle))
    samples = []
    for _ in range(calls):
        pid = next(cycle)
        t = time.perf_counter()
        rows = call(text, pid)
        samples.append(time.perf_counter() - t)
        assert rows, f"IS1 found no person {pid}"
    samples.sort()
    return statistics.median(samples) * 1e6, samples[int(len(samples) * 0.99)] * 1e6


def throughput(session_call, text, ids, threads, seconds):
    done = [0] * threads
    stop = time.perf_counter() + seconds

    def work(i):
        call = session_call()
        cycle = itertools.cycle(ids[i:] + ids[:i])
        n = 0
        while time.perf_counter() < stop:
            call(text, next(cycle))
            n += 1
        done[i] = n
    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    start = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(done) / (time.perf_counter() - start)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", required=True)
    ap.add_argument("--text", required=True)
    ap.add_argument("--kith-bolt")
    ap.add_argument("--neo4j")
    ap.add_argument("--kith-ws")
    ap.add_argument("--raw", action="store_true", help="also Bolt without a driver (a hand-made client)")
    ap.add_argument("--raw-only", action="store_true", help="only the driverless Bolt paths")
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=10)
    args = ap.parse_args()
    text = open(args.text).read()
    ids = person_ids(args.queries)
    targets = [("kith", "bolt", args.kith_bolt, bolt_runner), ("neo4j", "bolt", args.neo4j, bolt_runner),
               ("kith", "ws-bson", args.kith_ws, ws_runner)]
    if args.raw_only:
        targets = []
    if args.raw or args.raw_only:
        targets += [("kith", "bolt-raw", args.kith_bolt, raw_runner), ("neo4j", "bolt-raw", args.neo4j, raw_runner)]
    for system, path, url, runner in targets:
        if not url:
            continue
        closer, session_call = runner(url)
        p50, p99 = latency(session_call(), text, ids, args.calls)
        qps = throughput(session_call, text, ids, args.threads, args.seconds)
        closer.close()
        print(json.dumps({"system": system, "path": path, "url": url, "p50_us": round(p50, 1),
                          "p99_us": round(p99, 1), "threads": args.threads,
                          "queries_per_s": round(qps, 1)}), flush=True)


if __name__ == "__main__":
    main()
