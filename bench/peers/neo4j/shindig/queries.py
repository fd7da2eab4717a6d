"""The 19 S1 Shindig queries in Cypher, for Neo4j 5.26 (the peer of kith's native procedures).

Each entry of QUERIES is keyed by kith's procedure name and holds:
  - "cypher": the query text, with the procedure's parameter names ($person_id, $limit, ...),
    returning the procedure's columns in the procedure's order (docs/procedures.md);
  - "defaults": values of optional parameters that kith's procedure has and a call may omit
    (queries.json leaves them out when kith used the default). Neo4j has no parameter
    defaults, so the runner and the checker fill these in before sending: see with_defaults().

Written as a Neo4j user would write them, relying on the uniqueness constraint on `id` of
every label (load.sh creates them), so every `{id: $x}` lookup is a unique-index seek.

Conventions carried over from the contracts:
  - "friends" of P are the targets of P's outgoing FRIEND_OF (each friendship is stored both
    ways), so every friendship pattern is directed `-[:FRIEND_OF]->`;
  - `limit` 0 means "no limit": LIMIT takes a parameter-only expression in Cypher 5, so
    `LIMIT CASE WHEN $limit > 0 THEN $limit ELSE <max long> END`;
  - ties are broken by id, as in the contracts; list parameters keep their input order via
    UNWIND range(0, size(list) - 1) AS i ... ORDER BY i (Cypher does not promise to keep
    UNWIND's order through a MATCH, so the order is asked for explicitly);
  - what a procedure reports as an error (unknown subject ids: `not_found`) is an empty
    result here. The benchmark's parameters only name existing nodes.
"""

# LIMIT for kith's "`limit` 0 means no limit" convention.
_LIMIT = "LIMIT CASE WHEN $limit > 0 THEN $limit ELSE 9223372036854775807 END"

# An ACTIVITY row (docs/procedures.md): id, personId (who PERFORMED it), title, body,
# postedTime, mediaUrls (url of each HAS_MEDIA item, by media item id). `a` is the activity,
# `p` its performer.
_ACTIVITY_RETURN = """RETURN a.id AS id, p.id AS personId, a.title AS title, a.body AS body,
       a.postedTime AS postedTime,
       COLLECT { MATCH (a)-[:HAS_MEDIA]->(m:MediaItem) WITH m ORDER BY m.id RETURN m.url } AS mediaUrls"""

# A PROFILE row (docs/procedures.md): the person's own properties, then addresses (by
# address id) and organisations with the WORKS_AT relationship's properties (by
# organisation id). `p` is the person.
_PROFILE_RETURN = """RETURN p.id AS id, p.displayName AS displayName, p.givenName AS givenName,
       p.familyName AS familyName, p.email AS email, p.phoneNumber AS phoneNumber,
       p.birthday AS birthday, p.gender AS gender, p.aboutMe AS aboutMe,
       p.interests AS interests, p.jobTitle AS jobTitle, p.updated AS updated,
       COLLECT { MATCH (p)-[:HAS_ADDRESS]->(ad:Address) WITH ad ORDER BY ad.id
                 RETURN ad {.type, .streetAddress, .locality, .region, .postalCode, .country} } AS addresses,
       COLLECT { MATCH (p)-[w:WORKS_AT]->(o:Organization) WITH o, w ORDER BY o.id
                 RETURN {id: o.id, name: o.name, industry: o.industry, title: w.title,
                         department: w.department, startDate: w.startDate} } AS organizations"""

