"""The kith servers of tests/drivers/python/conftest.py (``ldbc_server``,
``write_server``), for the tools' suites, which run in a virtual environment of their
own (their dependencies are many and pinned apart from the driver suite's)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "kith_driver_servers", Path(__file__).resolve().parents[2] / "drivers" / "python" / "conftest.py")
_servers = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _servers  # its dataclass looks itself up there
_spec.loader.exec_module(_servers)

ldbc_server = _servers.ldbc_server
write_server = _servers.write_server
