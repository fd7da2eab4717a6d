"""Load an LDBC SNB data set (csv_composite, epoch-ms dates) into Ladybug, the maintained
fork of Kùzu (PyPI `ladybug`, an embedded Cypher database), the whole graph.

Ladybug wants a typed schema: one node table per entity (places and organisations keep
their kind in `type`, as the files do), relationship tables with every FROM/TO pair the
files hold (HAS_CREATOR from Post and from Comment, ...). Each file goes in with one
COPY; the person's `language` and `email` lists become the string lists `speaks` and
`email`, as in kith and Neo4j. Dates stay epoch-ms integers.

Prints the time and the elements; --summary FILE writes {"seconds", "nodes", "relationships"}.

usage: load.py SRC_DIR DB_PATH [--summary FILE]
"""
import argparse
import json
import os
import shutil
import sys
import time

import ladybug

NODES = {
    "Place": ("static/place", "id INT64, name STRING, url STRING, type STRING"),
    "Organisation": ("static/organisation", "id INT64, type STRING, name STRING, url STRING"),
    "TagClass": ("static/tagclass", "id INT64, name STRING, url STRING"),
    "Tag": ("static/tag", "id INT64, name STRING, url STRING"),
    "Person": ("dynamic/person", "id INT64, firstName STRING, lastName STRING, gender STRING, birthday INT64, "
               "creationDate INT64, locationIP STRING, browserUsed STRING, speaks STRING[], email STRING[]"),
    "Forum": ("dynamic/forum", "id INT64, title STRING, creationDate INT64"),
    "Post": ("dynamic/post", "id INT64, imageFile STRING, creationDate INT64, locationIP STRING, "
             "browserUsed STRING, language STRING, content STRING, length INT64"),
    "Comment": ("dynamic/comment", "id INT64, creationDate INT64, locationIP STRING, browserUsed STRING, "
                "content STRING, length INT64"),
}
# type -> (properties, [(from, to, file)])
RELS = {
    "IS_PART_OF": ("", [("Place", "Place", "static/place_isPartOf_place")]),
    "IS_SUBCLASS_OF": ("", [("TagClass", "TagClass", "static/tagclass_isSubclassOf_tagclass")]),
    "HAS_TYPE": ("", [("Tag", "TagClass", "static/tag_hasType_tagclass")]),
    "IS_LOCATED_IN": ("", [("Organisation", "Place", "static/organisation_isLocatedIn_place"),
                           ("Person", "Place", "dynamic/person_isLocatedIn_place"),
                           ("Post", "Place", "dynamic/post_isLocatedIn_place"),
                           ("Comment", "Place", "dynamic/comment_isLocatedIn_place")]),
    "KNOWS": ("creationDate INT64", [("Person", "Person", "dynamic/person_knows_person")]),
    "HAS_INTEREST": ("", [("Person", "Tag", "dynamic/person_hasInterest_tag")]),
    "STUDY_AT": ("classYear INT64", [("Person", "Organisation", "dynamic/person_studyAt_organisation")]),
    "WORK_AT": ("workFrom INT64", [("Person", "Organisation", "dynamic/person_workAt_organisation")]),
    "HAS_MODERATOR": ("", [("Forum", "Person", "dynamic/forum_hasModerator_person")]),
    "HAS_MEMBER": ("joinDate INT64", [("Forum", "Person", "dynamic/forum_hasMember_person")]),
    "HAS_TAG": ("", [("Forum", "Tag", "dynamic/forum_hasTag_tag"), ("Post", "Tag", "dynamic/post_hasTag_tag"),
                     ("Comment", "Tag", "dynamic/comment_hasTag_tag")]),
    "CONTAINER_OF": ("", [("Forum", "Post", "dynamic/forum_containerOf_post")]),
    "HAS_CREATOR": ("", [("Post", "Person", "dynamic/post_hasCreator_person"),
                         ("Comment", "Person", "dynamic/comment_hasCreator_person")]),
    "REPLY_OF": ("", [("Comment", "Post", "dynamic/comment_replyOf_post"),
                      ("Comment", "Comment", "dynamic/comment_replyOf_comment")]),
    "LIKES": ("creationDate INT64", [("Person", "Post", "dynamic/person_likes_post"),
                                     ("Person", "Comment", "dynamic/person_likes_comment")]),
}
CSV = "(delim='|', header=true)"


def path(src, stem):
    p = os.path.join(src, f"{stem}_0_0.csv")
    if not os.path.exists(p):
        sys.exit(f"ladybug load: {p} is missing: is {src} an LDBC csv_composite data set?")
    return p


def schema(conn):
    for label, (_, columns) in NODES.items():
        conn.execute(f"CREATE NODE TABLE {label}({columns}, PRIMARY KEY(id))")
    for rel, (props, pairs) in RELS.items():
        ends = ", ".join(f"FROM {a} TO {b}" for a, b, _ in pairs)
        conn.execute(f"CREATE REL TABLE {rel}({ends}{', ' + props if props else ''})")


def copy_all(conn, src):
    for label, (stem, _) in NODES.items():
        if label == "Person":  # the composite file's lists become string lists
            conn.execute(f"COPY Person FROM (LOAD FROM '{path(src, stem)}' {CSV} RETURN id, firstName, lastName, "
                         "gender, birthday, creationDate, locationIP, browserUsed, "
                         "string_split(language, ';'), string_split(email, ';'))")
        else:
            conn.execute(f"COPY {label} FROM '{path(src, stem)}' {CSV}")
    for rel, (_, pairs) in RELS.items():
        for a, b, stem in pairs:
            options = f"(from='{a}', to='{b}', delim='|', header=true)" if len(pairs) > 1 else CSV
            conn.execute(f"COPY {rel} FROM '{path(src, stem)}' {options}")


def count(conn, what):
    return conn.execute(f"MATCH {what} RETURN count(*)").get_all()[0][0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src")
    ap.add_argument("db")
    ap.add_argument("--summary")
    a = ap.parse_args()
    for old in (a.db, a.db + ".wal"):
        if os.path.isdir(old):
            shutil.rmtree(old)
        elif os.path.exists(old):
            os.remove(old)
    t0 = time.time()
    db = ladybug.Database(a.db)
    conn = ladybug.Connection(db)
    schema(conn)
    copy_all(conn, a.src)
    seconds = time.time() - t0
    nodes, rels = count(conn, "(n)"), count(conn, "()-[r]->()")
    print(f"ladybug load: {nodes:,} nodes and {rels:,} relationships in {seconds:.1f} s", file=sys.stderr)
    if a.summary:
        with open(a.summary, "w") as f:
            json.dump({"seconds": round(seconds, 3), "nodes": nodes, "relationships": rels}, f)


if __name__ == "__main__":
    main()
