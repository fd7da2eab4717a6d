#!/usr/bin/env python3
"""Converts an LDBC SNB Interactive v1 data set (csv_composite, LongDateFormatter) into
the input of `neo4j-admin database import` as the official LDBC Cypher implementation
loads it: a header file per table from ../shared/data/ldbc-cypher/headers.txt, the data
files without their header line, and the Place / Organisation type column capitalised
into a label (city -> City). Writes OUT/import-args.txt with the --nodes and
--relationships arguments (one per line), for `kith import` and `neo4j-admin` alike.

usage: ldbc_to_neo4j.py SOCIAL_NETWORK_DIR HEADERS_TXT OUT_DIR
"""

import re
import shutil
import sys
from pathlib import Path

# The labels each node table's nodes get (Post and Comment are also Messages).
NODE_LABELS = {
    "comment": "Message:Comment",
    "post": "Message:Post",
    "person": "Person",
    "forum": "Forum",
    "place": "Place",
    "organisation": "Organisation",
    "tag": "Tag",
    "tagclass": "TagClass",
}


def rel_type(verb: str) -> str:
    """hasCreator -> HAS_CREATOR."""
    return re.sub(r"(?<!^)([A-Z])", r"_\1", verb).upper()


def copy_body(src: Path, dst, label_column):
    """Appends src without its header line; capitalises field `label_column`."""
    with src.open("rb") as f:
        f.readline()
        if label_column is None:
            shutil.copyfileobj(f, dst, 1 << 20)
            return
        for line in f:
            fields = line.rstrip(b"\n").split(b"|")
            value = fields[label_column]
            fields[label_column] = value[:1].upper() + value[1:]
            dst.write(b"|".join(fields) + b"\n")


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    src, headers, out = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    args = []
    for line in headers.read_text().splitlines():
        if not line.strip():
            continue
        table, header = line.split(" ", 1)
        folder, stem = table.split("/")
        parts = sorted((src / folder).glob(f"{stem}_[0-9]*_[0-9]*.csv"))
        if not parts:
            print(f"{src / folder}: no {stem}_*_*.csv", file=sys.stderr)
            return 1
        columns = header.split("|")
        label_column = columns.index(":LABEL") if ":LABEL" in columns else None
        (out / f"{stem}_header.csv").write_text(header + "\n")
        with (out / f"{stem}.csv").open("wb") as dst:
            for part in parts:
                copy_body(part, dst, label_column)
        files = f"{out / (stem + '_header.csv')},{out / (stem + '.csv')}"
        pieces = stem.split("_")
        if len(pieces) == 1:
            args.append(f"--nodes={NODE_LABELS[stem]}={files}")
        else:
            args.append(f"--relationships={rel_type(pieces[1])}={files}")
    (out / "import-args.txt").write_text("\n".join(args) + "\n")
    print(f"{len(args)} tables converted into {out}; arguments in {out / 'import-args.txt'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
