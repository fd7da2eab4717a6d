"""Starting `kith serve` for a benchmark script: free ports, the process, and the wait
until `/health` answers. Shared by bench/suite, bench/difftest and bench/overload so
each script says only what is its own (its data, its flags, its users)."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Served:
    """A running `kith serve` with its HTTP/WebSocket and Bolt ports."""

    process: subprocess.Popen
    http: int
    bolt: int

    def stop(self, seconds: float = 30) -> None:
        self.process.terminate()
        try:
            self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def serve(kith_bin: Path, data: Path, log: Path, *flags: str, seconds: float = 60) -> Served:
    """Starts `kith serve --data DATA` on two free loopback ports with FLAGS, its output
    in LOG, and returns once `/health` answers; exits naming LOG if the server dies or
    is not healthy within SECONDS."""
    http = free_port()
    bolt = free_port()
    while bolt == http:
        bolt = free_port()
    out = log.open("wb")
    process = subprocess.Popen(
        [str(kith_bin), "serve", "--data", str(data), "--listen", f"127.0.0.1:{http}",
         "--bolt-listen", f"127.0.0.1:{bolt}", *flags],
        stdout=out, stderr=subprocess.STDOUT)
    out.close()  # the child holds its own copy
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{http}/health", timeout=1)
            return Served(process, http, bolt)
        except OSError:
            if process.poll() is not None:
                raise SystemExit(f"kith serve exited with {process.returncode}; see {log}")
            time.sleep(0.1)
    process.terminate()
    raise SystemExit(f"kith serve was not healthy within {seconds:.0f} s; see {log}")
