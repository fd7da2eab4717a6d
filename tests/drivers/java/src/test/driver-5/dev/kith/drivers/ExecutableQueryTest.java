package dev.kith.drivers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Bookmark;
import org.neo4j.driver.QueryConfig;
import org.neo4j.driver.RoutingControl;
import org.neo4j.driver.summary.GqlStatusObject;

/**
 * The 5.x driver's session-less API: {@code executableQuery}, its bookmark manager, and
 * the GQL status objects of a summary (Bolt 5.5+ {@code statuses}).
 */
class ExecutableQueryTest extends FreshServerTest {

    @Test
    void aReadAfterAWriteWaitsForItThroughTheDriversBookmarks() {
        driver.executableQuery("CREATE (:Thing), (:Thing)").execute();
        Set<Bookmark> bookmarks = driver.executableQueryBookmarkManager().getBookmarks();
        assertEquals(1, bookmarks.size());
        String value = bookmarks.iterator().next().value();
        assertTrue(value.startsWith("kith:"), value);
        long seen = driver.executableQuery("MATCH (n:Thing) RETURN count(n) AS c")
                .withConfig(QueryConfig.builder().withRouting(RoutingControl.READ).build())
                .execute().records().get(0).get("c").asLong();
        assertEquals(2, seen);
    }

    private List<String> statuses(String query) {
        return driver.executableQuery(query).execute().summary().gqlStatusObjects().stream()
                .map(GqlStatusObject::gqlStatus)
                .toList();
    }

    @Test
    void everyResultCarriesTheGqlStatusNeo4jGivesIt() {
        assertEquals(List.of("00000"), statuses("RETURN 1 AS one"));
        // No data, then the warning Neo4j 5.26 gives for a label the graph lacks.
        assertEquals(List.of("02000", "01N50"), statuses("MATCH (n:Nothing) RETURN n"));
        var warning = driver.executableQuery("MATCH (n:Nothing) RETURN n").execute().summary()
                .notifications().get(0);
        assertEquals("Neo.ClientNotification.Statement.UnknownLabelWarning", warning.code());
        assertEquals(10, warning.position().column());
        assertEquals(List.of("00001"), statuses("CREATE (:Marker)"));
        GqlStatusObject success = driver.executableQuery("RETURN 1 AS one").execute().summary()
                .gqlStatusObjects().iterator().next();
        assertEquals("note: successful completion", success.statusDescription());
        assertEquals("/", success.diagnosticRecord().get("CURRENT_SCHEMA").asString());
    }
}
