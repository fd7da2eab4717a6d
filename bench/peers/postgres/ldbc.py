"""The official LDBC SNB Interactive SQL texts (`../shared/data/ldbc-sql/queries/`), run
unmodified on PostgreSQL, and their answers in kith's terms.

Each text is read as bytes and sent as written; only the `:name` parameters are replaced,
as the reference driver does, by literals: ids and integers as numbers, strings quoted,
and dates (`maxDate`, `startDate`, `minDate` and the updates' `creationDate` and
`joinDate`, given as epoch ms) as `timestamptz` literals in UTC, `birthday` as a `date`.

`as_kith(procedure, row)` turns a row of a text into a row of kith's procedure of the same
query (`docs/ldbc.md`): timestamps and dates become epoch ms; IC1's universities and
companies (`[name, year as text, place]`) get the year as an integer; IC14's path (a
list of [from, to] edges) becomes the list of person ids on it, its weight a float;
lists the specification leaves unordered are sorted, as the oracle fixtures are.
"""
import datetime
import decimal
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
TEXTS = os.path.normpath(os.path.join(HERE, "../../../../shared/data/ldbc-sql/queries"))
# Parameters given as epoch ms that the texts compare with or store in timestamp columns,
# and the one stored in a date column.
DATES = {"maxDate", "startDate", "minDate", "creationDate", "joinDate"}
DAYS = {"birthday"}
PARAM = re.compile(r"(?<![:\w]):([A-Za-z]\w*)")
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
OPEN_LISTS = {"ldbc.ic1": {8, 9, 11, 12}, "ldbc.ic12": {3}}
# Where a text departs from the specification: (the words of the text, the words that
# would follow the specification, why). The check runs the text as written; when its
# answer differs from kith's it runs the corrected form too, and counts the case as this
# quirk only if the corrected form then equals kith's answer.
QUIRKS = {
    "ldbc.ic12": ("count(*) as replyCount", "count(distinct p1.m_messageid) as replyCount",
                  "the text counts a reply once per tag of its post in the class (count(*) over "
                  "reply x tag); the specification counts replies"),
}
# Texts whose columns come in another order than the specification's (and kith's).
COLUMN_ORDER = {"ldbc.is4": [1, 0]}  # the text selects content before creationDate


class BadParameter(ValueError):
    pass


def text_file(procedure):
    """ldbc.is3 -> interactive-short-3.sql, ldbc.ic14 -> interactive-complex-14.sql."""
    name = procedure.split(".")[1]
    kind = {"is": "short", "ic": "complex"}[name[:2]]
    return os.path.join(TEXTS, f"interactive-{kind}-{int(name[2:])}.sql")


def read_text(procedure):
    with open(text_file(procedure), "rb") as f:
        return f.read().decode("utf-8")


def literal(name, value):
    if name in DATES or name in DAYS:
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadParameter(f"{name} must be epoch milliseconds, got {value!r}")
        at = EPOCH + datetime.timedelta(milliseconds=value)
        if name in DAYS:
            return f"'{at.date().isoformat()}'::date"
        return f"'{at.isoformat(timespec='milliseconds')}'::timestamptz"
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise BadParameter(f"{name}: only integers and strings are parameters here, got {value!r}")
    if isinstance(value, int):
        return str(value)
    return "'" + value.replace("'", "''") + "'"


def bind(text, params):
    """The text with every :name replaced by the literal of params[name]."""
    def one(m):
        name = m.group(1)
        if name not in params:
            raise BadParameter(f"the text needs :{name}, which the call does not give")
        return literal(name, params[name])
    return PARAM.sub(one, text)


def plain(v):
    if isinstance(v, datetime.datetime):
        return round((v - EPOCH).total_seconds() * 1000)
    if isinstance(v, datetime.date):
        return (v - EPOCH.date()).days * 86_400_000
    if isinstance(v, decimal.Decimal):
        return int(v) if v == v.to_integral_value() else float(v)
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    return v


def as_kith(procedure, row):
    out = [plain(v) for v in row]
    if procedure in COLUMN_ORDER:
        out = [out[c] for c in COLUMN_ORDER[procedure]]
    if procedure == "ldbc.ic1":
        for c in (11, 12):
            out[c] = [[name, int(year), place] for name, year, place in out[c] or []]
        for c in (8, 9):
            out[c] = out[c] or []
    if procedure == "ldbc.ic14":
        edges, weight = out
        out = [[edges[0][0]] + [to for _, to in edges] if edges else [], float(weight)]
    for c in OPEN_LISTS.get(procedure, ()):
        if isinstance(out[c], list):
            out[c] = sorted(out[c], key=lambda x: json.dumps(x, ensure_ascii=False))
    return out


def run(conn, procedure, params, text=None):
    """The rows of one call, as the text answers them."""
    sql = bind(text or read_text(procedure), params)
    with conn.cursor() as cur:
        cur.execute(sql)
        return cur.fetchall()
