"""Runs real `kith serve` processes with Bolt for Neo4j's own Python driver.

``ldbc_server`` serves the official LDBC SNB Interactive test data (loaded once with
``kith load ldbc``); ``write_server`` an empty writable database. Both listen for Bolt
on a free port. The binary is ``$KITH_BIN`` (scripts/test sets it).
"""
from __future__ import annotations

import os
import signal
import socket
import ssl
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO.parent / "shared" / "data"
FIXTURES = REPO / "crates" / "kith-cypher" / "tests" / "fixtures" / "neo4j-official"


@dataclass
class Server:
    http_port: int
    bolt_port: int
    process: subprocess.Popen

    @property
    def bolt(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def neo4j(self) -> str:
        return f"neo4j://127.0.0.1:{self.bolt_port}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def kith_bin() -> Path:
    path = Path(os.environ.get("KITH_BIN", REPO / "target" / "release" / "kith"))
    if not path.is_file():
        pytest.fail(f"no kith binary at {path}: build it with cargo build --release --bin kith")
    return path


def start(data: Path, log: Path, *extra: str, tls: tuple[Path, Path] | None = None) -> Server:
    """Starts `kith serve` with Bolt; with ``tls`` (certificate, key) TLS only. A port
    taken between choosing it and binding it (another process on this machine) is
    chosen again."""
    for _ in range(3):
        try:
            return _start(data, log, *extra, tls=tls)
        except PortTaken:
            continue
    return _start(data, log, *extra, tls=tls)


class PortTaken(Exception):
    pass


def _two_free_ports() -> tuple[int, int]:
    # The same port can come back twice once the first probe socket is closed.
    first = _free_port()
    second = _free_port()
    while second == first:
        second = _free_port()
    return first, second


def _start(data: Path, log: Path, *extra: str, tls: tuple[Path, Path] | None = None) -> Server:
    http_port, bolt_port = _two_free_ports()
    command = [str(kith_bin()), "serve", "--data", str(data), "--listen", f"127.0.0.1:{http_port}",
               "--bolt-listen", f"127.0.0.1:{bolt_port}", "--workers", "2", *extra]
    health, context = f"http://127.0.0.1:{http_port}/health", None
    if tls is not None:
        command += ["--tls-cert", str(tls[0]), "--tls-key", str(tls[1])]
        health, context = f"https://localhost:{http_port}/health", ssl.create_default_context(cafile=str(tls[0]))
    process = subprocess.Popen(command, stdout=log.open("w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            said = log.read_text()
            if "Address already in use" in said:
                raise PortTaken()
            pytest.fail(f"kith serve exited:\n{said[-4000:]}")
        try:
            with urllib.request.urlopen(health, timeout=1, context=context):
                return Server(http_port, bolt_port, process)
        except OSError:
            time.sleep(0.1)
    process.kill()
    pytest.fail(f"kith serve did not answer /health within 30 s:\n{log.read_text()[-4000:]}")


def stop(server: Server) -> None:
    server.process.send_signal(signal.SIGTERM)
    try:
        server.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.process.kill()


@pytest.fixture(scope="session")
def ldbc_server(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("ldbc")
    data = root / "data"
    subprocess.run([str(kith_bin()), "load", "ldbc", str(SHARED / "ldbc-snb-interactive-test" / "vanilla"),
                    "--out", str(data)], check=True, capture_output=True)
    server = start(data, root / "serve.log")
    yield server
    stop(server)


@pytest.fixture()
def write_server(tmp_path: Path):
    server = start(tmp_path / "data", tmp_path / "serve.log")
    yield server
    stop(server)
