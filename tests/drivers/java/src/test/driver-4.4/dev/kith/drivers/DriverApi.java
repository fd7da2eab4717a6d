package dev.kith.drivers;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.neo4j.driver.AccessMode;
import org.neo4j.driver.Bookmark;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Result;
import org.neo4j.driver.Session;
import org.neo4j.driver.SessionConfig;
import org.neo4j.driver.types.Node;
import org.neo4j.driver.types.Relationship;

/**
 * What the 4.4 driver line spells differently from 5.x: managed transactions are
 * {@code readTransaction}/{@code writeTransaction}, there is no {@code executableQuery}
 * (a query at once is a managed transaction in a new session, as the LDBC reference
 * implementation runs its queries), one bookmark holds many values, and graph
 * elements have only numeric ids.
 */
final class DriverApi {
    private DriverApi() {}

    static List<Record> read(Session session, String query, Map<String, Object> params) {
        return session.readTransaction(tx -> tx.run(query, params).list());
    }

    static List<Record> write(Session session, String query, Map<String, Object> params) {
        return session.writeTransaction(tx -> tx.run(query, params).list());
    }

    static Answer readQuery(Driver driver, String query, Map<String, Object> params) {
        return atOnce(driver, AccessMode.READ, query, params);
    }

    static Answer writeQuery(Driver driver, String query, Map<String, Object> params) {
        return atOnce(driver, AccessMode.WRITE, query, params);
    }

    private static Answer atOnce(Driver driver, AccessMode mode, String query, Map<String, Object> params) {
        SessionConfig config = SessionConfig.builder().withDefaultAccessMode(mode).build();
        try (Session session = driver.session(config)) {
            return mode == AccessMode.READ
                    ? session.readTransaction(tx -> answer(tx.run(query, params)))
                    : session.writeTransaction(tx -> answer(tx.run(query, params)));
        }
    }

    private static Answer answer(Result result) {
        List<String> keys = result.keys();
        List<Record> records = result.list();
        return new Answer(keys, records, result.consume());
    }

    static List<Bookmark> lastBookmarks(Session session) {
        Bookmark bookmark = session.lastBookmark();
        return bookmark == null || bookmark.isEmpty() ? List.of() : List.of(bookmark);
    }

    static Bookmark bookmark(String value) {
        return Bookmark.from(Set.of(value));
    }

    static boolean startsAt(Relationship relationship, Node node) {
        return relationship.startNodeId() == node.id();
    }
}
