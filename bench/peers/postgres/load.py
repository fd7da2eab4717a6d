"""Load an LDBC SNB data set (csv_composite, epoch-ms dates) into PostgreSQL the reference way.

The reference implementation (`../shared/data/ldbc-sql/`, unmodified) runs, in order:
`ddl/schema.sql`, `ddl/load.sql`, `ddl/schema_constraints.sql`,
`ddl/schema_foreign_keys.sql`, then ANALYZE. Its `load.sql` reads the `csv_merge_foreign`
layout from `/data/...`; our data sets are `csv_composite`. So each statement of load.sql
runs as written, except that a `COPY t FROM '/data/<dir>/<file>.csv' ...` reads the file
<file>.csv of the merge-foreign layout from STDIN, made here from the composite files:

- single-valued foreign keys become columns (a post's creator, forum and place; a forum's
  moderator; a place's container; a tag's class; ...);
- the composite person's `language` and `email` lists become the
  `person_speaks_language` and `person_email_emailaddress` files;
- epoch-ms dates become ISO timestamps in UTC (`birthday` a date), as the reference
  data's DateFormatter writes them.

Prints one line per table and, with --summary FILE, writes {"seconds", "rows", "phases"}.

usage: load.py SRC_DIR --port PORT [--host 127.0.0.1] [--db ldbc] [--summary FILE]
"""
import argparse
import csv
import datetime
import io
import json
import os
import re
import sys
import time

import psycopg

HERE = os.path.dirname(os.path.abspath(__file__))
SQL = os.path.normpath(os.path.join(HERE, "../../../../shared/data/ldbc-sql"))
UTC = datetime.timezone.utc
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=UTC)
COPY = re.compile(r"^COPY\s+(\w+)(\s*\([^)]*\))?\s+FROM\s+'/data/(static|dynamic)/(\w+)_0_0\.csv'(.*)$",
                  re.IGNORECASE | re.DOTALL)


def timestamp(ms):
    return (EPOCH + datetime.timedelta(milliseconds=int(ms))).isoformat(timespec="milliseconds")


def date(ms):
    return (EPOCH + datetime.timedelta(milliseconds=int(ms))).date().isoformat()


class Composite:
    """The csv_composite files of one data set, read on demand."""

    def __init__(self, root):
        self.root = root

    def rows(self, folder, name):
        path = os.path.join(self.root, folder, f"{name}_0_0.csv")
        if not os.path.exists(path):
            sys.exit(f"load: {path} is missing: is {self.root} an LDBC csv_composite data set?")
        with open(path, encoding="utf-8") as f:
            next(f)
            for line in f:
                yield line.rstrip("\n").split("|")

    def pairs(self, folder, name):
        """A one-to-one relationship file as {source id: target id}."""
        return {a: b for a, b, *_ in self.rows(folder, name)}


def with_fk(data, folder, entity, *fks):
    """Rows of `entity` with the foreign keys `fks` (relationship file names) appended."""
    maps = [data.pairs(folder, fk) for fk in fks]
    for row in data.rows(folder, entity):
        yield row + [m.get(row[0], "") for m in maps]


def dated(rows, *columns, convert=timestamp):
    for row in rows:
        for c in columns:
            if row[c]:
                row[c] = convert(row[c])
        yield row


def person(data):
    place = data.pairs("dynamic", "person_isLocatedIn_place")
    for r in data.rows("dynamic", "person"):
        yield r[:4] + [date(r[4]), timestamp(r[5]), r[6], r[7], place.get(r[0], "")]


def listed(data, column):
    for r in data.rows("dynamic", "person"):
        for value in filter(None, r[column].split(";")):
            yield [r[0], value]


def post(data):
    creator = data.pairs("dynamic", "post_hasCreator_person")
    forum = {p: f for f, p in data.rows("dynamic", "forum_containerOf_post")}
    place = data.pairs("dynamic", "post_isLocatedIn_place")
    for r in data.rows("dynamic", "post"):
        r[2] = timestamp(r[2])
        yield r + [creator.get(r[0], ""), forum.get(r[0], ""), place.get(r[0], "")]


def comment(data):
    creator = data.pairs("dynamic", "comment_hasCreator_person")
    place = data.pairs("dynamic", "comment_isLocatedIn_place")
    on_post = data.pairs("dynamic", "comment_replyOf_post")
    on_comment = data.pairs("dynamic", "comment_replyOf_comment")
    for r in data.rows("dynamic", "comment"):
        r[1] = timestamp(r[1])
        m = r[0]
        yield r + [creator.get(m, ""), place.get(m, ""), on_post.get(m, ""), on_comment.get(m, "")]


