package dev.kith.drivers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.AccessMode;
import org.neo4j.driver.Bookmark;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Result;
import org.neo4j.driver.Session;
import org.neo4j.driver.SessionConfig;
import org.neo4j.driver.Transaction;
import org.neo4j.driver.exceptions.ClientException;
import org.neo4j.driver.exceptions.FatalDiscoveryException;
import org.neo4j.driver.summary.QueryType;
import org.neo4j.driver.summary.ResultSummary;
import org.neo4j.driver.summary.SummaryCounters;
import org.neo4j.driver.types.Node;
import org.neo4j.driver.types.Path;
import org.neo4j.driver.types.Relationship;

/**
 * Neo4j's Java driver, unchanged, on what applications do beyond reads: writes and their
 * counters, managed and explicit transactions, bookmarks, errors and recovery, large
 * results in pages, and the graph and temporal types. Each test has a fresh, empty
 * server. Mirrors tests/drivers/python/test_protocol.py.
 */
class ProtocolTest extends FreshServerTest {

    private long count(String label) {
        return DriverApi.readQuery(driver, "MATCH (n:" + label + ") RETURN count(n) AS c", Map.of())
                .records().get(0).get("c").asLong();
    }

    private static long single(Result result, String key) {
        return result.single().get(key).asLong();
    }

    @Test
    void theDriverMeetsANeo4j5Server() {
        driver.verifyConnectivity();
        try (Session session = driver.session()) {
            ResultSummary summary = session.run("RETURN 1").consume();
            assertTrue(summary.server().agent().startsWith("Neo4j/5."), summary.server().agent());
            // kith's newest Bolt that this driver line offers: 4.4 for the 4.4 driver, 5.x for 5.x.
            String expected = System.getProperty("driver.version").startsWith("4.4") ? "4.4" : "5.";
            assertTrue(summary.server().protocolVersion().startsWith(expected), summary.server().protocolVersion());
        }
    }

    @Test
    void writesReportTheirCountersAndAreVisibleAfter() {
        Answer answer = DriverApi.writeQuery(driver,
                "CREATE (a:Thing {name: $a})-[:NEXT {w: 1}]->(b:Thing {name: $b}) RETURN a.name AS a", Map.of("a", "x", "b", "y"));
        assertEquals("x", answer.records().get(0).get("a").asString());
        SummaryCounters c = answer.summary().counters();
        assertEquals(List.of(2, 1, 2, 3), List.of(c.nodesCreated(), c.relationshipsCreated(), c.labelsAdded(), c.propertiesSet()));
        assertTrue(c.containsUpdates());
        assertEquals(QueryType.READ_WRITE, answer.summary().queryType());
        assertEquals(2, count("Thing"));
    }

    @Test
    void unwindWritesAThousandRowsInOneTransaction() {
        List<Map<String, Object>> rows = IntStream.range(0, 1000)
                .mapToObj(i -> Map.<String, Object>of("id", (long) i, "name", "n" + i)).toList();
        try (Session session = driver.session()) {
            SummaryCounters c = session.run("UNWIND $rows AS r CREATE (:Thing {id: r.id, name: r.name})", Map.of("rows", rows))
                    .consume().counters();
            assertEquals(1000, c.nodesCreated());
            assertEquals("n999", session.run("MATCH (n:Thing {id: 999}) RETURN n.name AS name").single().get("name").asString());
        }
        assertEquals(1000, count("Thing"));
    }

    @Test
    void managedTransactionsCommitAndReadBack() {
        try (Session session = driver.session()) {
            List<Record> created = DriverApi.write(session, "CREATE (n:Thing {v: 1}) RETURN n.v AS v", Map.of());
            assertEquals(1, created.get(0).get("v").asLong());
            List<Record> seen = DriverApi.read(session, "MATCH (n:Thing) RETURN count(n) AS c", Map.of());
            assertEquals(1, seen.get(0).get("c").asLong());
        }
    }

