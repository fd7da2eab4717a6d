package dev.kith.drivers;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.Driver;

/** A fresh, empty kith server and a driver on it (neo4j://) for each test. */
abstract class FreshServerTest {
    @TempDir
    Path tmp;

    KithServer server;
    Driver driver;

    @BeforeEach
    void start() throws Exception {
        server = KithServer.start(tmp.resolve("data"), tmp);
        driver = KithServer.driver(server.neo4j(), KithServer.ANY_AUTH);
    }

    @AfterEach
    void stop() throws Exception {
        if (driver != null) {
            driver.close();
        }
        if (server != null) {
            server.close();
        }
    }
}
