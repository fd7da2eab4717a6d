#!/usr/bin/env python3
"""Connections that never authenticate (issue 48, docs/reliability.md).

Starts `kith serve` with a user (auth on, as in production) on the Shindig graph, and
runs legitimate clients through two phases, a baseline and an attack:

- Neo4j's own Python driver and kith's Python client, each a persistent connection
  sending a paced read (100 a second), its latency counted from when it was due;
- new clients, one every 250 ms, alternately a new Neo4j driver and a new kith client,
  timed from nothing to their first answer ("connects within 1 s").

During the attack a separate process (niced, standing in for an attacker on another
machine; `--attacker-nice 0` to share the cores equally) holds
`--silent` Bolt sockets that complete the handshake and go silent, and `--trickle`
sockets that send one byte a second (half a Bolt HELLO, half HTTP headers), from
`--sources` loopback addresses (127.0.0.2...), each reopened a second after the server
closes it. The legitimate clients come from 127.0.0.1.

Checks (exit 1 if one fails): every new legitimate client connected within 1 s and
none failed, and each persistent client's p99 during the attack is within 2x its
baseline p99 (`--p99-ratio`; with a floor for the baseline, `--p99-floor-ms`, 2 ms).
The gate's `--quick` run checks for starvation rather than the target: within 4x
the baseline and at least 50 ms over it (`--p99-slack-ms`), with a 5 ms floor, since
its thousand samples per client put the p99 at the mercy of one scheduling hiccup
on two cores shared with other work; an attack that works shows as seconds or as
failed clients. Report: OUT/unauthenticated.md and .json.

usage: bench/overload/unauthenticated.py [--quick] [--out DIR] [--silent N]
         [--trickle N] [--sources K] [--baseline S] [--attack S] [--attacker-nice N]
         [--p99-floor-ms MS] [--p99-ratio R] [--p99-slack-ms MS]
(--sources up to 60,000: addresses 127.x.y.z from 127.0.0.2 on, so a flood of one
socket per address can be tried.)
env:   KITH_BIN (default target/release/kith)
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import kith
import neo4j

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from kith_serve import serve  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
USER, PASSWORD = "app", "unauthenticated-bench-password"
BOLT_OFFER = b"\x60\x60\xb0\x17" + bytes([0, 8, 8, 5]) + bytes(12)
QUERY = "MATCH (p:Person {id: $id})-[:FRIEND_OF]->(f) RETURN count(f) AS n"
RATE = 100.0  # requests per second of each persistent client


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Server:
    """`kith serve` on a fresh copy of the data with one reader user."""

    def __init__(self, kith_bin: Path, data: Path, log: Path):
        subprocess.run(
            [str(kith_bin), "user", "add", USER, "--role", "reader", "--data", str(data),
             "--password-stdin"],
            input=PASSWORD.encode(), check=True, capture_output=True)
        self.served = serve(kith_bin, data, log)
        self.process = self.served.process
        self.http_port, self.bolt_port = self.served.http, self.served.bolt

    @property
    def bolt(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def ws(self) -> str:
        return f"ws://{USER}:{PASSWORD}@127.0.0.1:{self.http_port}/v1/ws"

    def metrics(self) -> dict[str, float]:
        request = urllib.request.Request(f"http://127.0.0.1:{self.http_port}/metrics")
        import base64
        token = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        request.add_header("Authorization", f"Basic {token}")
        text = urllib.request.urlopen(request, timeout=5).read().decode()
        out = {}
        for line in text.splitlines():
            if line.startswith("kith_connection"):
                name, _, value = line.rpartition(" ")
                out[name] = float(value)
        return out

    def stop(self) -> None:
        self.served.stop()


# ---------------------------------------------------------------- the attacker


async def _silent(port: int, source: str, stop: asyncio.Event, tally: dict) -> None:
    """Connects, completes Bolt's handshake, says nothing; again a second after the
    server closes it."""
    while not stop.is_set():
        opened = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(source, 0))
            writer.write(BOLT_OFFER)
            await writer.drain()
            answer = await reader.read(4)
            if len(answer) < 4:
                tally["refused at once"] = tally.get("refused at once", 0) + 1
            else:
                tally["handshakes"] = tally.get("handshakes", 0) + 1
                while not stop.is_set() and await _wait_closed(reader, 0.5) is False:
                    pass
                key = f"closed after {_bucket(time.monotonic() - opened)}"
                tally[key] = tally.get(key, 0) + 1
            writer.close()
        except OSError:
            tally["connect failed"] = tally.get("connect failed", 0) + 1
        await _pause(1.0 + random.random() * 0.2, stop)


async def _trickle(port: int, source: str, payload: bytes, prefix: bytes,
                   stop: asyncio.Event, tally: dict) -> None:
    """Sends `prefix` at once (a Bolt handshake, or nothing), then `payload` one byte a
    second; again a second after the server closes it."""
    while not stop.is_set():
        opened = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(source, 0))
            if prefix:
                writer.write(prefix)
                await writer.drain()
                await reader.read(4)
            for byte in payload:
                if stop.is_set():
                    break
                writer.write(bytes([byte]))
                await writer.drain()
                if await _wait_closed(reader, 1.0):
                    break
            key = f"trickle closed after {_bucket(time.monotonic() - opened)}"
            tally[key] = tally.get(key, 0) + 1
            writer.close()
        except OSError:
            tally["trickle closed at once"] = tally.get("trickle closed at once", 0) + 1
        await _pause(1.0 + random.random() * 0.2, stop)


async def _wait_closed(reader: asyncio.StreamReader, seconds: float) -> bool:
    try:
        data = await asyncio.wait_for(reader.read(4096), seconds)
        return data == b""
    except asyncio.TimeoutError:
        return False
    except OSError:
        return True


async def _pause(seconds: float, stop: asyncio.Event) -> None:
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except asyncio.TimeoutError:
        pass


def _bucket(seconds: float) -> str:
    for bound in (0.1, 1, 6, 12):
        if seconds < bound:
            return f"< {bound} s"
    return ">= 12 s"


def source_address(i: int) -> str:
    """The i-th attacking loopback address: 127.0.0.2, 127.0.0.3, ... 127.0.0.251,
    127.0.1.2, ... (never 127.0.0.1, the legitimate clients')."""
    return f"127.{i // 62500}.{i // 250 % 250}.{2 + i % 250}"


def attacker(bolt: int, http: int, silent: int, trickle: int, sources: int, nice: int,
             seconds: float, results) -> None:
    raise_fd_limit()
    if nice:
        os.nice(nice)
    hello = (b"\x00\x30\xb1\x01\xa1\x8auser_agent" + b"\xd0\x20" + b"x" * 32 + b"\x00\x00")
    http_head = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"y" * 64 + b"\r\n\r\n"

    async def main():
        stop = asyncio.Event()
        tally: dict = {}
        addresses = [source_address(i) for i in range(sources)]
        tasks = [asyncio.create_task(_silent(bolt, addresses[i % sources], stop, tally))
                 for i in range(silent)]
        for i in range(trickle):
            source = addresses[i % sources]
            if i % 2 == 0:
                coro = _trickle(bolt, source, hello, BOLT_OFFER, stop, tally)
            else:
                coro = _trickle(http, source, http_head, b"", stop, tally)
            tasks.append(asyncio.create_task(coro))
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.wait(tasks, timeout=5)
        return tally

    results.put(asyncio.run(main()))


# ---------------------------------------------------------------- the clients


class Latencies:
    def __init__(self):
        self.lock = threading.Lock()
        self.samples: list[tuple[float, float]] = []  # (when, ms)
        self.errors: list[tuple[float, str]] = []

    def add(self, when: float, ms: float) -> None:
        with self.lock:
            self.samples.append((when, ms))

    def fail(self, when: float, error: str) -> None:
        with self.lock:
            self.errors.append((when, error))

    def between(self, start: float, end: float) -> list[float]:
        with self.lock:
            return [ms for when, ms in self.samples if start <= when < end]

    def errors_between(self, start: float, end: float) -> list[str]:
        with self.lock:
            return [e for when, e in self.errors if start <= when < end]


def paced(send, latencies: Latencies, stop: threading.Event) -> None:
    """Sends at RATE a second; a request's latency counts from when it was due."""
    interval = 1.0 / RATE
    due = time.monotonic()
    i = 0
    while not stop.is_set():
        now = time.monotonic()
        if now < due:
            time.sleep(due - now)
        try:
            send(1 + i % 200)
            latencies.add(due, (time.monotonic() - due) * 1000)
        except Exception as e:  # every failure is a finding
            latencies.fail(due, repr(e))
        due += interval
        i += 1


def neo4j_persistent(server: Server, latencies: Latencies, stop: threading.Event) -> None:
    with neo4j.GraphDatabase.driver(server.bolt, auth=(USER, PASSWORD)) as driver:
        with driver.session() as session:
            paced(lambda pid: session.run(QUERY, id=pid).single(), latencies, stop)


def kith_persistent(server: Server, latencies: Latencies, stop: threading.Event) -> None:
    with kith.connect(server.ws) as client:
        paced(lambda pid: client.call("shindig.friends", person_id=pid), latencies, stop)


def new_neo4j(server: Server) -> None:
    with neo4j.GraphDatabase.driver(server.bolt, auth=(USER, PASSWORD),
                                    connection_timeout=5) as driver:
        driver.execute_query(QUERY, id=7)


def new_kith(server: Server) -> None:
    with kith.connect(server.ws, timeout=5) as client:
        client.call("shindig.friends", person_id=7)


def connecting(server: Server, latencies: dict, stop: threading.Event) -> None:
    """A new client every 250 ms, alternately Neo4j's driver and kith's."""
    kinds = [("neo4j", new_neo4j), ("kith", new_kith)]
    i = 0
    while not stop.is_set():
        name, connect = kinds[i % 2]
        started = time.monotonic()
        try:
            connect(server)
            latencies[name].add(started, (time.monotonic() - started) * 1000)
        except Exception as e:
            latencies[name].fail(started, repr(e))
        i += 1
        stop.wait(0.25)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process `pid` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def summary(values: list[float]) -> dict:
    return {
        "n": len(values),
        "p50_ms": round(percentile(values, 50), 2),
        "p99_ms": round(percentile(values, 99), 2),
        "max_ms": round(max(values), 2) if values else float("nan"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="CI: 5 s baseline, 10 s attack")
    parser.add_argument("--out", type=Path, default=ROOT / "target" / "overload-unauth")
    parser.add_argument("--silent", type=int, default=2000)
    parser.add_argument("--trickle", type=int, default=1000)
    parser.add_argument("--sources", type=int, default=50)
    parser.add_argument("--baseline", type=float, default=20.0)
    parser.add_argument("--attack", type=float, default=40.0)
    parser.add_argument("--attacker-nice", type=int, default=19)
    parser.add_argument("--scale", default="0.1")
    parser.add_argument("--p99-floor-ms", type=float, default=2.0)
    parser.add_argument("--p99-ratio", type=float, default=2.0)
    parser.add_argument("--p99-slack-ms", type=float, default=0.0)
    args = parser.parse_args()
    if args.quick:
        args.baseline, args.attack = 5.0, 10.0
        args.p99_floor_ms = max(args.p99_floor_ms, 5.0)
        # The gate shares two cores with whatever else the machine runs: it checks
        # that legitimate clients are not starved (an attack that worked shows as
        # seconds, or as failures), and the full run checks the 2x target.
        args.p99_ratio = max(args.p99_ratio, 4.0)
        args.p99_slack_ms = max(args.p99_slack_ms, 50.0)
    raise_fd_limit()
    kith_bin = Path(os.environ.get("KITH_BIN", ROOT / "target" / "release" / "kith"))
    args.out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="kith-unauth-"))
    data = work / "data"
    subprocess.run([str(kith_bin), "generate", "shindig", "--scale", args.scale, "--seed", "42",
                    "--out", str(data)], check=True, capture_output=True)
    server = Server(kith_bin, data, args.out / "serve.log")
    try:
        return run(server, args)
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


