"""cypher-shell against kith: a server with two users (an admin and a reader), and
cypher-shell started as a person would start it, from a file or on a terminal."""
from __future__ import annotations

import fcntl
import importlib.util
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "kith_driver_servers", Path(__file__).resolve().parents[2] / "drivers" / "python" / "conftest.py")
_servers = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _servers  # its dataclass looks itself up there
_spec.loader.exec_module(_servers)

ADMIN = ("ada", "ada-password")
READER = ("rita", "rita-password")


def _user(data: Path, name: str, role: str, password: str) -> None:
    subprocess.run([str(_servers.kith_bin()), "user", "add", name, "--role", role, "--data", str(data),
                    "--password-stdin"], input=password + "\n", text=True, check=True, capture_output=True)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("cypher-shell")
    data = root / "data"
    _user(data, ADMIN[0], "admin", ADMIN[1])
    _user(data, READER[0], "reader", READER[1])
    started = _servers.start(data, root / "serve.log")
    yield started
    _servers.stop(started)


def _command(server, user: tuple[str, str], *args: str) -> list[str]:
    classpath = os.environ.get("CYPHER_SHELL_CLASSPATH")
    if not classpath:
        pytest.fail("CYPHER_SHELL_CLASSPATH is not set: run tests/tools/cypher-shell/run")
    return ["java", "-cp", classpath, "org.neo4j.shell.Main", "-a", f"bolt://127.0.0.1:{server.bolt_port}",
            "-u", user[0], "-p", user[1], *args]


@dataclass
class Ran:
    code: int
    out: str
    err: str


def run_shell(server, *args: str, user: tuple[str, str] = ADMIN, stdin: str | None = None) -> Ran:
    """cypher-shell without a terminal: it reads statements from ``stdin`` (or a
    file, or the last argument) and exits."""
    done = subprocess.run(_command(server, user, *args), input=stdin or "", text=True,
                          capture_output=True, timeout=120)
    # Timings differ from run to run; the rest of the text is compared exactly.
    timing = re.compile(r"after \d+ ms")
    return Ran(done.returncode, timing.sub("after N ms", done.stdout), done.stderr)


class Terminal:
    """cypher-shell on a pseudo-terminal, typed into as a person would."""

    def __init__(self, server, user: tuple[str, str] = ADMIN):
        self.master, slave = os.openpty()
        # A terminal of no size makes the line editor shorten the prompt to "=>...".
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
        env = dict(os.environ, TERM="xterm", COLUMNS="200", LINES="50")
        self.process = subprocess.Popen(_command(server, user), stdin=slave, stdout=slave, stderr=slave,
                                        env=env, close_fds=True)
        os.close(slave)
        self.seen = ""

    def expect(self, text: str, timeout: float = 60) -> str:
        """Reads until ``text`` appears; returns what came before it."""
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            left = deadline - time.monotonic()
            if left <= 0 or self.process.poll() is not None:
                pytest.fail(f"cypher-shell never printed {text!r}; it printed:\n{self.seen[-3000:]}")
            ready, _, _ = select.select([self.master], [], [], min(left, 0.5))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    continue
                # Colours and cursor moves of the line editor are not text.
                self.seen += re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", chunk.decode(errors="replace"))
        before, _, self.seen = self.seen.partition(text)
        return before

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\r").encode())

    def close(self) -> None:
        if self.process.poll() is None:
            self.type(":exit")
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
        os.close(self.master)


@pytest.fixture()
def terminal(server):
    opened = Terminal(server)
    yield opened
    opened.close()
