package dev.kith.drivers;

import java.util.List;
import java.util.Map;
import org.neo4j.driver.Bookmark;
import org.neo4j.driver.Driver;
import org.neo4j.driver.EagerResult;
import org.neo4j.driver.QueryConfig;
import org.neo4j.driver.Record;
import org.neo4j.driver.RoutingControl;
import org.neo4j.driver.Session;
import org.neo4j.driver.types.Node;
import org.neo4j.driver.types.Relationship;

/**
 * What the 5.x driver line spells differently from 4.4: managed transactions are
 * {@code executeRead}/{@code executeWrite}, a query at once is {@code executableQuery}
 * (with the driver's own bookmark manager), bookmarks are a set, and graph elements
 * are matched by element id.
 */
final class DriverApi {
    private DriverApi() {}

    static List<Record> read(Session session, String query, Map<String, Object> params) {
        return session.executeRead(tx -> tx.run(query, params).list());
    }

    static List<Record> write(Session session, String query, Map<String, Object> params) {
        return session.executeWrite(tx -> tx.run(query, params).list());
    }

    static Answer readQuery(Driver driver, String query, Map<String, Object> params) {
        return atOnce(driver, RoutingControl.READ, query, params);
    }

    static Answer writeQuery(Driver driver, String query, Map<String, Object> params) {
        return atOnce(driver, RoutingControl.WRITE, query, params);
    }

    private static Answer atOnce(Driver driver, RoutingControl routing, String query, Map<String, Object> params) {
        EagerResult result = driver.executableQuery(query)
                .withParameters(params)
                .withConfig(QueryConfig.builder().withRouting(routing).build())
                .execute();
        return new Answer(result.keys(), result.records(), result.summary());
    }

    static List<Bookmark> lastBookmarks(Session session) {
        return List.copyOf(session.lastBookmarks());
    }

    static Bookmark bookmark(String value) {
        return Bookmark.from(value);
    }

    static boolean startsAt(Relationship relationship, Node node) {
        return relationship.startNodeElementId().equals(node.elementId());
    }
}
