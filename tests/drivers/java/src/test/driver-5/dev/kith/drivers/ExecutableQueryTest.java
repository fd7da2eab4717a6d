package dev.kith.drivers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Bookmark;
import org.neo4j.driver.QueryConfig;
import org.neo4j.driver.RoutingControl;

/** The 5.x driver's session-less API: {@code executableQuery} and its bookmark manager. */
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
}