    @Test
    void explicitTransactionsCommitOrRollBack() {
        try (Session session = driver.session()) {
            try (Transaction tx = session.beginTransaction()) {
                tx.run("CREATE (:Thing {v: 2})").consume();
                tx.rollback();
            }
            assertEquals(0, count("Thing"));
            try (Transaction tx = session.beginTransaction()) {
                assertEquals(0, single(tx.run("MATCH (n:Thing) RETURN count(n) AS c"), "c"));
                tx.run("CREATE (:Thing {v: 3})").consume();
                tx.commit();
            }
        }
        assertEquals(1, count("Thing"));
    }

    @Test
    void aTransactionClosedWithoutCommitRollsBack() {
        try (Session session = driver.session()) {
            try (Transaction tx = session.beginTransaction()) {
                tx.run("CREATE (:Thing {v: 4})").consume();
            }
            assertEquals(0, single(session.run("MATCH (n:Thing) RETURN count(n) AS c"), "c"));
        }
    }

    @Test
    void aTransactionReadsOneSnapshot() {
        try (Session reader = driver.session(); Session writer = driver.session()) {
            try (Transaction tx = reader.beginTransaction()) {
                assertEquals(0, single(tx.run("MATCH (n:Thing) RETURN count(n) AS c"), "c"));
                writer.run("CREATE (:Thing)").consume();
                // Committed by another session after BEGIN: not seen inside the transaction.
                assertEquals(0, single(tx.run("MATCH (n:Thing) RETURN count(n) AS c"), "c"));
                tx.commit();
            }
        }
        assertEquals(1, count("Thing"));
    }

    @Test
    void bookmarksChainSessions() {
        List<Bookmark> bookmarks;
        try (Session first = driver.session()) {
            first.run("CREATE (:Thing)").consume();
            bookmarks = DriverApi.lastBookmarks(first);
        }
        assertFalse(bookmarks.isEmpty());
        try (Session second = driver.session(SessionConfig.builder().withBookmarks(bookmarks).build())) {
            assertEquals(1, single(second.run("MATCH (n:Thing) RETURN count(n) AS c"), "c"));
        }
    }

    @Test
    void aBookmarkKithNeverIssuedIsRefused() {
        try (Driver direct = KithServer.driver(server.bolt(), KithServer.ANY_AUTH);
                Session session = direct.session(SessionConfig.builder()
                        .withBookmarks(DriverApi.bookmark("not-a-kith-bookmark")).build())) {
            ClientException e = assertThrows(ClientException.class, () -> session.run("RETURN 1").consume());
            assertEquals("Neo.ClientError.Transaction.InvalidBookmark", e.code());
        }
    }

    @Test
    void errorsHaveNeo4jCodesAndTheSessionRecovers() {
        try (Session session = driver.session()) {
            ClientException syntax = assertThrows(ClientException.class, () -> session.run("RETRUN 1").consume());
            assertEquals("Neo.ClientError.Statement.SyntaxError", syntax.code());
            ClientException division = assertThrows(ClientException.class,
                    () -> session.run("RETURN 1 / $z AS q", Map.of("z", 0)).consume());
            assertEquals("Neo.ClientError.Statement.ArithmeticError", division.code());
            // The connection was RESET after each failure: it still works.
            assertEquals(42, single(session.run("RETURN 41 + 1 AS x"), "x"));
        }
    }

    @Test
    void aReadSessionCannotWrite() {
        try (Session session = driver.session(SessionConfig.builder().withDefaultAccessMode(AccessMode.READ).build())) {
            ClientException e = assertThrows(ClientException.class, () -> session.run("CREATE (:Thing)").consume());
            assertEquals("Neo.ClientError.Statement.AccessMode", e.code());
        }
        assertEquals(0, count("Thing"));
    }

    @Test
    void anUnknownDatabaseIsRefused() {
        try (Driver direct = KithServer.driver(server.bolt(), KithServer.ANY_AUTH);
                Session session = direct.session(SessionConfig.forDatabase("elsewhere"))) {
            // The driver's own class for this code (org.neo4j.driver.internal.util.ErrorUtil).
            FatalDiscoveryException e = assertThrows(FatalDiscoveryException.class, () -> session.run("RETURN 1").consume());
            assertEquals("Neo.ClientError.Database.DatabaseNotFound", e.code());
        }
    }

