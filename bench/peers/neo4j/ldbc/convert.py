"""Turn an LDBC SNB Interactive csv_composite data set into Neo4j bulk-import files.

This reads the official CSVs directly (it does not use kith), so the oracle's graph is
built independently of kith's loader. For each table it writes one file with a Neo4j
header (`id:ID(Person)`, `birthday:long`, `email:string[]`, ...) followed by the rows,
every non-empty field quoted (`"` doubled) so message texts cannot break the parser,
and empty fields left empty, which the importer stores as absent properties. It prints
the importer's --nodes/--relationships arguments, one per line.

usage: python convert.py SRC_DIR OUT_DIR  > import-args.txt
"""
import glob
import os
import sys

# table -> (dir, labels column or fixed labels, [(column, neo4j header)])
NODES = {
    "place": ("static", None, [("id", "id:ID(Place)"), ("name", "name"), ("url", "url"), ("type", ":LABEL")]),
    "organisation": ("static", None, [("id", "id:ID(Organisation)"), ("type", ":LABEL"), ("name", "name"), ("url", "url")]),
    "tagclass": ("static", "TagClass", [("id", "id:ID(TagClass)"), ("name", "name"), ("url", "url")]),
    "tag": ("static", "Tag", [("id", "id:ID(Tag)"), ("name", "name"), ("url", "url")]),
    "person": ("dynamic", "Person", [
        ("id", "id:ID(Person)"), ("firstName", "firstName"), ("lastName", "lastName"), ("gender", "gender"),
        ("birthday", "birthday:long"), ("creationDate", "creationDate:long"), ("locationIP", "locationIP"),
        ("browserUsed", "browserUsed"), ("language", "speaks:string[]"), ("email", "email:string[]")]),
    "forum": ("dynamic", "Forum", [("id", "id:ID(Forum)"), ("title", "title"), ("creationDate", "creationDate:long")]),
    "post": ("dynamic", "Message;Post", [
        ("id", "id:ID(Post)"), ("imageFile", "imageFile"), ("creationDate", "creationDate:long"),
        ("locationIP", "locationIP"), ("browserUsed", "browserUsed"), ("language", "language"),
        ("content", "content"), ("length", "length:int")]),
    "comment": ("dynamic", "Message;Comment", [
        ("id", "id:ID(Comment)"), ("creationDate", "creationDate:long"), ("locationIP", "locationIP"),
        ("browserUsed", "browserUsed"), ("content", "content"), ("length", "length:int")]),
}
SUBLABEL = {
    "city": "Place;City", "country": "Place;Country", "continent": "Place;Continent",
    "university": "Organisation;University", "company": "Organisation;Company",
}
ID_SPACE = {"person": "Person", "forum": "Forum", "post": "Post", "comment": "Comment", "tag": "Tag",
            "tagclass": "TagClass", "place": "Place", "organisation": "Organisation"}
# table -> (dir, TYPE, src, dst, property header or None)
RELS = {
    "organisation_isLocatedIn_place": ("static", "IS_LOCATED_IN", "organisation", "place", None),
    "place_isPartOf_place": ("static", "IS_PART_OF", "place", "place", None),
    "tag_hasType_tagclass": ("static", "HAS_TYPE", "tag", "tagclass", None),
    "tagclass_isSubclassOf_tagclass": ("static", "IS_SUBCLASS_OF", "tagclass", "tagclass", None),
    "person_isLocatedIn_place": ("dynamic", "IS_LOCATED_IN", "person", "place", None),
    "person_knows_person": ("dynamic", "KNOWS", "person", "person", "creationDate:long"),
    "person_hasInterest_tag": ("dynamic", "HAS_INTEREST", "person", "tag", None),
    "person_studyAt_organisation": ("dynamic", "STUDY_AT", "person", "organisation", "classYear:int"),
    "person_workAt_organisation": ("dynamic", "WORK_AT", "person", "organisation", "workFrom:int"),
    "forum_hasModerator_person": ("dynamic", "HAS_MODERATOR", "forum", "person", None),
    "forum_hasMember_person": ("dynamic", "HAS_MEMBER", "forum", "person", "joinDate:long"),
    "forum_hasTag_tag": ("dynamic", "HAS_TAG", "forum", "tag", None),
    "forum_containerOf_post": ("dynamic", "CONTAINER_OF", "forum", "post", None),
    "post_hasCreator_person": ("dynamic", "HAS_CREATOR", "post", "person", None),
    "post_hasTag_tag": ("dynamic", "HAS_TAG", "post", "tag", None),
    "post_isLocatedIn_place": ("dynamic", "IS_LOCATED_IN", "post", "place", None),
    "comment_hasCreator_person": ("dynamic", "HAS_CREATOR", "comment", "person", None),
    "comment_hasTag_tag": ("dynamic", "HAS_TAG", "comment", "tag", None),
    "comment_isLocatedIn_place": ("dynamic", "IS_LOCATED_IN", "comment", "place", None),
    "comment_replyOf_post": ("dynamic", "REPLY_OF", "comment", "post", None),
    "comment_replyOf_comment": ("dynamic", "REPLY_OF", "comment", "comment", None),
    "person_likes_post": ("dynamic", "LIKES", "person", "post", "creationDate:long"),
    "person_likes_comment": ("dynamic", "LIKES", "person", "comment", "creationDate:long"),
}


def parts(src, folder, table):
    files = sorted(f for f in glob.glob(os.path.join(src, folder, f"{table}_*_*.csv"))
                   if os.path.basename(f)[len(table) + 1:-4].replace("_", "").isdigit())
    if not files:
        sys.exit(f"convert: no {table}_*_*.csv in {os.path.join(src, folder)}")
    return files


def quote(field):
    return "" if field == "" else '"' + field.replace('"', '""') + '"'


def convert(src, out, table, header, row_fn):
    folder = NODES[table][0] if table in NODES else RELS[table][0]
    path = os.path.join(out, f"{table}.csv")
    with open(path, "w", encoding="utf-8", newline="\n") as w:
        w.write("|".join(header) + "\n")
        for f in parts(src, folder, table):
            with open(f, encoding="utf-8") as r:
                next(r)
                for line in r:
                    line = line.rstrip("\n").rstrip("\r")
                    if line:
                        w.write("|".join(row_fn(line.split("|"))) + "\n")
    return path


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: python convert.py SRC_DIR OUT_DIR > import-args.txt")
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    args = []
    for table, (_, labels, cols) in NODES.items():
        header = [h for _, h in cols] + ([":LABEL"] if labels else [])

        def row(fields, cols=cols, labels=labels):
            vals = []
            for (name, h), v in zip(cols, fields):
                if h == ":LABEL":
                    vals.append(SUBLABEL[v])
                elif h.startswith("id:") or h.endswith((":long", ":int")):
                    vals.append(v)
                else:
                    vals.append(quote(v))
            return vals + ([labels] if labels else [])
        args.append(f"--nodes={convert(src, out, table, header, row)}")
    for table, (_, rel_type, s, d, prop) in RELS.items():
        header = [f":START_ID({ID_SPACE[s]})", f":END_ID({ID_SPACE[d]})"] + ([prop] if prop else [])
        args.append(f"--relationships={rel_type}={convert(src, out, table, header, lambda f: f)}")
    print("\n".join(args))


if __name__ == "__main__":
    main()
