"""Load an LDBC SNB data set (csv_composite, epoch-ms dates) into FalkorDB, the whole graph.

One label per entity (places and organisations keep their kind in `type`, as the files
do, and as bench/peers/ladybug/load.py does), the properties the official Cypher texts
use (the person's `language` and `email` lists become the string lists `speaks` and
`email`; dates stay epoch-ms integers). KNOWS is stored in both directions: FalkorDB
rejects an undirected shortestPath, so S4's queries on it walk KNOWS one way
(bench/peers/s4/queries.py, FALKORDB); `relationships` counts each friendship twice.

Nodes go in with `UNWIND $rows ... CREATE` in batches, then an index on every label's `id`,
then relationships with `UNWIND $rows ... MATCH ... MATCH ... CREATE`. Runs in any Python
with PyPI `falkordb` (the client); the server is bench/peers/falkordb/falkordb.sh.

Prints the time and the elements; --summary FILE writes {"seconds", "nodes", "relationships"}.

usage: load.py SRC_DIR --port P [--graph ldbc] [--batch 5000] [--summary FILE]
"""
import argparse
import csv
import json
import os
import sys
import time

from falkordb import FalkorDB

INT, STR, LIST = int, str, lambda v: [s for s in v.split(";") if s]
# label -> (file stem, [(property, converter)] in the file's column order)
NODES = {
    "Place": ("static/place", [("id", INT), ("name", STR), ("url", STR), ("type", STR)]),
    "Organisation": ("static/organisation", [("id", INT), ("type", STR), ("name", STR), ("url", STR)]),
    "TagClass": ("static/tagclass", [("id", INT), ("name", STR), ("url", STR)]),
    "Tag": ("static/tag", [("id", INT), ("name", STR), ("url", STR)]),
    "Person": ("dynamic/person", [("id", INT), ("firstName", STR), ("lastName", STR), ("gender", STR),
                                  ("birthday", INT), ("creationDate", INT), ("locationIP", STR),
                                  ("browserUsed", STR), ("speaks", LIST), ("email", LIST)]),
    "Forum": ("dynamic/forum", [("id", INT), ("title", STR), ("creationDate", INT)]),
    "Post": ("dynamic/post", [("id", INT), ("imageFile", STR), ("creationDate", INT), ("locationIP", STR),
                              ("browserUsed", STR), ("language", STR), ("content", STR), ("length", INT)]),
    "Comment": ("dynamic/comment", [("id", INT), ("creationDate", INT), ("locationIP", STR),
                                    ("browserUsed", STR), ("content", STR), ("length", INT)]),
}
# (type, from label, to label, file stem, optional property)
RELS = [
    ("IS_PART_OF", "Place", "Place", "static/place_isPartOf_place", None),
    ("IS_SUBCLASS_OF", "TagClass", "TagClass", "static/tagclass_isSubclassOf_tagclass", None),
    ("HAS_TYPE", "Tag", "TagClass", "static/tag_hasType_tagclass", None),
    ("IS_LOCATED_IN", "Organisation", "Place", "static/organisation_isLocatedIn_place", None),
    ("IS_LOCATED_IN", "Person", "Place", "dynamic/person_isLocatedIn_place", None),
    ("IS_LOCATED_IN", "Post", "Place", "dynamic/post_isLocatedIn_place", None),
    ("IS_LOCATED_IN", "Comment", "Place", "dynamic/comment_isLocatedIn_place", None),
    ("KNOWS", "Person", "Person", "dynamic/person_knows_person", "creationDate"),
    ("HAS_INTEREST", "Person", "Tag", "dynamic/person_hasInterest_tag", None),
    ("STUDY_AT", "Person", "Organisation", "dynamic/person_studyAt_organisation", "classYear"),
    ("WORK_AT", "Person", "Organisation", "dynamic/person_workAt_organisation", "workFrom"),
    ("HAS_MODERATOR", "Forum", "Person", "dynamic/forum_hasModerator_person", None),
    ("HAS_MEMBER", "Forum", "Person", "dynamic/forum_hasMember_person", "joinDate"),
    ("HAS_TAG", "Forum", "Tag", "dynamic/forum_hasTag_tag", None),
    ("HAS_TAG", "Post", "Tag", "dynamic/post_hasTag_tag", None),
    ("HAS_TAG", "Comment", "Tag", "dynamic/comment_hasTag_tag", None),
    ("CONTAINER_OF", "Forum", "Post", "dynamic/forum_containerOf_post", None),
    ("HAS_CREATOR", "Post", "Person", "dynamic/post_hasCreator_person", None),
    ("HAS_CREATOR", "Comment", "Person", "dynamic/comment_hasCreator_person", None),
    ("REPLY_OF", "Comment", "Post", "dynamic/comment_replyOf_post", None),
    ("REPLY_OF", "Comment", "Comment", "dynamic/comment_replyOf_comment", None),
    ("LIKES", "Person", "Post", "dynamic/person_likes_post", "creationDate"),
    ("LIKES", "Person", "Comment", "dynamic/person_likes_comment", "creationDate"),
]


