"""LDBC SNB Interactive v1 reads in Cypher, written from the specification for Neo4j 5.

Keyed by kith's procedure names; parameters and result columns follow
docs/ldbc.md (the specification's). Dates are epoch-millisecond integers in this
graph. `params_for(name, p)` adds the derived parameters a query needs (IC3/IC4's
window end). `python queries.py` prints every query.
"""

DAY_MS = 86_400_000

QUERIES = {
    "ldbc.is1": """
MATCH (n:Person {id: $personId})-[:IS_LOCATED_IN]->(city:City)
RETURN n.firstName AS firstName, n.lastName AS lastName, n.birthday AS birthday,
       n.locationIP AS locationIP, n.browserUsed AS browserUsed, city.id AS cityId,
       n.gender AS gender, n.creationDate AS creationDate
""",
    "ldbc.is2": """
MATCH (:Person {id: $personId})<-[:HAS_CREATOR]-(m:Message)
WITH m ORDER BY m.creationDate DESC, m.id DESC LIMIT 10
MATCH (m)-[:REPLY_OF*0..]->(post:Post)-[:HAS_CREATOR]->(author:Person)
RETURN m.id AS messageId, coalesce(m.content, m.imageFile) AS messageContent,
       m.creationDate AS messageCreationDate, post.id AS originalPostId,
       author.id AS originalPostAuthorId, author.firstName AS originalPostAuthorFirstName,
       author.lastName AS originalPostAuthorLastName
ORDER BY messageCreationDate DESC, messageId DESC
""",
    "ldbc.is3": """
MATCH (:Person {id: $personId})-[r:KNOWS]-(friend:Person)
RETURN friend.id AS personId, friend.firstName AS firstName, friend.lastName AS lastName,
       r.creationDate AS friendshipCreationDate
ORDER BY friendshipCreationDate DESC, personId ASC
""",
    "ldbc.is4": """
MATCH (m:Message {id: $messageId})
RETURN m.creationDate AS messageCreationDate, coalesce(m.content, m.imageFile) AS messageContent
""",
    "ldbc.is5": """
MATCH (:Message {id: $messageId})-[:HAS_CREATOR]->(p:Person)
RETURN p.id AS personId, p.firstName AS firstName, p.lastName AS lastName
""",
    "ldbc.is6": """
MATCH (:Message {id: $messageId})-[:REPLY_OF*0..]->(:Post)<-[:CONTAINER_OF]-(f:Forum)-[:HAS_MODERATOR]->(mod:Person)
RETURN f.id AS forumId, f.title AS forumTitle, mod.id AS moderatorId,
       mod.firstName AS moderatorFirstName, mod.lastName AS moderatorLastName
""",
    "ldbc.is7": """
MATCH (m:Message {id: $messageId})<-[:REPLY_OF]-(c:Comment)-[:HAS_CREATOR]->(p:Person)
OPTIONAL MATCH (m)-[:HAS_CREATOR]->(a:Person)-[r:KNOWS]-(p)
RETURN c.id AS commentId, c.content AS commentContent, c.creationDate AS commentCreationDate,
       p.id AS replyAuthorId, p.firstName AS replyAuthorFirstName, p.lastName AS replyAuthorLastName,
       r IS NOT NULL AS replyAuthorKnowsOriginalMessageAuthor
ORDER BY commentCreationDate DESC, replyAuthorId ASC
""",
    "ldbc.ic1": """
MATCH path = shortestPath((person:Person {id: $personId})-[:KNOWS*1..3]-(friend:Person {firstName: $firstName}))
WHERE person <> friend
WITH friend, length(path) AS distance
ORDER BY distance ASC, friend.lastName ASC, friend.id ASC
LIMIT 20
MATCH (friend)-[:IS_LOCATED_IN]->(friendCity:City)
OPTIONAL MATCH (friend)-[studyAt:STUDY_AT]->(uni:University)-[:IS_LOCATED_IN]->(uniCity:City)
WITH friend, friendCity, distance,
     collect(CASE WHEN uni IS NULL THEN null ELSE [uni.name, studyAt.classYear, uniCity.name] END) AS unis
OPTIONAL MATCH (friend)-[workAt:WORK_AT]->(company:Company)-[:IS_LOCATED_IN]->(country:Country)
WITH friend, friendCity, distance, unis,
     collect(CASE WHEN company IS NULL THEN null ELSE [company.name, workAt.workFrom, country.name] END) AS companies
RETURN friend.id AS friendId, friend.lastName AS friendLastName, distance AS distanceFromPerson,
       friend.birthday AS friendBirthday, friend.creationDate AS friendCreationDate,
       friend.gender AS friendGender, friend.browserUsed AS friendBrowserUsed,
       friend.locationIP AS friendLocationIp, coalesce(friend.email, []) AS friendEmails,
       coalesce(friend.speaks, []) AS friendLanguages, friendCity.name AS friendCityName,
       unis AS friendUniversities, companies AS friendCompanies
ORDER BY distanceFromPerson ASC, friendLastName ASC, friendId ASC
LIMIT 20
""",
    "ldbc.ic2": """
MATCH (:Person {id: $personId})-[:KNOWS]-(friend:Person)<-[:HAS_CREATOR]-(message:Message)
WHERE message.creationDate < $maxDate
RETURN friend.id AS personId, friend.firstName AS personFirstName, friend.lastName AS personLastName,
       message.id AS messageId, coalesce(message.content, message.imageFile) AS messageContent,
       message.creationDate AS messageCreationDate
ORDER BY messageCreationDate DESC, messageId ASC
LIMIT 20
""",
    "ldbc.ic3": """
MATCH (countryX:Country {name: $countryXName}), (countryY:Country {name: $countryYName}),
      (person:Person {id: $personId})
MATCH (person)-[:KNOWS*1..2]-(friend:Person)-[:IS_LOCATED_IN]->(:City)-[:IS_PART_OF]->(home:Country)
WHERE person <> friend AND home <> countryX AND home <> countryY
WITH DISTINCT friend, countryX, countryY
MATCH (friend)<-[:HAS_CREATOR]-(message:Message)-[:IS_LOCATED_IN]->(country:Country)
WHERE $startDate <= message.creationDate < $endDate AND country IN [countryX, countryY]
WITH friend,
     sum(CASE WHEN country = countryX THEN 1 ELSE 0 END) AS xCount,
     sum(CASE WHEN country = countryY THEN 1 ELSE 0 END) AS yCount
WHERE xCount > 0 AND yCount > 0
RETURN friend.id AS personId, friend.firstName AS personFirstName, friend.lastName AS personLastName,
       xCount, yCount, xCount + yCount AS count
ORDER BY xCount DESC, personId ASC
LIMIT 20
""",
    "ldbc.ic4": """
MATCH (:Person {id: $personId})-[:KNOWS]-(:Person)<-[:HAS_CREATOR]-(post:Post)-[:HAS_TAG]->(tag:Tag)
WITH DISTINCT tag, post
WITH tag,
     sum(CASE WHEN $startDate <= post.creationDate < $endDate THEN 1 ELSE 0 END) AS postCount,
     sum(CASE WHEN post.creationDate < $startDate THEN 1 ELSE 0 END) AS earlier
WHERE postCount > 0 AND earlier = 0
RETURN tag.name AS tagName, postCount
ORDER BY postCount DESC, tagName ASC
LIMIT 10
""",
    "ldbc.ic5": """
MATCH (person:Person {id: $personId})-[:KNOWS*1..2]-(other:Person)
WHERE person <> other
WITH DISTINCT other
MATCH (other)<-[membership:HAS_MEMBER]-(forum:Forum)
WHERE membership.joinDate > $minDate
WITH forum, collect(other) AS members
OPTIONAL MATCH (forum)-[:CONTAINER_OF]->(post:Post)-[:HAS_CREATOR]->(creator:Person)
WHERE creator IN members
WITH forum, count(post) AS postCount
RETURN forum.title AS forumTitle, postCount
ORDER BY postCount DESC, forum.id ASC
LIMIT 20
""",
    "ldbc.ic6": """
MATCH (known:Tag {name: $tagName})
MATCH (person:Person {id: $personId})-[:KNOWS*1..2]-(other:Person)
WHERE person <> other
WITH DISTINCT other, known
MATCH (other)<-[:HAS_CREATOR]-(post:Post)-[:HAS_TAG]->(known)
MATCH (post)-[:HAS_TAG]->(tag:Tag)
WHERE tag <> known
RETURN tag.name AS tagName, count(post) AS postCount
ORDER BY postCount DESC, tagName ASC
LIMIT 10
""",
    "ldbc.ic7": """
MATCH (person:Person {id: $personId})<-[:HAS_CREATOR]-(message:Message)<-[like:LIKES]-(liker:Person)
WITH person, liker, message, like.creationDate AS likeTime
ORDER BY likeTime DESC, message.id ASC
WITH person, liker, head(collect({msg: message, likeTime: likeTime})) AS latest
RETURN liker.id AS personId, liker.firstName AS personFirstName, liker.lastName AS personLastName,
       latest.likeTime AS likeCreationDate, latest.msg.id AS commentOrPostId,
       coalesce(latest.msg.content, latest.msg.imageFile) AS commentOrPostContent,
       (latest.likeTime - latest.msg.creationDate) / 60000 AS minutesLatency,
       NOT EXISTS { (liker)-[:KNOWS]-(person) } AS isNew
ORDER BY likeCreationDate DESC, personId ASC
LIMIT 20
""",
    "ldbc.ic8": """
MATCH (:Person {id: $personId})<-[:HAS_CREATOR]-(:Message)<-[:REPLY_OF]-(comment:Comment)-[:HAS_CREATOR]->(author:Person)
RETURN author.id AS personId, author.firstName AS personFirstName, author.lastName AS personLastName,
       comment.creationDate AS commentCreationDate, comment.id AS commentId,
       comment.content AS commentContent
ORDER BY commentCreationDate DESC, commentId ASC
LIMIT 20
""",
    "ldbc.ic9": """
MATCH (person:Person {id: $personId})-[:KNOWS*1..2]-(other:Person)
WHERE person <> other
WITH DISTINCT other
MATCH (other)<-[:HAS_CREATOR]-(message:Message)
WHERE message.creationDate < $maxDate
RETURN other.id AS personId, other.firstName AS personFirstName, other.lastName AS personLastName,
       message.id AS messageId, coalesce(message.content, message.imageFile) AS messageContent,
       message.creationDate AS messageCreationDate
ORDER BY messageCreationDate DESC, messageId ASC
LIMIT 20
""",
    "ldbc.ic10": """
MATCH (person:Person {id: $personId})-[:KNOWS*2..2]-(fof:Person)
WHERE person <> fof AND NOT EXISTS { (fof)-[:KNOWS]-(person) }
WITH DISTINCT person, fof, datetime({epochMillis: fof.birthday}) AS born
WHERE (born.month = $month AND born.day >= 21) OR (born.month = $month % 12 + 1 AND born.day < 22)
MATCH (fof)-[:IS_LOCATED_IN]->(city:City)
OPTIONAL MATCH (fof)<-[:HAS_CREATOR]-(post:Post)
WITH person, fof, city, collect(post) AS posts
WITH fof, city, size(posts) AS postCount,
     size([p IN posts WHERE EXISTS { (p)-[:HAS_TAG]->(:Tag)<-[:HAS_INTEREST]-(person) }]) AS common
RETURN fof.id AS personId, fof.firstName AS personFirstName, fof.lastName AS personLastName,
       common - (postCount - common) AS commonInterestScore, fof.gender AS personGender,
       city.name AS personCityName
ORDER BY commonInterestScore DESC, personId ASC
LIMIT 10
""",
    "ldbc.ic11": """
MATCH (person:Person {id: $personId})-[:KNOWS*1..2]-(other:Person)
WHERE person <> other
WITH DISTINCT other
MATCH (other)-[workAt:WORK_AT]->(company:Company)-[:IS_LOCATED_IN]->(:Country {name: $countryName})
WHERE workAt.workFrom < $workFromYear
RETURN other.id AS personId, other.firstName AS personFirstName, other.lastName AS personLastName,
       company.name AS organizationName, workAt.workFrom AS organizationWorkFromYear
ORDER BY organizationWorkFromYear ASC, personId ASC, organizationName DESC
LIMIT 10
""",
    "ldbc.ic12": """
MATCH (:TagClass {name: $tagClassName})<-[:IS_SUBCLASS_OF*0..]-(:TagClass)<-[:HAS_TYPE]-(tag:Tag)
WITH collect(DISTINCT tag) AS tags
MATCH (:Person {id: $personId})-[:KNOWS]-(friend:Person)<-[:HAS_CREATOR]-(comment:Comment)-[:REPLY_OF]->(:Post)-[:HAS_TAG]->(tag:Tag)
WHERE tag IN tags
RETURN friend.id AS personId, friend.firstName AS personFirstName, friend.lastName AS personLastName,
       collect(DISTINCT tag.name) AS tagNames, count(DISTINCT comment) AS replyCount
ORDER BY replyCount DESC, personId ASC
LIMIT 20
""",
    # The same person: 0 (shortestPath refuses equal ends, so that case is its own query).
    "ldbc.ic13": """
OPTIONAL MATCH (person1:Person {id: $person1Id})
OPTIONAL MATCH (person2:Person {id: $person2Id})
OPTIONAL MATCH path = shortestPath((person1)-[:KNOWS*]-(person2))
RETURN CASE WHEN path IS NULL THEN -1 ELSE length(path) END AS shortestPathLength
""",
    "ldbc.ic14": """
MATCH path = allShortestPaths((:Person {id: $person1Id})-[:KNOWS*]-(:Person {id: $person2Id}))
WITH path, nodes(path) AS ps
UNWIND range(0, size(ps) - 2) AS i
WITH path, ps, ps[i] AS a, ps[i + 1] AS b
WITH path, ps,
     COUNT { (a)<-[:HAS_CREATOR]-(:Comment)-[:REPLY_OF]->(:Post)-[:HAS_CREATOR]->(b) }
   + COUNT { (b)<-[:HAS_CREATOR]-(:Comment)-[:REPLY_OF]->(:Post)-[:HAS_CREATOR]->(a) } AS postReplies,
     COUNT { (a)<-[:HAS_CREATOR]-(:Comment)-[:REPLY_OF]->(:Comment)-[:HAS_CREATOR]->(b) }
   + COUNT { (b)<-[:HAS_CREATOR]-(:Comment)-[:REPLY_OF]->(:Comment)-[:HAS_CREATOR]->(a) } AS commentReplies
WITH path, ps, sum(postReplies * 1.0 + commentReplies * 0.5) AS weight
RETURN [p IN ps | p.id] AS personIdsInPath, weight AS pathWeight
ORDER BY pathWeight DESC
""",
}

SAME_PERSON_IC13 = "MATCH (:Person {id: $person1Id}) RETURN 0 AS shortestPathLength"


def cypher(name, params):
    """The query text for a call (IC13 on one person is its own query)."""
    if name == "ldbc.ic13" and params.get("person1Id") == params.get("person2Id"):
        return SAME_PERSON_IC13
    return QUERIES[name]


def params_for(name, params):
    """The parameters a query takes: the call's, plus derived ones."""
    p = dict(params)
    if name in ("ldbc.ic3", "ldbc.ic4"):
        p["endDate"] = p["startDate"] + p["durationDays"] * DAY_MS
    return p


if __name__ == "__main__":
    for name, text in QUERIES.items():
        print(f"// {name}{text}")
