"""The suite: what applications write against a social graph (issue 41, deliverable 3),
on the LDBC SNB Interactive schema of `../shared/data/ldbc-cypher/` (Message with Post
and Comment, Place with City/Country/Continent, dates as epoch-ms integers).

Each query is (name, category, text), with `$` parameters chosen from the data set by
`PARAMS` (so any data set works), answers compared as bags unless the query orders them
completely (a tie-breaker on `id` wherever a LIMIT cuts). Nothing here was tuned for
kith: it is the yardstick of "Cypher (4/4)", not a target.
"""
from __future__ import annotations

from dataclasses import dataclass

# Parameters, each chosen by a query over the data (deterministic: ordered with `id`
# as the tie-breaker): a well-connected person, another, names, a date in the range.
PARAMS = {
    "personId": "MATCH (p:Person)-[:KNOWS]-(f) WITH p, count(f) AS d "
                "RETURN p.id AS v ORDER BY d DESC, v LIMIT 1",
    "person2Id": "MATCH (p:Person)-[:KNOWS]-(f) WITH p, count(f) AS d "
                 "RETURN p.id AS v ORDER BY d DESC, v SKIP 7 LIMIT 1",
    "firstName": "MATCH (p:Person) WITH p.firstName AS v, count(*) AS n "
                 "RETURN v ORDER BY n DESC, v LIMIT 1",
    "tagName": "MATCH (t:Tag)<-[:HAS_TAG]-(m) WITH t, count(m) AS n "
               "RETURN t.name AS v ORDER BY n DESC, v LIMIT 1",
    "tagClass": "MATCH (c:TagClass)<-[:HAS_TYPE]-(t:Tag) WITH c, count(t) AS n "
                "RETURN c.name AS v ORDER BY n DESC, v LIMIT 1",
    "countryName": "MATCH (c:Country)<-[:IS_PART_OF]-(:City)<-[:IS_LOCATED_IN]-(p:Person) "
                   "WITH c, count(p) AS n RETURN c.name AS v ORDER BY n DESC, v LIMIT 1",
    "forumId": "MATCH (f:Forum)-[:HAS_MEMBER]->(p) WITH f, count(p) AS n "
               "RETURN f.id AS v ORDER BY n DESC, v LIMIT 1",
    "postId": "MATCH (p:Post)<-[:REPLY_OF]-(c) WITH p, count(c) AS n "
              "RETURN p.id AS v ORDER BY n DESC, v LIMIT 1",
    "date": "MATCH (p:Post) WITH p.creationDate AS d ORDER BY d "
            "WITH collect(d) AS ds RETURN ds[size(ds) / 2] AS v",
}


@dataclass(frozen=True)
class Q:
    name: str
    category: str
    text: str
    ordered: bool = False
    bags: tuple = ()  # columns whose lists are compared as bags (collect)
    writes: bool = False


Q_ = Q  # a short alias for the table below


def _q(category, items):
    return [Q(name, category, text, *rest) for name, text, *rest in items]