def run(server: Server, args) -> int:
    stop = threading.Event()
    persistent = {"neo4j": Latencies(), "kith": Latencies()}
    connects = {"neo4j": Latencies(), "kith": Latencies()}
    threads = [
        threading.Thread(target=neo4j_persistent, args=(server, persistent["neo4j"], stop)),
        threading.Thread(target=kith_persistent, args=(server, persistent["kith"], stop)),
        threading.Thread(target=connecting, args=(server, connects, stop)),
    ]
    for t in threads:
        t.start()
    time.sleep(1.0)  # connected and warm
    baseline_start = time.monotonic()
    time.sleep(args.baseline)
    results = multiprocessing.Queue()
    attack = multiprocessing.Process(
        target=attacker,
        args=(server.bolt_port, server.http_port, args.silent, args.trickle, args.sources,
              args.attacker_nice, args.attack, results))
    attack_start = time.monotonic()
    server_cpu = cpu_seconds(server.process.pid)
    attack.start()
    # The attacker's sockets take a few seconds to open; then the pool is full.
    time.sleep(args.attack / 2)
    during = server.metrics()
    time.sleep(max(0.0, args.attack / 2 - 0.5))
    attacker_cpu = cpu_seconds(attack.pid) if attack.is_alive() else float("nan")
    server_cpu = cpu_seconds(server.process.pid) - server_cpu
    attack.join(args.attack + 30)
    attack_end = time.monotonic()
    tally = results.get(timeout=10) if not results.empty() else {}
    after = server.metrics()
    stop.set()
    for t in threads:
        t.join(30)

    report = {"options": {k: (str(v) if isinstance(v, Path) else v)
                          for k, v in vars(args).items()},
              "attacker": tally, "metrics_during_attack": during, "metrics_after": after,
              "cpu_seconds_during_attack": {"server": round(server_cpu, 2),
                                            "attacker": round(attacker_cpu, 2)},
              "phases": {}}
    failures = []
    for phase, (start, end) in {"baseline": (baseline_start, attack_start),
                                "attack": (attack_start, attack_end)}.items():
        entry = {}
        for name in ("neo4j", "kith"):
            entry[f"{name} persistent"] = summary(persistent[name].between(start, end))
            entry[f"{name} persistent"]["errors"] = len(persistent[name].errors_between(start, end))
            entry[f"{name} new client"] = summary(connects[name].between(start, end))
            errors = connects[name].errors_between(start, end)
            entry[f"{name} new client"]["errors"] = len(errors)
            if errors:
                failures.append(f"{phase}: {len(errors)} new {name} clients failed: {errors[0]}")
            if persistent[name].errors_between(start, end):
                failures.append(f"{phase}: the persistent {name} client saw errors: "
                                f"{persistent[name].errors_between(start, end)[0]}")
        report["phases"][phase] = entry
    base, hit = report["phases"]["baseline"], report["phases"]["attack"]
    for name in ("neo4j", "kith"):
        slowest = hit[f"{name} new client"]["max_ms"]
        if not slowest < 1000:
            failures.append(f"a new {name} client took {slowest} ms to connect under attack")
        floor = max(base[f"{name} persistent"]["p99_ms"], args.p99_floor_ms)
        bound = round(max(args.p99_ratio * floor, floor + args.p99_slack_ms), 2)
        if not hit[f"{name} persistent"]["p99_ms"] <= bound:
            failures.append(f"{name} p99 under attack {hit[f'{name} persistent']['p99_ms']} ms "
                            f"> {args.p99_ratio:g}x baseline ({bound} ms)")
    report["failures"] = failures
    (args.out / "unauthenticated.json").write_text(json.dumps(report, indent=2))
    (args.out / "unauthenticated.md").write_text(markdown(report))
    print(markdown(report))
    return 1 if failures else 0