QUERIES = {
    # 1. Members of a group, by id.
    "shindig.group_members": {
        "cypher": """
MATCH (:Group {id: $group_id})<-[:MEMBER_OF]-(p:Person)
RETURN p.id AS id, p.displayName AS displayName
ORDER BY id""",
    },
    # 2. Groups of a person, by id.
    "shindig.person_groups": {
        "cypher": """
MATCH (:Person {id: $person_id})-[:MEMBER_OF]->(g:Group)
RETURN g.id AS id, g.title AS title
ORDER BY id""",
    },
    # 3. Friend recommendations: people exactly two friendships away, ranked by the number
    #    of the person's friends who are friends of theirs.
    "shindig.friend_recommendations": {
        "defaults": {"limit": 0},
        "cypher": f"""
MATCH (p:Person {{id: $person_id}})-[:FRIEND_OF]->(:Person)-[:FRIEND_OF]->(c:Person)
WHERE c <> p AND NOT (p)-[:FRIEND_OF]->(c)
WITH c, count(*) AS commonFriends
RETURN c.id AS id, c.displayName AS displayName, commonFriends
ORDER BY commonFriends DESC, id ASC
{_LIMIT}""",
    },
    # 4. Group recommendations: groups of friends the person is not in, ranked by the
    #    number of friends in them.
    "shindig.group_recommendations": {
        "defaults": {"limit": 0},
        "cypher": f"""
MATCH (p:Person {{id: $person_id}})-[:FRIEND_OF]->(:Person)-[:MEMBER_OF]->(g:Group)
WHERE NOT (p)-[:MEMBER_OF]->(g)
WITH g, count(*) AS friendsInGroup
RETURN g.id AS id, g.title AS title, friendsInGroup
ORDER BY friendsInGroup DESC, id ASC
{_LIMIT}""",
    },
    # 5. FOAF-3: people two or three friendships away (not the person, not a friend), with
    #    their distance. min(length(path)) over a *1..3 expansion is the form Neo4j plans as
    #    a breadth-first pruning expand (each person is reached once, at its distance);
    #    friends come out at distance 1 and are dropped.
    "shindig.friends_of_friends_3": {
        "cypher": """
MATCH (p:Person {id: $person_id})
MATCH path = (p)-[:FRIEND_OF*1..3]->(x:Person)
WHERE x <> p
WITH x, min(length(path)) AS distance
WHERE distance >= 2
RETURN x.id AS id, x.displayName AS displayName, distance
ORDER BY id""",
    },
    # 6. FOAF-2: people exactly two friendships away.
    "shindig.friends_of_friends": {
        "cypher": """
MATCH (p:Person {id: $person_id})-[:FRIEND_OF]->(:Person)-[:FRIEND_OF]->(x:Person)
WHERE x <> p AND NOT (p)-[:FRIEND_OF]->(x)
RETURN DISTINCT x.id AS id, x.displayName AS displayName
ORDER BY id""",
    },
    # 7. Shortest friendship path. The contract picks, among all shortest paths, the one
    #    whose id sequence is smallest, so this is allShortestPaths + ORDER BY the id list
    #    (Cypher orders lists lexicographically). *0.. lets from_id = to_id give the
    #    one-node path of length 0; no path gives no row.
    "shindig.shortest_path": {
        "cypher": """
MATCH (a:Person {id: $from_id}), (b:Person {id: $to_id})
MATCH path = allShortestPaths((a)-[:FRIEND_OF*0..]->(b))
WITH length(path) AS length, [n IN nodes(path) | n.id] AS ids
ORDER BY ids
LIMIT 1
RETURN length, ids AS path""",
    },
    # 8. The person's Inbox, newest first (timestamp desc, id desc).
    "shindig.inbox": {
        "defaults": {"limit": 0},
        "cypher": f"""
MATCH (:Person {{id: $person_id}})-[:OWNS]->(:MessageCollection {{title: 'Inbox'}})-[:CONTAINS]->(m:Message)
OPTIONAL MATCH (m)-[:SENT_BY]->(s:Person)
RETURN m.id AS id, m.title AS title, s.id AS senderId, s.displayName AS senderName,
       m.timestamp AS timestamp, m.status AS status
ORDER BY timestamp DESC, id DESC
{_LIMIT}""",
    },
    # 9. The person's collections with their message counts.
    "shindig.message_collections": {
        "cypher": """
MATCH (:Person {id: $person_id})-[:OWNS]->(c:MessageCollection)
RETURN c.id AS id, c.title AS title, COUNT { (c)-[:CONTAINS]->() } AS messageCount
ORDER BY id""",
    },
    # 10. A profile.
    "shindig.profile": {
        "cypher": f"""
MATCH (p:Person {{id: $person_id}})
{_PROFILE_RETURN}""",
    },
    # 11. Profiles of several people, in the order given (repeats repeat).
    "shindig.profiles": {
        "cypher": f"""
UNWIND range(0, size($person_ids) - 1) AS i
MATCH (p:Person {{id: $person_ids[i]}})
{_PROFILE_RETURN}
ORDER BY i""",
    },
    # 12. Friends of several people: input order, then friend id.
    "shindig.friends_of_people": {
        "cypher": """
UNWIND range(0, size($person_ids) - 1) AS i
MATCH (p:Person {id: $person_ids[i]})-[:FRIEND_OF]->(f:Person)
RETURN p.id AS personId, f.id AS id, f.displayName AS displayName
ORDER BY i, id""",
    },
    # 13. Friends of a person, by id.
    "shindig.friends": {
        "cypher": """
MATCH (:Person {id: $person_id})-[:FRIEND_OF]->(f:Person)
RETURN f.id AS id, f.displayName AS displayName
ORDER BY id""",
    },
    # 14. One activity, if the person performed it.
    "shindig.activity": {
        "cypher": f"""
MATCH (p:Person {{id: $person_id}})-[:PERFORMED]->(a:Activity {{id: $activity_id}})
{_ACTIVITY_RETURN}""",
    },
    # 15. The person's activities, newest first (postedTime desc, id desc).
    "shindig.person_activities": {
        "defaults": {"limit": 0},
        "cypher": f"""
MATCH (p:Person {{id: $person_id}})-[:PERFORMED]->(a:Activity)
WITH p, a ORDER BY a.postedTime DESC, a.id DESC
{_LIMIT}
{_ACTIVITY_RETURN}
ORDER BY postedTime DESC, id DESC""",
    },
    # 16. Activities of several people: input order, then newest first.
    "shindig.activities_of_people": {
        "cypher": f"""
UNWIND range(0, size($person_ids) - 1) AS i
MATCH (p:Person {{id: $person_ids[i]}})-[:PERFORMED]->(a:Activity)
{_ACTIVITY_RETURN}
ORDER BY i, postedTime DESC, id DESC""",
    },
    # 17. The given activities that the person performed, in the order given.
    "shindig.activities_by_ids": {
        "cypher": f"""
MATCH (p:Person {{id: $person_id}})
UNWIND range(0, size($activity_ids) - 1) AS i
MATCH (p)-[:PERFORMED]->(a:Activity {{id: $activity_ids[i]}})
{_ACTIVITY_RETURN}
ORDER BY i""",
    },
    # 18. The activity stream: what the person's friends performed, newest first, at most
    #     `limit` rows (default 100).
    "shindig.activity_stream": {
        "defaults": {"limit": 100},
        "cypher": f"""
MATCH (:Person {{id: $person_id}})-[:FRIEND_OF]->(p:Person)-[:PERFORMED]->(a:Activity)
WITH p, a ORDER BY a.postedTime DESC, a.id DESC
{_LIMIT}
{_ACTIVITY_RETURN}
ORDER BY postedTime DESC, id DESC""",
    },
    # 19. One message, if it is in one of the person's collections (the smallest
    #     collection id if several), with sender, recipient and that collection's title.
    "shindig.message": {
        "cypher": """
MATCH (:Person {id: $person_id})-[:OWNS]->(c:MessageCollection)-[:CONTAINS]->(m:Message {id: $message_id})
WITH m, c ORDER BY c.id LIMIT 1
OPTIONAL MATCH (m)-[:SENT_BY]->(s:Person)
OPTIONAL MATCH (m)-[:SENT_TO]->(r:Person)
RETURN m.id AS id, m.title AS title, m.body AS body, s.id AS senderId, r.id AS recipientId,
       m.timestamp AS timestamp, m.status AS status, c.title AS collection""",
    },
}

