"""Replay LDBC update streams into Neo4j with IU1..IU8 written in Cypher.

Reads every updateStream_*_{person,forum}.csv in STREAM_DIR (no header; each line
`timestamp|dependencyTimestamp|operationType|fields...`), sorts the events by timestamp
(ties keep file and line order, as kith replay does) and applies them in order, in
transactions of --batch events. Prints the count applied; any failure stops it.

usage: updates.py --port 7698 --streams STREAM_DIR
"""
import argparse
import glob
import os
import sys
import time

import neo4j

# operation -> (Cypher, [(parameter, kind)]); kinds: int, str, strs (;), ints (;), pairs (;-separated id,year)
IU = {
    1: ("""
CREATE (p:Person {id: $personId, firstName: $personFirstName, lastName: $personLastName, gender: $gender,
                  birthday: $birthday, creationDate: $creationDate, locationIP: $locationIP,
                  browserUsed: $browserUsed})
SET p.speaks = CASE WHEN size($languages) = 0 THEN null ELSE $languages END,
    p.email = CASE WHEN size($emails) = 0 THEN null ELSE $emails END
WITH p
MATCH (c:City {id: $cityId})
CREATE (p)-[:IS_LOCATED_IN]->(c)
WITH p
CALL { WITH p UNWIND $tagIds AS t MATCH (tag:Tag {id: t}) CREATE (p)-[:HAS_INTEREST]->(tag) }
CALL { WITH p UNWIND $studyAt AS s MATCH (u:Organisation {id: s[0]}) CREATE (p)-[:STUDY_AT {classYear: s[1]}]->(u) }
CALL { WITH p UNWIND $workAt AS w MATCH (c:Organisation {id: w[0]}) CREATE (p)-[:WORK_AT {workFrom: w[1]}]->(c) }
RETURN count(*) AS n
""", [("personId", "int"), ("personFirstName", "str"), ("personLastName", "str"), ("gender", "str"),
      ("birthday", "int"), ("creationDate", "int"), ("locationIP", "str"), ("browserUsed", "str"),
      ("cityId", "int"), ("languages", "strs"), ("emails", "strs"), ("tagIds", "ints"),
      ("studyAt", "pairs"), ("workAt", "pairs")]),
    2: ("""
MATCH (p:Person {id: $personId}), (m:Post {id: $postId})
CREATE (p)-[:LIKES {creationDate: $creationDate}]->(m)
RETURN count(*) AS n
""", [("personId", "int"), ("postId", "int"), ("creationDate", "int")]),
    3: ("""
MATCH (p:Person {id: $personId}), (m:Comment {id: $commentId})
CREATE (p)-[:LIKES {creationDate: $creationDate}]->(m)
RETURN count(*) AS n
""", [("personId", "int"), ("commentId", "int"), ("creationDate", "int")]),
    4: ("""
MATCH (mod:Person {id: $moderatorPersonId})
CREATE (f:Forum {id: $forumId, title: $forumTitle, creationDate: $creationDate})-[:HAS_MODERATOR]->(mod)
WITH f
CALL { WITH f UNWIND $tagIds AS t MATCH (tag:Tag {id: t}) CREATE (f)-[:HAS_TAG]->(tag) }
RETURN count(*) AS n
""", [("forumId", "int"), ("forumTitle", "str"), ("creationDate", "int"), ("moderatorPersonId", "int"),
      ("tagIds", "ints")]),
    5: ("""
MATCH (f:Forum {id: $forumId}), (p:Person {id: $personId})
CREATE (f)-[:HAS_MEMBER {joinDate: $joinDate}]->(p)
RETURN count(*) AS n
""", [("forumId", "int"), ("personId", "int"), ("joinDate", "int")]),
    6: ("""
MATCH (author:Person {id: $authorPersonId}), (f:Forum {id: $forumId}), (country:Country {id: $countryId})
CREATE (m:Message:Post {id: $postId, creationDate: $creationDate, locationIP: $locationIP,
                        browserUsed: $browserUsed, length: $length})
SET m.imageFile = CASE WHEN $imageFile = '' THEN null ELSE $imageFile END,
    m.language = CASE WHEN $language = '' THEN null ELSE $language END,
    m.content = CASE WHEN $content = '' THEN null ELSE $content END
CREATE (m)-[:HAS_CREATOR]->(author), (f)-[:CONTAINER_OF]->(m), (m)-[:IS_LOCATED_IN]->(country)
WITH m
CALL { WITH m UNWIND $tagIds AS t MATCH (tag:Tag {id: t}) CREATE (m)-[:HAS_TAG]->(tag) }
RETURN count(*) AS n
""", [("postId", "int"), ("imageFile", "str"), ("creationDate", "int"), ("locationIP", "str"),
      ("browserUsed", "str"), ("language", "str"), ("content", "str"), ("length", "int"),
      ("authorPersonId", "int"), ("forumId", "int"), ("countryId", "int"), ("tagIds", "ints")]),
    7: ("""
MATCH (author:Person {id: $authorPersonId}), (country:Country {id: $countryId})
OPTIONAL MATCH (post:Post {id: $replyToPostId})
OPTIONAL MATCH (comment:Comment {id: $replyToCommentId})
WITH author, country, coalesce(post, comment) AS parent
WHERE parent IS NOT NULL
CREATE (c:Message:Comment {id: $commentId, creationDate: $creationDate, locationIP: $locationIP,
                           browserUsed: $browserUsed, length: $length})
SET c.content = CASE WHEN $content = '' THEN null ELSE $content END
CREATE (c)-[:HAS_CREATOR]->(author), (c)-[:IS_LOCATED_IN]->(country), (c)-[:REPLY_OF]->(parent)
WITH c
CALL { WITH c UNWIND $tagIds AS t MATCH (tag:Tag {id: t}) CREATE (c)-[:HAS_TAG]->(tag) }
RETURN count(*) AS n
""", [("commentId", "int"), ("creationDate", "int"), ("locationIP", "str"), ("browserUsed", "str"),
      ("content", "str"), ("length", "int"), ("authorPersonId", "int"), ("countryId", "int"),
      ("replyToPostId", "int"), ("replyToCommentId", "int"), ("tagIds", "ints")]),
    8: ("""
MATCH (a:Person {id: $person1Id}), (b:Person {id: $person2Id})
CREATE (a)-[:KNOWS {creationDate: $creationDate}]->(b)
RETURN count(*) AS n
""", [("person1Id", "int"), ("person2Id", "int"), ("creationDate", "int")]),
}