def markdown(report: dict) -> str:
    o = report["options"]
    lines = [
        "# Connections that never authenticate",
        "",
        f"{o['silent']} silent Bolt sockets and {o['trickle']} trickling one byte a second "
        f"(half Bolt, half HTTP), from {o['sources']} addresses, attacker nice "
        f"{o['attacker_nice']}; baseline {o['baseline']} s, attack {o['attack']} s.",
        "",
        "| phase | client | n | p50 ms | p99 ms | max ms | errors |",
        "|---|---|---|---|---|---|---|",
    ]
    for phase, entry in report["phases"].items():
        for client, s in entry.items():
            lines.append(f"| {phase} | {client} | {s['n']} | {s['p50_ms']} | {s['p99_ms']} | "
                         f"{s['max_ms']} | {s['errors']} |")
    cpu = report["cpu_seconds_during_attack"]
    lines += ["", f"CPU during the attack: the server {cpu['server']} s, the attacker "
              f"{cpu['attacker']} s (of {2 * o['attack']:.0f} core-seconds on 2 cores).",
              "", "What the attacker got:", ""]
    lines += [f"- {k}: {v}" for k, v in sorted(report["attacker"].items())]
    lines += ["", "The server's connection metrics halfway through the attack:", ""]
    lines += [f"- `{k}` {int(v)}" for k, v in sorted(report["metrics_during_attack"].items())
              if v]
    lines += ["", "Checks: " + ("all hold" if not report["failures"] else
                               "FAILED: " + "; ".join(report["failures"])), ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
