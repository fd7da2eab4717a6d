"""S4's four micro-queries (Pacaci et al., Tables 2 and 3), defined once per language.

point_lookup  a person's id, names, gender and birthday, by id
one_hop       the ids of a person's friends (KNOWS either way), ascending
two_hop       distinct ids reached in exactly two KNOWS steps, other than the person, ascending
shortest_path hops on the shortest KNOWS path between two persons (-1: none)

kith native is `s4.<query>` (crates/kith-procedures/src/ldbc/micro/). Cypher is the same
text on kith (WebSocket or Bolt) and on Neo4j: KNOWS is stored once per friendship, so the
patterns are undirected; Ladybug's dialect differs in two places (LADYBUG). SQL follows the reference schema (`knows` holds both directions);
its shortest path is the reference IC13 text itself, as S4 measured PostgreSQL with it.
FalkorDB's texts differ where its Cypher does (FALKORDB).
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
IC13_SQL = os.path.normpath(os.path.join(HERE, "../../../../shared/data/ldbc-sql/queries/interactive-complex-13.sql"))

QUERIES = ("point_lookup", "one_hop", "two_hop", "shortest_path")

CYPHER = {
    "point_lookup": "MATCH (p:Person {id: $personId}) "
                    "RETURN p.id AS personId, p.firstName AS firstName, p.lastName AS lastName, "
                    "p.gender AS gender, p.birthday AS birthday",
    "one_hop": "MATCH (:Person {id: $personId})-[:KNOWS]-(f:Person) "
               "RETURN DISTINCT f.id AS friendId ORDER BY friendId",
    "two_hop": "MATCH (p:Person {id: $personId})-[:KNOWS]-(:Person)-[:KNOWS]-(f:Person) WHERE f <> p "
               "RETURN DISTINCT f.id AS personId ORDER BY personId",
    "shortest_path": "OPTIONAL MATCH (a:Person {id: $person1Id}) OPTIONAL MATCH (b:Person {id: $person2Id}) "
                     "OPTIONAL MATCH path = shortestPath((a)-[:KNOWS*]-(b)) "
                     "RETURN CASE WHEN path IS NULL THEN -1 ELSE length(path) END AS length",
}

# Ladybug (Kùzu's fork) has no node equality in WHERE and writes a shortest path as a
# recursive relationship with SHORTEST; otherwise the same Cypher.
LADYBUG = {
    **CYPHER,
    "two_hop": "MATCH (p:Person {id: $personId})-[:KNOWS]-(:Person)-[:KNOWS]-(f:Person) WHERE f.id <> p.id "
               "RETURN DISTINCT f.id AS personId ORDER BY personId",
    "shortest_path": "OPTIONAL MATCH (a:Person {id: $person1Id})-[e:KNOWS* SHORTEST 1..30]-(b:Person {id: $person2Id}) "
                     "RETURN coalesce(length(e), -1) AS length",
}

# FalkorDB stores KNOWS both ways (bench/peers/falkordb/load.py) because it rejects an
# undirected shortestPath, so its patterns walk KNOWS one way; it allows shortestPath only in
# WITH or RETURN, so the path is made in a WITH, once both ends exist.
FALKORDB = {
    **CYPHER,
    "one_hop": "MATCH (:Person {id: $personId})-[:KNOWS]->(f:Person) "
               "RETURN DISTINCT f.id AS friendId ORDER BY friendId",
    "two_hop": "MATCH (p:Person {id: $personId})-[:KNOWS]->(:Person)-[:KNOWS]->(f:Person) WHERE f <> p "
               "RETURN DISTINCT f.id AS personId ORDER BY personId",
    "shortest_path": "OPTIONAL MATCH (a:Person {id: $person1Id}) OPTIONAL MATCH (b:Person {id: $person2Id}) "
                     "WITH CASE WHEN a IS NULL OR b IS NULL THEN NULL "
                     "ELSE shortestPath((a)-[:KNOWS*]->(b)) END AS path "
                     "RETURN CASE WHEN path IS NULL THEN -1 ELSE length(path) END AS length",
}

SQL = {
    "point_lookup": "select p_personid, p_firstname, p_lastname, p_gender, p_birthday "
                    "from person where p_personid = %(personId)s",
    "one_hop": "select k_person2id from knows where k_person1id = %(personId)s order by 1",
    "two_hop": "select distinct k2.k_person2id from knows k1 join knows k2 on k2.k_person1id = k1.k_person2id "
               "where k1.k_person1id = %(personId)s and k2.k_person2id <> %(personId)s order by 1",
    "shortest_path": None,  # the reference IC13 text, bound as ldbc.py binds it
}


def ic13_text():
    with open(IC13_SQL, "rb") as f:
        return f.read().decode("utf-8")