def value(kind, field):
    items = [x for x in field.split(";") if x]
    if kind == "int":
        return int(field)
    if kind == "str":
        return field
    if kind == "strs":
        return items
    if kind == "ints":
        return [int(x) for x in items]
    return [[int(y) for y in x.split(",")] for x in items]


def read_events(stream_dir):
    files = sorted(glob.glob(os.path.join(stream_dir, "updateStream_*_person.csv"))
                   + glob.glob(os.path.join(stream_dir, "updateStream_*_forum.csv")))
    if not files:
        sys.exit(f"updates: no update streams in {stream_dir}")
    events = []
    for f in files:
        with open(f, encoding="utf-8") as r:
            for i, line in enumerate(r, 1):
                line = line.rstrip("\n")
                if not line:
                    continue
                fields = line.split("|")
                op = int(fields[2])
                _, layout = IU[op]
                if len(fields) != 3 + len(layout):
                    sys.exit(f"updates: {f}, line {i}: {len(fields)} fields; IU{op} has {3 + len(layout)}")
                params = {name: value(kind, fields[3 + j]) for j, (name, kind) in enumerate(layout)}
                events.append((int(fields[0]), len(events), op, params))
    events.sort(key=lambda e: (e[0], e[1]))
    return events


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=7698)
    ap.add_argument("--streams", required=True)
    ap.add_argument("--batch", type=int, default=500, help="events per transaction")
    ap.add_argument("--limit", type=int, help="apply only the first N events (in timestamp order)")
    a = ap.parse_args()
    events = read_events(a.streams)[:a.limit]
    t0 = time.time()
    with neo4j.GraphDatabase.driver(f"bolt://{a.host}:{a.port}", auth=None) as driver, \
            driver.session(database="neo4j") as s:
        for start in range(0, len(events), a.batch):
            with s.begin_transaction() as tx:
                for ts, _, op, params in events[start:start + a.batch]:
                    n = tx.run(IU[op][0], params).single()["n"]
                    if n != 1:
                        sys.exit(f"updates: IU{op} at {ts} matched {n} rows (a missing endpoint?): {params}")
                tx.commit()
            if (start // a.batch) % 40 == 0:
                print(f"updates: {start + a.batch}/{len(events)} events, {time.time() - t0:.0f} s",
                      file=sys.stderr)
    print(f"updates: applied {len(events)} events in {time.time() - t0:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