    @Test
    void largeResultsStreamInPages() {
        List<Long> seen = new ArrayList<>();
        try (Session session = driver.session(SessionConfig.builder().withFetchSize(100).build())) {
            Result result = session.run("UNWIND range(1, 25000) AS i RETURN i, 'row ' + toString(i) AS s");
            while (result.hasNext()) {
                Record record = result.next();
                long i = record.get("i").asLong();
                assertEquals("row " + i, record.get("s").asString());
                seen.add(i);
            }
        }
        assertEquals(LongStream.rangeClosed(1, 25000).boxed().toList(), seen);
    }

    @Test
    void graphStructuresAndDatetimesArriveAsDriverTypes() {
        OffsetDateTime sent = OffsetDateTime.of(2021, 5, 6, 7, 8, 9, 123_000_000, ZoneOffset.UTC);
        try (Session session = driver.session()) {
            session.run("CREATE (:P {name: 'a'})-[:KNOWS {since: 2020}]->(:P {name: 'b'})").consume();
            Record row = session.run("MATCH p = (a:P {name: 'a'})-[r:KNOWS]->(b:P) "
                    + "RETURN a, r, p, datetime({epochMillis: 1500}) AS t, $t AS echoed", Map.of("t", sent)).single();
            Node a = row.get("a").asNode();
            assertEquals(Set.of("P"), toSet(a.labels()));
            assertEquals("a", a.get("name").asString());
            Relationship r = row.get("r").asRelationship();
            assertEquals("KNOWS", r.type());
            assertEquals(2020, r.get("since").asLong());
            assertTrue(DriverApi.startsAt(r, a));
            Path p = row.get("p").asPath();
            assertEquals(1, p.length());
            assertEquals("b", p.end().get("name").asString());
            assertEquals("DATE_TIME", row.get("t").type().name());
            assertEquals(OffsetDateTime.of(1970, 1, 1, 0, 0, 1, 500_000_000, ZoneOffset.UTC), row.get("t").asOffsetDateTime());
            assertEquals(sent, row.get("echoed").asOffsetDateTime());
        }
    }

    @Test
    void pointsRoundTripAsDriverPoints() {
        try (Session session = driver.session()) {
            Record row = session.run("RETURN $a AS a, $b AS b, $a.x AS x, point({longitude: 12.5, latitude: 55.7}) AS made",
                    Map.of("a", org.neo4j.driver.Values.point(7203, 1.5, -2.0),
                            "b", org.neo4j.driver.Values.point(4979, 12.5, 55.6, 100.0))).single();
            org.neo4j.driver.types.Point a = row.get("a").asPoint();
            assertEquals(7203, a.srid());
            assertEquals(1.5, a.x());
            assertEquals(-2.0, a.y());
            org.neo4j.driver.types.Point b = row.get("b").asPoint();
            assertEquals(4979, b.srid());
            assertEquals(100.0, b.z());
            assertEquals(1.5, row.get("x").asDouble());
            org.neo4j.driver.types.Point made = row.get("made").asPoint();
            assertEquals(4326, made.srid());
            assertEquals(55.7, made.y());
        }
    }

    @Test
    void byteArraysRoundTripAndReadAsSignedIntegers() {
        try (Session session = driver.session()) {
            byte[] sent = {1, 2, (byte) 0xff};
            Record row = session.run("CREATE (v:JavaBlob {b: $b}) RETURN v.b AS b, size($b) AS n, $b[-1] AS last, $b = [1, 2, -1] AS same",
                    Map.of("b", sent)).single();
            assertTrue(java.util.Arrays.equals(sent, row.get("b").asByteArray()));
            assertEquals(3, row.get("n").asLong());
            assertEquals(-1, row.get("last").asLong());
            assertTrue(row.get("same").asBoolean());
        }
    }

    private static Set<String> toSet(Iterable<String> values) {
        Set<String> out = new java.util.HashSet<>();
        values.forEach(out::add);
        return out;
    }
}