def merge_foreign(data, name):
    """The rows of the merge-foreign file `name` (without _0_0.csv)."""
    plain = lambda folder: data.rows(folder, name)  # noqa: E731
    makers = {
        "forum": lambda: dated(with_fk(data, "dynamic", "forum", "forum_hasModerator_person"), 2),
        "forum_hasMember_person": lambda: dated(plain("dynamic"), 2),
        "forum_hasTag_tag": lambda: plain("dynamic"),
        "organisation": lambda: with_fk(data, "static", "organisation", "organisation_isLocatedIn_place"),
        "person": lambda: person(data),
        "person_email_emailaddress": lambda: listed(data, 9),
        "person_hasInterest_tag": lambda: plain("dynamic"),
        "person_knows_person": lambda: dated(plain("dynamic"), 2),
        "person_likes_post": lambda: dated(plain("dynamic"), 2),
        "person_likes_comment": lambda: dated(plain("dynamic"), 2),
        "person_speaks_language": lambda: listed(data, 8),
        "person_studyAt_organisation": lambda: plain("dynamic"),
        "person_workAt_organisation": lambda: plain("dynamic"),
        "place": lambda: with_fk(data, "static", "place", "place_isPartOf_place"),
        "post_hasTag_tag": lambda: plain("dynamic"),
        "comment_hasTag_tag": lambda: plain("dynamic"),
        "tagclass": lambda: with_fk(data, "static", "tagclass", "tagclass_isSubclassOf_tagclass"),
        "tag": lambda: with_fk(data, "static", "tag", "tag_hasType_tagclass"),
        "post": lambda: post(data),
        "comment": lambda: comment(data),
    }
    if name not in makers:
        sys.exit(f"load: load.sql reads {name}_0_0.csv, which this loader cannot make from csv_composite")
    return makers[name]()


def statements(path):
    """The statements of an SQL file, comments dropped (the reference files use `--` only)."""
    text = "\n".join(line.split("--", 1)[0] for line in open(path, encoding="utf-8"))
    return [s.strip() for s in text.split(";") if s.strip()]


def copy(cur, data, m):
    table, columns, _, name, options = m.groups()
    rows = 0
    buf = io.StringIO()
    out = csv.writer(buf, delimiter="|", lineterminator="\n")
    out.writerow(["header"])  # the statement says HEADER: its first line is skipped
    with cur.copy(f"COPY {table}{columns or ''} FROM STDIN{options}") as pipe:
        for row in merge_foreign(data, name):
            out.writerow(row)
            rows += 1
            if buf.tell() > 1 << 20:
                pipe.write(buf.getvalue())
                buf.seek(0)
                buf.truncate()
        pipe.write(buf.getvalue())
    return rows


def run_file(conn, data, name, counts):
    t0 = time.time()
    with conn.cursor() as cur:
        for stmt in statements(os.path.join(SQL, "ddl", name)):
            m = COPY.match(stmt)
            if m:
                n = copy(cur, data, m)
                counts[m.group(1)] = counts.get(m.group(1), 0) + n
                print(f"load: {m.group(1):<16} +{n:>9,} rows from {m.group(4)}", file=sys.stderr)
            else:
                cur.execute(stmt)
    conn.commit()
    return time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src", help="the data set: a folder with static/ and dynamic/ csv_composite files")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--db", default="ldbc")
    ap.add_argument("--summary", help="write the timings and row counts here (JSON)")
    a = ap.parse_args()
    data = Composite(a.src)
    with psycopg.connect(host=a.host, port=a.port, user="postgres", dbname="postgres", autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{a.db}"')
        c.execute(f'CREATE DATABASE "{a.db}"')
    counts, phases = {}, {}
    t0 = time.time()
    with psycopg.connect(host=a.host, port=a.port, user="postgres", dbname=a.db) as conn:
        for name in ("schema.sql", "load.sql", "schema_constraints.sql", "schema_foreign_keys.sql"):
            phases[name] = round(run_file(conn, data, name, counts), 3)
        t1 = time.time()
        conn.autocommit = True
        conn.execute("ANALYZE")
        phases["analyze"] = round(time.time() - t1, 3)
    seconds = time.time() - t0
    total = sum(counts.values())
    print(f"load: {total:,} rows in {seconds:.1f} s ({phases})", file=sys.stderr)
    if a.summary:
        with open(a.summary, "w") as f:
            json.dump({"seconds": round(seconds, 3), "rows": counts, "phases": phases}, f, indent=1)


if __name__ == "__main__":
    main()