# S1's order (the same as kith's `kith procedures` and queries.json).
ORDER = list(QUERIES)

# Variants that do not follow a contract to the letter, measured (run.py --variants) and
# checked on the columns they do promise (check.py --variants), for reference only.
VARIANTS = {
    # Q7 as most Neo4j users write it: shortestPath returns *a* shortest path, whichever
    # the search meets first, so `length` equals kith's but `path` may be another path of
    # that length than the contract's lexicographically smallest one.
    "shindig.shortest_path:shortestPath": {
        "procedure": "shindig.shortest_path",
        "compare": ["length"],
        "cypher": """
MATCH (a:Person {id: $from_id}), (b:Person {id: $to_id})
MATCH path = shortestPath((a)-[:FRIEND_OF*0..]->(b))
RETURN length(path) AS length, [n IN nodes(path) | n.id] AS path""",
    },
}


def cypher(name):
    """The Cypher text of a procedure (or of a variant, by its VARIANTS key)."""
    entry = QUERIES.get(name) or VARIANTS[name]
    return entry["cypher"].strip()


def with_defaults(name, params):
    """The parameters as Neo4j needs them: kith's defaults for optional ones left out."""
    procedure = VARIANTS[name]["procedure"] if name in VARIANTS else name
    out = dict(QUERIES[procedure].get("defaults", {}))
    out.update(params)
    return out


def as_json():
    """Every query as `{procedure: {"cypher": text, "defaults": {...}}}` in S1's order: what
    `kith bench shindig/throughput --cypher` reads, so kith sends exactly these texts."""
    import json
    return json.dumps({n: {"cypher": cypher(n), "defaults": QUERIES[n].get("defaults", {})} for n in ORDER},
                      indent=1)


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["--json"]:
        print(as_json())
        sys.exit(0)
    # `python queries.py` prints every query, e.g. to paste into cypher-shell or Browser.
    for n, name in enumerate(ORDER, 1):
        print(f"// {n}. {name}  defaults: {QUERIES[name].get('defaults', {})}")
        print(cypher(name) + ";\n")
    for name in VARIANTS:
        print(f"// variant {name} (compares {VARIANTS[name]['compare']} only)")
        print(cypher(name) + ";\n")
