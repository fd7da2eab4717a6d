"""Compare Neo4j's answers to the official LDBC texts with the spec-written oracle's.

For each data set, case i of OFFICIAL/<query>.json and ORACLE/<query>.json is the same
call (official.py takes its cases from the oracle). Rows are compared value by value and
type by type (1 and 1.0 differ), in order, except IC14 (compared as sorted multisets,
both order by path weight only). Prints, per query, the cases compared, how many differ,
what differs (column names, rows), and the first differing case.

usage: official_diff.py ORACLE_ROOT OFFICIAL_ROOT [DATASET ...]
       (default data sets: test test-after-updates sf0.1 sf0.1-after-updates)
"""
import glob
import json
import os
import sys


def key(v):
    return json.dumps(v, ensure_ascii=False, sort_keys=True)


def typed(v):
    """A value with the JSON type made explicit, so 1 and 1.0 differ."""
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int):
        return ["int", v]
    if isinstance(v, float):
        return ["float", v]
    return [typed(x) for x in v]


def short(v, n=400):
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= n else s[:n] + "..."


def compare(oracle_dir, official_dir):
    out = []
    for path in sorted(glob.glob(os.path.join(official_dir, "*.json")),
                       key=lambda p: (os.path.basename(p)[:2], int(os.path.basename(p)[2:-5]))):
        off = json.load(open(path, encoding="utf-8"))
        spec = json.load(open(os.path.join(oracle_dir, os.path.basename(path)), encoding="utf-8"))
        name, cols = off["procedure"], off["columns"] or spec["columns"]
        assert len(off["cases"]) == len(spec["cases"]), name
        differ, first, kinds, cells = 0, None, {}, {}
        for i, (o, s) in enumerate(zip(off["cases"], spec["cases"])):
            assert o["params"] == s["params"] or name in ("ldbc.ic3", "ldbc.ic4"), (name, i)
            example = None
            if "error" in o:
                kind = "error"
            else:
                a = [typed(r) for r in o["rows"]]
                b = [typed(r) for r in s["rows"]]
                if name == "ldbc.ic14":
                    a, b = sorted(a, key=key), sorted(b, key=key)
                if a == b:
                    continue
                if len(a) != len(b):
                    kind = f"{len(b)} rows -> {len(a)} rows"
                else:
                    diff_cols = set()
                    for j, (ra, rb) in enumerate(zip(a, b)):
                        for c, (x, y) in enumerate(zip(ra, rb)):
                            if x != y:
                                diff_cols.add(cols[c])
                                pattern = f"{cols[c]}: {short(s['rows'][j][c], 60)} -> {short(o['rows'][j][c], 60)}"
                                cells[pattern] = cells.get(pattern, 0) + 1
                                if example is None:
                                    example = (j, s["rows"][j], o["rows"][j])
                    kind = "values in " + ",".join(sorted(diff_cols)) if diff_cols else "types"
            differ += 1
            kinds[kind] = kinds.get(kind, 0) + 1
            if first is None:
                first = (i, s["params"], example or (None, s["rows"], o.get("rows", o.get("error"))))
        out.append((name, off["columns"], spec["columns"], len(off["cases"]), differ, kinds, cells, first))
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    oracle_root, official_root = sys.argv[1], sys.argv[2]
    datasets = sys.argv[3:] or ["test", "test-after-updates", "sf0.1", "sf0.1-after-updates"]
    for ds in datasets:
        official_dir = os.path.join(official_root, ds)
        if not os.path.isdir(official_dir):
            print(f"## {ds}: no official fixtures\n")
            continue
        rows = compare(os.path.join(oracle_root, ds), official_dir)
        total = sum(r[3] for r in rows)
        print(f"## {ds}: {sum(r[4] for r in rows)} of {total} cases differ\n")
        for name, ocols, scols, n, differ, kinds, cells, first in rows:
            renamed = [f"{b}->{a}" for a, b in zip(ocols or [], scols or []) if a != b]
            line = f"- {name}: {differ}/{n} differ"
            if kinds:
                line += " (" + "; ".join(f"{k}: {v}" for k, v in sorted(kinds.items())) + ")"
            if renamed:
                line += "; columns " + ", ".join(renamed)
            print(line)
            for pattern, count in sorted(cells.items(), key=lambda x: -x[1])[:4]:
                print(f"    cells {pattern}: {count}")
            if first:
                i, params, (j, srows, orows) = first
                where = f"case {i}" + (f", row {j}" if j is not None else "")
                print(f"    {where} {short(params, 200)}\n      spec:     {short(srows, 600)}\n"
                      f"      official: {short(orows, 600)}")
        print()


if __name__ == "__main__":
    main()
