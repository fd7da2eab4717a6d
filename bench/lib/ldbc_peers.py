"""The LDBC SF0.1 set and a Neo4j 5.26 peer holding it, for the scripts that compare
kith with Neo4j on it (bench/suite, bench/seek)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

from kith_serve import free_port

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"
PEER = ROOT / "bench" / "peers" / "neo4j"


def sf01_source(work: Path) -> Path:
    """The SF0.1 CSV set, unpacked from ../shared/data into WORK/data once."""
    src = work / "data" / "sf0.1" / "social_network"
    if not src.is_dir():
        (work / "data").mkdir(parents=True, exist_ok=True)
        subprocess.run(["tar", "--zstd", "-xf", str(SHARED / "ldbc-snb-sf0.1-datagen.tar.zst"),
                        "-C", str(work / "data")], check=True)
    return src


def start_neo4j(src: Path, work: Path) -> tuple[Path, int]:
    """Neo4j on a free port with SRC loaded (its own bulk import and indexes, in
    WORK/neo4j the first time; started again from there after)."""
    home, port = work / "neo4j", free_port()
    if (home / "data").is_dir():
        subprocess.run(["bash", str(PEER / "neo4j.sh"), "start", str(home), str(port)], check=True)
    else:
        env = dict(os.environ, KEEP_RUNNING="1")
        subprocess.run(["bash", str(PEER / "ldbc" / "load.sh"), str(src), str(home), str(port)],
                       check=True, env=env)
    return home, port