QUERIES = []
QUERIES += _q("neighbourhood", [
    ("profile", "MATCH (p:Person {id: $personId}) RETURN p.firstName AS first, p.lastName AS last, p.birthday AS birthday, p.browserUsed AS browser"),
    ("friends", "MATCH (:Person {id: $personId})-[:KNOWS]-(f:Person) RETURN f.id AS id, f.firstName AS name ORDER BY id", True),
    ("friend_count", "MATCH (:Person {id: $personId})-[:KNOWS]-(f) RETURN count(f) AS n"),
    ("friends_since", "MATCH (:Person {id: $personId})-[k:KNOWS]-(f:Person) RETURN f.id AS id, k.creationDate AS since ORDER BY since DESC, id LIMIT 10", True),
    ("friends_city", "MATCH (:Person {id: $personId})-[:KNOWS]-(f:Person)-[:IS_LOCATED_IN]->(c:City) RETURN c.name AS city, count(f) AS n ORDER BY n DESC, city", True),
    ("own_posts", "MATCH (:Person {id: $personId})<-[:HAS_CREATOR]-(m:Post) RETURN m.id AS id, m.creationDate AS date ORDER BY date DESC, id LIMIT 20", True),
    ("own_messages_by_kind", "MATCH (:Person {id: $personId})<-[:HAS_CREATOR]-(m:Message) RETURN labels(m) AS kinds, count(*) AS n", False, ("kinds",)),
    ("interests", "MATCH (:Person {id: $personId})-[:HAS_INTEREST]->(t:Tag) RETURN t.name AS tag ORDER BY tag", True),
    ("workplaces", "MATCH (:Person {id: $personId})-[w:WORK_AT]->(o:Company)-[:IS_LOCATED_IN]->(c:Country) RETURN o.name AS company, w.workFrom AS since, c.name AS country ORDER BY since, company", True),
    ("forums_member", "MATCH (:Person {id: $personId})<-[m:HAS_MEMBER]-(f:Forum) RETURN f.title AS title, m.joinDate AS joined ORDER BY joined DESC, title LIMIT 10", True),
    ("likes_received", "MATCH (:Person {id: $personId})<-[:HAS_CREATOR]-(m:Message)<-[l:LIKES]-(p:Person) RETURN p.id AS liker, count(l) AS likes ORDER BY likes DESC, liker LIMIT 10", True),
    ("replies_received", "MATCH (:Person {id: $personId})<-[:HAS_CREATOR]-(:Message)<-[:REPLY_OF]-(c:Comment)-[:HAS_CREATOR]->(p:Person) RETURN p.id AS id, count(c) AS n ORDER BY n DESC, id LIMIT 10", True),
])
QUERIES += _q("friends-of-friends", [
    ("fof", "MATCH (p:Person {id: $personId})-[:KNOWS]-()-[:KNOWS]-(f:Person) WHERE f <> p RETURN DISTINCT f.id AS id ORDER BY id", True),
    ("fof_count", "MATCH (p:Person {id: $personId})-[:KNOWS]-()-[:KNOWS]-(f:Person) WHERE f <> p AND NOT (p)-[:KNOWS]-(f) RETURN count(DISTINCT f) AS n"),
    ("fof_by_name", "MATCH (p:Person {id: $personId})-[:KNOWS*1..2]-(f:Person {firstName: $firstName}) WHERE f <> p RETURN DISTINCT f.id AS id, f.lastName AS last ORDER BY last, id", True),
    ("fof3", "MATCH (p:Person {id: $personId})-[:KNOWS*1..3]-(f:Person) WHERE f <> p RETURN count(DISTINCT f) AS n"),
    ("mutual_friends", "MATCH (a:Person {id: $personId})-[:KNOWS]-(m:Person)-[:KNOWS]-(b:Person {id: $person2Id}) RETURN m.id AS id ORDER BY id", True),
    ("mutual_count_per_fof", "MATCH (p:Person {id: $personId})-[:KNOWS]-(m)-[:KNOWS]-(f:Person) WHERE f <> p AND NOT (p)-[:KNOWS]-(f) RETURN f.id AS id, count(DISTINCT m) AS mutual ORDER BY mutual DESC, id LIMIT 20", True),
    ("fof_city", "MATCH (p:Person {id: $personId})-[:KNOWS*2]-(f:Person)-[:IS_LOCATED_IN]->(c:City) WHERE f <> p RETURN c.name AS city, count(DISTINCT f) AS n ORDER BY n DESC, city LIMIT 10", True),
    ("fof_same_interest", "MATCH (p:Person {id: $personId})-[:HAS_INTEREST]->(t:Tag)<-[:HAS_INTEREST]-(f:Person) WHERE (p)-[:KNOWS*2]-(f) AND f <> p RETURN f.id AS id, collect(t.name) AS tags ORDER BY id", True, ("tags",)),
    ("friends_in_common_forums", "MATCH (p:Person {id: $personId})-[:KNOWS]-(f:Person)<-[:HAS_MEMBER]-(fo:Forum)-[:HAS_MEMBER]->(p) RETURN f.id AS id, count(fo) AS forums ORDER BY forums DESC, id LIMIT 10", True),
    ("fof_not_friend_two_paths", "MATCH (p:Person {id: $personId})-[:KNOWS]-(x)-[:KNOWS]-(f:Person) WHERE f <> p AND NOT (p)-[:KNOWS]-(f) WITH f, count(x) AS paths WHERE paths >= 2 RETURN count(f) AS n"),
    ("degree_of_friends", "MATCH (:Person {id: $personId})-[:KNOWS]-(f:Person) RETURN f.id AS id, COUNT { (f)-[:KNOWS]-() } AS degree ORDER BY degree DESC, id LIMIT 10", True),
    ("friend_pairs_among_friends", "MATCH (p:Person {id: $personId})-[:KNOWS]-(a:Person)-[:KNOWS]-(b:Person)-[:KNOWS]-(p) WHERE a.id < b.id RETURN count(*) AS n"),
])
QUERIES += _q("triangles", [
    ("triangles_at_person", "MATCH (p:Person {id: $personId})-[:KNOWS]-(a)-[:KNOWS]-(b)-[:KNOWS]-(p) WHERE a.id < b.id RETURN count(*) AS triangles"),
    ("local_clustering", "MATCH (p:Person {id: $personId})-[:KNOWS]-(f) WITH p, collect(f) AS fs, count(f) AS k MATCH (a)-[:KNOWS]-(b) WHERE a IN fs AND b IN fs AND a.id < b.id RETURN k, count(*) AS links"),
    ("triangles_global", "MATCH (a:Person)-[:KNOWS]-(b:Person)-[:KNOWS]-(c:Person)-[:KNOWS]-(a) WHERE a.id < b.id AND b.id < c.id RETURN count(*) AS n"),
    ("top_triangle_people", "MATCH (a:Person)-[:KNOWS]-(b:Person)-[:KNOWS]-(c:Person)-[:KNOWS]-(a) WHERE b.id < c.id RETURN a.id AS id, count(*) AS t ORDER BY t DESC, id LIMIT 10", True),
    ("tag_triangles", "MATCH (a:Person {id: $personId})-[:KNOWS]-(b:Person), (a)-[:HAS_INTEREST]->(t:Tag)<-[:HAS_INTEREST]-(b) RETURN t.name AS tag, count(b) AS n ORDER BY n DESC, tag", True),
    ("forum_triangle", "MATCH (f:Forum {id: $forumId})-[:HAS_MEMBER]->(a:Person)-[:KNOWS]-(b:Person)<-[:HAS_MEMBER]-(f) WHERE a.id < b.id RETURN count(*) AS linked_pairs"),
    ("reply_triangle", "MATCH (a:Person)<-[:HAS_CREATOR]-(:Comment)-[:REPLY_OF]->(:Message)-[:HAS_CREATOR]->(b:Person) WHERE a.id < b.id AND (a)-[:KNOWS]-(b) RETURN count(DISTINCT [a.id, b.id]) AS n"),
    ("clustering_top", "MATCH (p:Person)-[:KNOWS]-(f) WITH p, count(f) AS k WHERE k >= 20 MATCH (p)-[:KNOWS]-(a)-[:KNOWS]-(b)-[:KNOWS]-(p) WHERE a.id < b.id WITH p, k, count(*) AS t RETURN p.id AS id, k, t ORDER BY t DESC, id LIMIT 5", True),
])
QUERIES += _q("recommendations", [
    ("friend_recommendation", "MATCH (p:Person {id: $personId})-[:KNOWS]-(f)-[:KNOWS]-(r:Person) WHERE r <> p AND NOT (p)-[:KNOWS]-(r) RETURN r.id AS id, count(*) AS common ORDER BY common DESC, id LIMIT 10", True),
    ("tag_recommendation", "MATCH (p:Person {id: $personId})-[:KNOWS]-(f)-[:HAS_INTEREST]->(t:Tag) WHERE NOT (p)-[:HAS_INTEREST]->(t) RETURN t.name AS tag, count(f) AS n ORDER BY n DESC, tag LIMIT 10", True),
    ("forum_recommendation", "MATCH (p:Person {id: $personId})-[:KNOWS]-(f)<-[:HAS_MEMBER]-(fo:Forum) WHERE NOT (fo)-[:HAS_MEMBER]->(p) RETURN fo.id AS id, count(f) AS friends ORDER BY friends DESC, id LIMIT 10", True),
    ("post_recommendation", "MATCH (p:Person {id: $personId})-[:KNOWS]-(f)-[:LIKES]->(m:Post) WHERE NOT (p)-[:LIKES]->(m) RETURN m.id AS id, count(f) AS likes ORDER BY likes DESC, id LIMIT 10", True),
    ("similar_interests", "MATCH (p:Person {id: $personId})-[:HAS_INTEREST]->(t)<-[:HAS_INTEREST]-(o:Person) WHERE o <> p RETURN o.id AS id, count(t) AS shared ORDER BY shared DESC, id LIMIT 10", True),
    ("colleagues", "MATCH (p:Person {id: $personId})-[:WORK_AT]->(c:Company)<-[:WORK_AT]-(o:Person) WHERE o <> p AND NOT (p)-[:KNOWS]-(o) RETURN o.id AS id, c.name AS company ORDER BY company, id LIMIT 20", True),
    ("classmates", "MATCH (p:Person {id: $personId})-[s:STUDY_AT]->(u:University)<-[s2:STUDY_AT]-(o:Person) WHERE o <> p AND abs(s.classYear - s2.classYear) <= 2 RETURN o.id AS id ORDER BY id", True),
    ("city_people_same_tags", "MATCH (p:Person {id: $personId})-[:IS_LOCATED_IN]->(c:City)<-[:IS_LOCATED_IN]-(o:Person) WHERE o <> p RETURN o.id AS id, COUNT { (o)-[:HAS_INTEREST]->(t)<-[:HAS_INTEREST]-(p) } AS shared ORDER BY shared DESC, id LIMIT 10", True),
    ("tag_cooccurrence", "MATCH (t:Tag {name: $tagName})<-[:HAS_TAG]-(m:Message)-[:HAS_TAG]->(o:Tag) WHERE o <> t RETURN o.name AS tag, count(m) AS n ORDER BY n DESC, tag LIMIT 10", True),
    ("who_to_follow_in_forum", "MATCH (:Forum {id: $forumId})-[:HAS_MEMBER]->(p:Person)<-[:HAS_CREATOR]-(m:Message) RETURN p.id AS id, count(m) AS posts ORDER BY posts DESC, id LIMIT 10", True),
])
QUERIES += _q("variable-length", [
    ("walk_knows_recent", "MATCH (p:Person {id: $personId})-[ks:KNOWS*1..3]-(f:Person) WHERE all(k IN ks WHERE k.creationDate > $date - 31536000000) AND f <> p RETURN count(DISTINCT f) AS n"),
    ("walk_knows_none_old", "MATCH (p:Person {id: $personId})-[ks:KNOWS*1..2]-(f:Person) WHERE none(k IN ks WHERE k.creationDate < 1280000000000) RETURN count(DISTINCT f) AS n"),
    ("walk_nodes_filter", "MATCH path = (p:Person {id: $personId})-[:KNOWS*1..2]-(f:Person) WHERE all(n IN nodes(path) WHERE n.browserUsed <> 'Safari') RETURN count(DISTINCT f) AS n"),
    ("walk_path_length", "MATCH path = (p:Person {id: $personId})-[:KNOWS*1..3]-(f:Person {id: $person2Id}) RETURN length(path) AS len, count(*) AS paths ORDER BY len", True),
    ("reply_thread_depth", "MATCH (c:Comment)-[:REPLY_OF*1..6]->(p:Post {id: $postId}) RETURN count(c) AS replies"),
    ("reply_thread_authors", "MATCH (c:Comment)-[:REPLY_OF*1..6]->(:Post {id: $postId}), (c)-[:HAS_CREATOR]->(a:Person) RETURN a.id AS id, count(c) AS n ORDER BY n DESC, id", True),
    ("tagclass_ancestors", "MATCH (c:TagClass {name: $tagClass})-[:IS_SUBCLASS_OF*0..5]->(a:TagClass) RETURN a.name AS name ORDER BY name", True),
    ("tagclass_descendant_tags", "MATCH (:TagClass {name: $tagClass})<-[:IS_SUBCLASS_OF*0..5]-(:TagClass)<-[:HAS_TYPE]-(t:Tag) RETURN count(t) AS n"),
    ("place_hierarchy", "MATCH (p:Person {id: $personId})-[:IS_LOCATED_IN]->(:City)-[:IS_PART_OF*1..2]->(x:Place) RETURN x.name AS place ORDER BY place", True),
    ("walk_reduce_weight", "MATCH path = (p:Person {id: $personId})-[:KNOWS*2]-(f:Person) WHERE f <> p RETURN f.id AS id, min(reduce(s = 0, k IN relationships(path) | s + k.creationDate % 1000)) AS w ORDER BY w, id LIMIT 10", True),
    ("walk_single_old", "MATCH (p:Person {id: $personId})-[ks:KNOWS*2]-(f:Person) WHERE single(k IN ks WHERE k.creationDate < $date - 63072000000) RETURN count(*) AS n"),
    ("walk_any_city", "MATCH path = (p:Person {id: $personId})-[:KNOWS*1..2]-(f:Person) WHERE any(n IN nodes(path) WHERE (n)-[:IS_LOCATED_IN]->(:City)-[:IS_PART_OF]->(:Country {name: $countryName})) RETURN count(DISTINCT f) AS n"),
])
QUERIES += _q("shortest-paths", [
    ("shortest_len", "MATCH (a:Person {id: $personId}), (b:Person {id: $person2Id}) MATCH p = shortestPath((a)-[:KNOWS*]-(b)) RETURN length(p) AS len"),
    ("all_shortest_count", "MATCH (a:Person {id: $personId}), (b:Person {id: $person2Id}) MATCH p = allShortestPaths((a)-[:KNOWS*]-(b)) RETURN length(p) AS len, count(p) AS paths"),
    ("all_shortest_ids", "MATCH (a:Person {id: $personId}), (b:Person {id: $person2Id}) MATCH p = allShortestPaths((a)-[:KNOWS*]-(b)) RETURN [n IN nodes(p) | n.id] AS ids"),
    ("shortest_recent_knows", "MATCH (a:Person {id: $personId}), (b:Person {id: $person2Id}) MATCH p = allShortestPaths((a)-[ks:KNOWS*..10]-(b)) WHERE all(k IN ks WHERE k.creationDate < $date) RETURN length(p) AS len, count(*) AS paths"),
    ("shortest_avoid_browser", "MATCH (a:Person {id: $personId}), (b:Person {id: $person2Id}) MATCH p = shortestPath((a)-[:KNOWS*..10]-(b)) WHERE none(n IN nodes(p) WHERE n.browserUsed = 'Opera') RETURN length(p) AS len"),
    ("shortest_min_length", "MATCH (a:Person {id: $personId}), (b:Person {id: $person2Id}) MATCH p = allShortestPaths((a)-[:KNOWS*..8]-(b)) WHERE length(p) >= 3 RETURN length(p) AS len, count(*) AS paths"),
    ("shortest_to_friends_of_friends", "MATCH (a:Person {id: $personId})-[:KNOWS*2]-(b:Person) WHERE a <> b WITH DISTINCT a, b MATCH p = shortestPath((a)-[:KNOWS*]-(b)) RETURN length(p) AS len, count(*) AS n ORDER BY len", True),
    ("shortest_distance_histogram", "MATCH (a:Person {id: $personId}), (b:Person) WHERE a <> b MATCH p = shortestPath((a)-[:KNOWS*..6]-(b)) RETURN length(p) AS len, count(*) AS n ORDER BY len", True),
    ("shortest_via_replies", "MATCH (c:Comment)-[:REPLY_OF*1..6]->(p:Post {id: $postId}) WITH c, p MATCH path = shortestPath((c)-[:REPLY_OF*]->(p)) RETURN max(length(path)) AS deepest"),
    ("shortest_none_path", "MATCH (a:Person {id: $personId}), (b:Person {id: $person2Id}) OPTIONAL MATCH p = shortestPath((a)-[:KNOWS*..1]-(b)) RETURN p IS NULL AS none"),
])
QUERIES += _q("label-scans", [
    ("persons_born_range", "MATCH (p:Person) WHERE p.birthday >= 500000000000 AND p.birthday < 600000000000 RETURN count(p) AS n"),
    ("persons_name_prefix", "MATCH (p:Person) WHERE p.firstName STARTS WITH 'J' RETURN p.firstName AS name, count(*) AS n ORDER BY n DESC, name LIMIT 10", True),
    ("persons_name_suffix", "MATCH (p:Person) WHERE p.lastName ENDS WITH 'son' RETURN p.id AS id ORDER BY id", True),
    ("posts_contains", "MATCH (m:Post) WHERE m.content CONTAINS 'Mozart' RETURN count(m) AS n"),
    ("comments_regex", "MATCH (c:Comment) WHERE c.content =~ '(?i)^(ok|yes|no|lol).*' RETURN c.content AS text, count(*) AS n ORDER BY n DESC, text LIMIT 10", True),
    ("tags_regex", "MATCH (t:Tag) WHERE t.name =~ '[A-C].*_.*' RETURN count(t) AS n"),
    ("messages_in_window", "MATCH (m:Message) WHERE m.creationDate >= $date AND m.creationDate < $date + 86400000 * 7 RETURN count(m) AS n"),
    ("browser_ip_prefix", "MATCH (p:Person) WHERE p.locationIP STARTS WITH '1.' RETURN p.browserUsed AS browser, count(*) AS n ORDER BY n DESC, browser", True),
    ("speaks_language", "MATCH (p:Person) WHERE 'zh' IN p.speaks RETURN count(p) AS n"),
    ("email_domain", "MATCH (p:Person) WHERE any(e IN p.email WHERE e ENDS WITH '@gmx.com') RETURN count(p) AS n"),
    ("long_posts", "MATCH (m:Post) WHERE m.length > 1000 RETURN m.language AS lang, count(*) AS n ORDER BY n DESC, lang", True),
    ("image_posts", "MATCH (m:Post) WHERE m.imageFile IS NOT NULL AND m.imageFile <> '' RETURN count(m) AS n"),
    ("universities_by_name", "MATCH (u:University) WHERE toLower(u.name) CONTAINS 'technology' RETURN u.name AS name ORDER BY name", True),
    ("forum_title_regex", "MATCH (f:Forum) WHERE f.title =~ 'Group for .* in .*' RETURN count(f) AS n"),
])
QUERIES += _q("top-k", [
    ("newest_posts", "MATCH (m:Post) RETURN m.id AS id, m.creationDate AS date ORDER BY date DESC, id LIMIT 10", True),
    ("oldest_comments", "MATCH (c:Comment) RETURN c.id AS id ORDER BY c.creationDate, id LIMIT 10", True),
    ("longest_comments", "MATCH (c:Comment) RETURN c.id AS id, c.length AS len ORDER BY len DESC, id LIMIT 10", True),
    ("page_3_of_persons", "MATCH (p:Person) RETURN p.id AS id, p.lastName AS last ORDER BY last, id SKIP 40 LIMIT 20", True),
    ("most_liked_messages", "MATCH (m:Message)<-[:LIKES]-() RETURN m.id AS id, count(*) AS likes ORDER BY likes DESC, id LIMIT 10", True),
    ("most_active_creators", "MATCH (p:Person)<-[:HAS_CREATOR]-(m:Message) RETURN p.id AS id, count(m) AS n ORDER BY n DESC, id LIMIT 10", True),
    ("largest_forums", "MATCH (f:Forum)-[:HAS_MEMBER]->() RETURN f.id AS id, count(*) AS members ORDER BY members DESC, id LIMIT 10", True),
    ("popular_tags", "MATCH (t:Tag)<-[:HAS_TAG]-() RETURN t.name AS tag, count(*) AS n ORDER BY n DESC, tag LIMIT 10", True),
    ("youngest_people", "MATCH (p:Person) RETURN p.id AS id, p.birthday AS b ORDER BY b DESC, id LIMIT 10", True),
    ("deepest_page", "MATCH (m:Message) RETURN m.id AS id ORDER BY m.creationDate DESC, id SKIP 500 LIMIT 10", True),
    ("top_countries_by_messages", "MATCH (m:Message)-[:IS_LOCATED_IN]->(c:Country) RETURN c.name AS country, count(m) AS n ORDER BY n DESC, country LIMIT 10", True),
    ("busiest_days", "MATCH (m:Message) RETURN m.creationDate / 86400000 AS day, count(*) AS n ORDER BY n DESC, day LIMIT 5", True),
])
QUERIES += _q("distinct", [
    ("distinct_fof_cities", "MATCH (:Person {id: $personId})-[:KNOWS*1..2]-(:Person)-[:IS_LOCATED_IN]->(c:City) RETURN DISTINCT c.name AS city ORDER BY city", True),
    ("distinct_tags_of_friends_posts", "MATCH (:Person {id: $personId})-[:KNOWS]-(:Person)<-[:HAS_CREATOR]-(:Message)-[:HAS_TAG]->(t:Tag) RETURN count(DISTINCT t) AS n"),
    ("distinct_likers", "MATCH (:Tag {name: $tagName})<-[:HAS_TAG]-(:Message)<-[:LIKES]-(p:Person) RETURN count(DISTINCT p) AS n"),
    ("distinct_browser_country", "MATCH (m:Message)-[:IS_LOCATED_IN]->(c:Country) RETURN DISTINCT m.browserUsed AS browser, c.name AS country ORDER BY country, browser", True),
    ("distinct_creators_in_forum", "MATCH (:Forum {id: $forumId})-[:CONTAINER_OF]->(:Post)<-[:REPLY_OF*1..3]-(:Comment)-[:HAS_CREATOR]->(p:Person) RETURN count(DISTINCT p) AS n"),
    ("distinct_pairs", "MATCH (a:Person)-[:KNOWS]-(b:Person) RETURN count(DISTINCT [a.id, b.id]) AS n"),
    ("distinct_languages", "MATCH (m:Post) RETURN DISTINCT m.language AS lang ORDER BY lang", True),
    ("distinct_first_names_of_likers", "MATCH (p:Person)-[:LIKES]->(:Message)-[:HAS_CREATOR]->(:Person {id: $personId}) RETURN DISTINCT p.firstName AS name ORDER BY name", True),
])
QUERIES += _q("grouping", [
    ("by_gender_browser", "MATCH (p:Person) RETURN p.gender AS gender, p.browserUsed AS browser, count(*) AS n ORDER BY gender, browser", True),
    ("by_country_gender", "MATCH (p:Person)-[:IS_LOCATED_IN]->(:City)-[:IS_PART_OF]->(c:Country) RETURN c.name AS country, p.gender AS gender, count(*) AS n ORDER BY n DESC, country, gender LIMIT 20", True),
    ("by_year_month", "MATCH (m:Post) WITH datetime({epochMillis: m.creationDate}) AS d RETURN d.year AS y, d.month AS mo, count(*) AS n ORDER BY y, mo", True),
    ("by_three_keys", "MATCH (m:Comment) RETURN m.browserUsed AS browser, m.length % 3 AS bucket, m.length > 10 AS long, count(*) AS n ORDER BY browser, bucket, long", True),
    ("avg_length_by_language", "MATCH (m:Post) RETURN m.language AS lang, avg(m.length) AS avg_len, max(m.length) AS longest ORDER BY lang", True),
    ("sum_likes_by_country", "MATCH (p:Person)-[:LIKES]->(m:Message)-[:IS_LOCATED_IN]->(c:Country) RETURN c.name AS country, count(*) AS likes ORDER BY likes DESC, country LIMIT 10", True),
    ("collect_friends_names", "MATCH (:Person {id: $personId})-[:KNOWS]-(f:Person) RETURN f.gender AS gender, collect(f.firstName) AS names ORDER BY gender", True, ("names",)),
    ("min_max_birthday_by_city", "MATCH (p:Person)-[:IS_LOCATED_IN]->(c:City) RETURN c.name AS city, min(p.birthday) AS oldest, max(p.birthday) AS youngest, count(*) AS n ORDER BY n DESC, city LIMIT 10", True),
    ("tag_class_counts", "MATCH (t:Tag)-[:HAS_TYPE]->(c:TagClass) RETURN c.name AS class, count(t) AS tags ORDER BY tags DESC, class LIMIT 10", True),
    ("forum_by_creation_year", "MATCH (f:Forum) RETURN datetime({epochMillis: f.creationDate}).year AS y, count(*) AS n ORDER BY y", True),
    ("percentiles", "MATCH (c:Comment) RETURN percentileDisc(c.length, 0.5) AS median, percentileCont(c.length, 0.9) AS p90"),
    ("count_distinct_per_group", "MATCH (p:Person)-[:HAS_INTEREST]->(t:Tag)-[:HAS_TYPE]->(c:TagClass) RETURN c.name AS class, count(DISTINCT p) AS people ORDER BY people DESC, class LIMIT 10", True),
])
QUERIES += _q("subqueries", [
    ("exists_forum_post", "MATCH (p:Person) WHERE EXISTS { MATCH (p)<-[:HAS_MODERATOR]-(:Forum)-[:CONTAINER_OF]->(:Post) } RETURN count(p) AS n"),
    ("not_exists_likes", "MATCH (p:Person) WHERE NOT EXISTS { (p)-[:LIKES]->() } RETURN count(p) AS n"),
    ("count_subquery", "MATCH (p:Person) WHERE COUNT { (p)-[:KNOWS]-() } > 30 RETURN p.id AS id ORDER BY id", True),
    ("count_in_projection", "MATCH (f:Forum {id: $forumId}) RETURN COUNT { (f)-[:HAS_MEMBER]->() } AS members, COUNT { (f)-[:CONTAINER_OF]->() } AS posts"),
    ("collect_subquery", "MATCH (p:Person {id: $personId}) RETURN COLLECT { MATCH (p)-[:HAS_INTEREST]->(t) RETURN t.name } AS tags", False, ("tags",)),
    ("call_per_row", "MATCH (p:Person)-[:KNOWS]-(:Person {id: $personId}) CALL { WITH p MATCH (p)<-[:HAS_CREATOR]-(m:Message) RETURN count(m) AS n } RETURN p.id AS id, n ORDER BY n DESC, id LIMIT 10", True),
    ("call_union", "CALL { MATCH (p:Post)-[:HAS_CREATOR]->(:Person {id: $personId}) RETURN p.id AS id UNION MATCH (c:Comment)-[:HAS_CREATOR]->(:Person {id: $personId}) RETURN c.id AS id } RETURN count(id) AS n"),
    ("exists_in_return", "MATCH (p:Person)-[:KNOWS]-(:Person {id: $personId}) RETURN p.id AS id, EXISTS { (p)-[:WORK_AT]->() } AS works ORDER BY id", True),
    ("nested_exists", "MATCH (t:Tag) WHERE EXISTS { MATCH (t)<-[:HAS_TAG]-(m:Message) WHERE EXISTS { (m)<-[:LIKES]-(:Person {id: $personId}) } } RETURN t.name AS tag ORDER BY tag", True),
    ("count_filter_group", "MATCH (c:City) WITH c, COUNT { (c)<-[:IS_LOCATED_IN]-(:Person) } AS people WHERE people > 0 RETURN count(c) AS cities, sum(people) AS people"),
    ("call_top_per_friend", "MATCH (:Person {id: $personId})-[:KNOWS]-(f:Person) CALL { WITH f MATCH (f)<-[:HAS_CREATOR]-(m:Message) RETURN m.creationDate AS last ORDER BY last DESC LIMIT 1 } RETURN f.id AS id, last ORDER BY id", True),
    ("pattern_comprehension", "MATCH (p:Person {id: $personId}) RETURN [(p)-[:KNOWS]-(f) WHERE f.gender = 'female' | f.id] AS women", False, ("women",)),
    ("exists_two_hops", "MATCH (p:Person) WHERE EXISTS { (p)-[:KNOWS]-(:Person)-[:KNOWS]-(:Person {id: $personId}) } RETURN count(p) AS n"),
    ("union_all_counts", "MATCH (p:Post) RETURN 'post' AS kind, count(p) AS n UNION ALL MATCH (c:Comment) RETURN 'comment' AS kind, count(c) AS n"),
])
QUERIES += _q("map-projections", [
    ("person_card", "MATCH (p:Person {id: $personId}) RETURN p {.id, .firstName, .lastName, friends: COUNT { (p)-[:KNOWS]-() }} AS card"),
    ("friends_cards", "MATCH (:Person {id: $personId})-[:KNOWS]-(f:Person) RETURN f {.id, .firstName, city: [(f)-[:IS_LOCATED_IN]->(c) | c.name][0]} AS card ORDER BY card.id", True),
    ("post_card", "MATCH (m:Post {id: $postId}) RETURN m {.id, .creationDate, author: [(m)-[:HAS_CREATOR]->(a) | a {.id, .firstName}][0], replies: COUNT { (m)<-[:REPLY_OF]-() }} AS card"),
    ("forum_card", "MATCH (f:Forum {id: $forumId}) RETURN f {.title, moderator: [(f)-[:HAS_MODERATOR]->(m) | m.id][0], tags: [(f)-[:HAS_TAG]->(t) | t.name]} AS card", False, ("card.tags",)),
    ("all_properties", "MATCH (t:TagClass {name: $tagClass}) RETURN t {.*} AS props"),
    ("map_literal_rows", "MATCH (:Person {id: $personId})-[k:KNOWS]-(f:Person) RETURN {id: f.id, since: k.creationDate} AS m ORDER BY m.since, m.id LIMIT 5", True),
    ("nested_maps", "MATCH (p:Person {id: $personId})-[w:WORK_AT]->(c:Company) RETURN {person: p.id, job: {company: c.name, from: w.workFrom}} AS m ORDER BY m.job.from, m.job.company", True),
    ("properties_function", "MATCH (p:Person {id: $personId}) RETURN properties(p) AS props"),
])
QUERIES += _q("optional", [
    ("optional_work", "MATCH (p:Person)-[:KNOWS]-(:Person {id: $personId}) OPTIONAL MATCH (p)-[w:WORK_AT]->(c:Company) RETURN p.id AS id, c.name AS company, w.workFrom AS since ORDER BY id, company", True),
    ("optional_chain", "MATCH (p:Person {id: $personId}) OPTIONAL MATCH (p)-[:STUDY_AT]->(u:University) OPTIONAL MATCH (u)-[:IS_LOCATED_IN]->(c:City) OPTIONAL MATCH (c)-[:IS_PART_OF]->(k:Country) RETURN u.name AS uni, c.name AS city, k.name AS country ORDER BY uni", True),
    ("optional_count", "MATCH (p:Person)-[:KNOWS]-(:Person {id: $personId}) OPTIONAL MATCH (p)<-[:HAS_MODERATOR]-(f:Forum) RETURN p.id AS id, count(f) AS moderates ORDER BY id", True),
    ("optional_missing", "MATCH (t:Tag {name: $tagName}) OPTIONAL MATCH (t)<-[:HAS_INTEREST]-(p:Person {id: -1}) RETURN t.name AS tag, p IS NULL AS nobody"),
    ("optional_where", "MATCH (p:Person {id: $personId}) OPTIONAL MATCH (p)-[k:KNOWS]-(f:Person) WHERE k.creationDate > $date RETURN count(f) AS recent"),
    ("optional_then_match", "MATCH (p:Person {id: $personId}) OPTIONAL MATCH (p)<-[:HAS_CREATOR]-(m:Post) WITH p, count(m) AS posts MATCH (p)-[:IS_LOCATED_IN]->(c) RETURN posts, c.name AS city"),
    ("optional_coalesce", "MATCH (p:Person)-[:KNOWS]-(:Person {id: $personId}) OPTIONAL MATCH (p)-[:STUDY_AT]->(u) RETURN coalesce(u.name, 'none') AS uni, count(*) AS n ORDER BY n DESC, uni", True),
    ("optional_two_hops", "MATCH (f:Forum {id: $forumId}) OPTIONAL MATCH (f)-[:CONTAINER_OF]->(p:Post)<-[:REPLY_OF]-(c:Comment) RETURN count(p) AS posts_with_reply, count(DISTINCT c) AS comments"),
    ("optional_null_join", "MATCH (p:Person {id: $personId}) OPTIONAL MATCH (p)-[:LIKES]->(m:Message) OPTIONAL MATCH (m)-[:HAS_TAG]->(t:Tag {name: $tagName}) RETURN count(m) AS liked, count(t) AS tagged"),
    ("optional_collect", "MATCH (p:Person)-[:KNOWS]-(:Person {id: $personId}) OPTIONAL MATCH (p)-[:HAS_INTEREST]->(t:Tag) RETURN p.id AS id, collect(t.name) AS tags ORDER BY id", True, ("tags",)),
])
QUERIES += _q("writes", [
    ("w_set_property", "MATCH (p:Person {id: $personId}) SET p.nickname = p.firstName + '!' RETURN p.nickname AS nick", False, (), True),
    ("w_create_friend", "MATCH (p:Person {id: $personId}) CREATE (p)-[:KNOWS {creationDate: $date}]->(n:Person {id: 999000001, firstName: 'New'}) RETURN n.firstName AS name, COUNT { (p)-[:KNOWS]-() } AS degree", False, (), True),
    ("w_merge_tag", "MERGE (t:Tag {name: 'suite-tag'}) ON CREATE SET t.created = true RETURN t.created AS created", False, (), True),
    ("w_merge_existing", "MATCH (t:Tag {name: $tagName}), (p:Person {id: $personId}) MERGE (t)<-[r:HAS_INTEREST]-(p) RETURN t.name AS tag, count { (p)-[:HAS_INTEREST]->() } AS interests", False, (), True),
    ("w_delete_likes", "MATCH (:Person {id: $personId})-[l:LIKES]->() DELETE l RETURN count(l) AS deleted", False, (), True),
    ("w_detach_post", "MATCH (m:Post {id: $postId}) DETACH DELETE m RETURN count(*) AS n", False, (), True),
    ("w_set_label", "MATCH (p:Person)-[:KNOWS]-(:Person {id: $personId}) SET p:Friend RETURN count(p) AS n", False, (), True),
    ("w_remove_property", "MATCH (p:Person {id: $personId}) REMOVE p.browserUsed RETURN p.browserUsed AS browser", False, (), True),
    ("w_bulk_update", "MATCH (c:Comment) WHERE c.length < 3 SET c.short = true RETURN count(c) AS n", False, (), True),
    ("w_unwind_create", "UNWIND range(1, 100) AS i CREATE (:Scratch {id: 998000000 + i, v: i * 2}) WITH count(*) AS made MATCH (s:Scratch) RETURN made, sum(s.v) AS total", False, (), True),
])


def validate() -> None:
    names = [q.name for q in QUERIES]
    assert len(names) == len(set(names)), "query names repeat"
    assert len(QUERIES) >= 150, len(QUERIES)


validate()
