"""Fixtures that run a real `kith serve` for the integration tests.

The binary is ``$KITH_BIN`` or ``<repo>/target/release/kith``, built with
``cargo build --release --bin kith`` when missing. Data is generated once per
session at scale 0.1, seed 5. ``kith_server`` starts the server exactly as the
protocol documents it (``kith serve --data D --listen 127.0.0.1:PORT --workers 2``),
waits for ``GET /health`` to answer 200 (up to 30 s) and stops it with SIGTERM.

A server locks the directory it serves (it may write to it), so the extra servers
with other limits each serve a copy of the generated data. ``kith_write_server``
serves an empty new directory, which the server turns into an empty writable
database.
"""

from __future__ import annotations

import json
import os
import shutil
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
HEALTH_WAIT_S = 30.0


@dataclass
class RunningServer:
    port: int
    process: subprocess.Popen
    log: Path
    data: Path | None = None
    # Set when the server speaks TLS: a context that trusts its certificate.
    tls: ssl.SSLContext | None = None

    @property
    def ws_url(self) -> str:
        if self.tls is not None:
            return f"wss://localhost:{self.port}/v1/ws"
        return f"ws://127.0.0.1:{self.port}/v1/ws"

    @property
    def http_url(self) -> str:
        if self.tls is not None:
            return f"https://localhost:{self.port}"
        return f"http://127.0.0.1:{self.port}"


def make_certificate(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and 127.0.0.1, and its key
    (scripts/test-cert)."""
    subprocess.run(["bash", str(REPO / "scripts" / "test-cert"), str(directory)], check=True, capture_output=True)
    return directory / "server.crt", directory / "server.key"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def kith_bin() -> Path:
    override = os.environ.get("KITH_BIN")
    if override:
        path = Path(override)
        if not path.is_file():
            pytest.fail(f"KITH_BIN={override} is not a file")
        return path
    path = REPO / "target" / "release" / "kith"
    if not path.is_file():
        build = subprocess.run(
            ["cargo", "build", "--release", "--bin", "kith"],
            cwd=REPO,
            capture_output=True,
            text=True,
        )
        if build.returncode != 0 or not path.is_file():
            pytest.fail(f"cargo build --release --bin kith failed:\n{build.stderr[-4000:]}")
    return path


@pytest.fixture(scope="session")
def kith_data(kith_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("kith") / "data"
    subprocess.run(
        [str(kith_bin), "generate", "shindig", "--scale", "0.1", "--seed", "5", "--out", str(data)],
        check=True,
        capture_output=True,
    )
    return data


def start_server(
    kith_bin: Path, data: Path, log_dir: Path, *extra: str, tls: tuple[Path, Path] | None = None
) -> RunningServer:
    """Starts `kith serve` and waits until /health answers 200; with ``tls`` (a
    certificate and its key) the server speaks TLS only."""
    port = _free_port()
    log = log_dir / f"serve-{port}.log"
    command = [str(kith_bin), "serve", "--data", str(data), "--listen", f"127.0.0.1:{port}", "--workers", "2", "--bolt-listen", "off", *extra]
    context = None
    if tls is not None:
        command += ["--tls-cert", str(tls[0]), "--tls-key", str(tls[1])]
        context = ssl.create_default_context(cafile=str(tls[0]))
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    server = RunningServer(port, process, log, data, context)
    deadline = time.monotonic() + HEALTH_WAIT_S
    while True:
        if process.poll() is not None:
            pytest.fail(f"{' '.join(command)} exited with {process.returncode}:\n{log.read_text()[-4000:]}")
        try:
            health = f"{server.http_url}/health"
            with urllib.request.urlopen(health, timeout=1, context=context) as response:
                if response.status == 200:
                    json.loads(response.read())
                    return server
        except (OSError, ValueError):
            pass
        if time.monotonic() > deadline:
            stop_server(server)
            pytest.fail(f"kith serve did not answer /health within {HEALTH_WAIT_S} s:\n{log.read_text()[-4000:]}")
        time.sleep(0.1)


def copy_data(data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of a data directory, for a second server (the first holds the
    directory's lock). Its LOCK file is left behind: the lock is the holder's."""
    copy = tmp_path_factory.mktemp("kith-copy") / "data"
    shutil.copytree(data, copy, ignore=shutil.ignore_patterns("LOCK"))
    return copy


def empty_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty new directory for a server to create a database in."""
    data = tmp_path_factory.mktemp("kith-empty") / "data"
    data.mkdir()
    return data


def stop_server(server: RunningServer) -> None:
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(15)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(5)


@pytest.fixture(scope="session")
def kith_server(kith_bin: Path, kith_data: Path, tmp_path_factory: pytest.TempPathFactory):
    server = start_server(kith_bin, kith_data, tmp_path_factory.mktemp("logs"))
    yield server
    stop_server(server)
    assert server.process.returncode == 0, (
        f"kith serve exited {server.process.returncode} on SIGTERM:\n{server.log.read_text()[-4000:]}"
    )


@pytest.fixture(scope="session")
def kith_server_small_chunks(kith_bin: Path, kith_data: Path, tmp_path_factory: pytest.TempPathFactory):
    """A second server with 50-row chunks: at scale 0.1 there are only 201 people, so
    friends_of_friends_3 (at most 200 rows) fits one default 1,000-row chunk."""
    server = start_server(
        kith_bin, copy_data(kith_data, tmp_path_factory), tmp_path_factory.mktemp("logs"), "--chunk-rows", "50"
    )
    yield server
    stop_server(server)


@pytest.fixture(scope="session")
def kith_server_limits(kith_bin: Path, kith_data: Path, tmp_path_factory: pytest.TempPathFactory):
    """Tight limits, to see busy, result_too_large and frame_too_large for real."""
    server = start_server(
        kith_bin,
        copy_data(kith_data, tmp_path_factory),
        tmp_path_factory.mktemp("logs"),
        "--inflight-per-connection-max", "4",
        "--result-rows-max", "100",
        "--frame-bytes-max", "2000",
    )
    yield server
    stop_server(server)


@pytest.fixture(scope="session")
def kith_server_timeouts(kith_bin: Path, kith_data: Path, tmp_path_factory: pytest.TempPathFactory):
    """One worker and a 1 ms query timeout, to see the server's `timeout`."""
    server = start_server(
        kith_bin, copy_data(kith_data, tmp_path_factory), tmp_path_factory.mktemp("logs"), "--query-timeout-ms", "1"
    )
    yield server
    stop_server(server)


@pytest.fixture(scope="session")
def kith_write_server(kith_bin: Path, tmp_path_factory: pytest.TempPathFactory):
    """A server on an empty new directory: an empty writable database, shared by the
    write tests (each uses its own labels)."""
    server = start_server(kith_bin, empty_data(tmp_path_factory), tmp_path_factory.mktemp("logs"))
    yield server
    stop_server(server)
    assert server.process.returncode == 0, (
        f"kith serve exited {server.process.returncode} on SIGTERM:\n{server.log.read_text()[-4000:]}"
    )