def rows(src, stem):
    """The file's rows after its header, split on `|` (csv_composite has no quoting)."""
    path = os.path.join(src, f"{stem}_0_0.csv")
    if not os.path.exists(path):
        sys.exit(f"falkordb load: {path} is missing: is {src} an LDBC csv_composite data set?")
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f, delimiter="|", quoting=csv.QUOTE_NONE)
        next(reader)
        for n, row in enumerate(reader, start=2):
            yield path, n, row


def batches(items, size):
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def typed(path, n, row, columns):
    if len(row) < len(columns):
        sys.exit(f"falkordb load: {path}:{n} has {len(row)} fields, wanted {len(columns)}")
    try:
        return [conv(v) for (_, conv), v in zip(columns, row)]
    except ValueError as e:
        sys.exit(f"falkordb load: {path}:{n}: {e}")


def load_nodes(graph, src, size):
    for label, (stem, columns) in NODES.items():
        props = ", ".join(f"{name}: r[{i}]" for i, (name, _) in enumerate(columns))
        text = f"UNWIND $rows AS r CREATE (:{label} {{{props}}})"
        for batch in batches((typed(p, n, r, columns) for p, n, r in rows(src, stem)), size):
            graph.query(text, {"rows": batch})
        graph.query(f"CREATE INDEX FOR (n:{label}) ON (n.id)")


def load_relationships(graph, src, size):
    for rel, a, b, stem, prop in RELS:
        columns = [("from", INT), ("to", INT)] + ([(prop, INT)] if prop else [])
        props = f" {{{prop}: r[2]}}" if prop else ""
        text = (f"UNWIND $rows AS r MATCH (a:{a} {{id: r[0]}}) MATCH (b:{b} {{id: r[1]}}) "
                f"CREATE (a)-[:{rel}{props}]->(b)")
        if rel == "KNOWS":  # both ways: see the module's comment
            text += f" CREATE (b)-[:{rel}{props}]->(a)"
        for batch in batches((typed(p, n, r, columns) for p, n, r in rows(src, stem)), size):
            created = graph.query(text, {"rows": batch}).relationships_created
            want = len(batch) * (2 if rel == "KNOWS" else 1)
            if created != want:
                sys.exit(f"falkordb load: {stem}: {want} relationships in a batch, {created} created "
                         "(an endpoint is missing from the node files)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--graph", default="ldbc")
    ap.add_argument("--batch", type=int, default=5000)
    ap.add_argument("--summary")
    a = ap.parse_args()
    db = FalkorDB(host="127.0.0.1", port=a.port)
    if a.graph in db.list_graphs():
        db.select_graph(a.graph).delete()
    graph = db.select_graph(a.graph)
    t0 = time.time()
    load_nodes(graph, a.src, a.batch)
    load_relationships(graph, a.src, a.batch)
    seconds = time.time() - t0
    nodes = graph.query("MATCH (n) RETURN count(n)").result_set[0][0]
    rels = graph.query("MATCH ()-[r]->() RETURN count(r)").result_set[0][0]
    print(f"falkordb load: {nodes:,} nodes and {rels:,} relationships in {seconds:.1f} s", file=sys.stderr)
    if a.summary:
        with open(a.summary, "w") as f:
            json.dump({"seconds": round(seconds, 3), "nodes": nodes, "relationships": rels}, f)


if __name__ == "__main__":
    main()
