package dev.kith.drivers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.AuthToken;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;
import org.neo4j.driver.exceptions.AuthenticationException;
import org.neo4j.driver.exceptions.SecurityException;

/**
 * Authentication and roles through Neo4j's Java driver: once a data directory has users
 * ({@code kith user add}), every Bolt connection must log in with basic auth, and a
 * user's role decides whether it may write. The driver maps Neo4j's codes to its own
 * exceptions (ErrorUtil in 4.4, adaptedbolt.ErrorMapper in 5.x):
 * {@code Neo.ClientError.Security.Unauthorized} to {@link AuthenticationException}, any
 * other {@code Neo.ClientError.Security.*} (here {@code Forbidden}) to {@link SecurityException}.
 */
class AuthTest {
    private static final Map<String, String[]> USERS = Map.of(
            "ada", new String[] {"admin", "ada-Secret-1"},
            "wes", new String[] {"writer", "wes secret with spaces"},
            "rita", new String[] {"reader", "rita-Secret-3"},
            "paul", new String[] {"reader", "paul-Secret-4"});
    private static final String UNAUTHORIZED = "Neo.ClientError.Security.Unauthorized";

    @TempDir
    static Path tmp;

    static Path data;
    static KithServer server;

    @BeforeAll
    static void start() throws Exception {
        data = tmp.resolve("data");
        USERS.forEach((name, rolePassword) -> KithServer.addUser(data, name, rolePassword[0], rolePassword[1]));
        server = KithServer.start(data, tmp);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static AuthToken login(String name) {
        return AuthTokens.basic(name, USERS.get(name)[1]);
    }

    /** Runs {@code work} with a bolt:// driver logged in with {@code auth}. */
    private static void as(AuthToken auth, Consumer<Driver> work) {
        try (Driver driver = KithServer.driver(server.bolt(), auth)) {
            work.accept(driver);
        }
    }

    private static long count(Session session, String by) {
        return session.run("MATCH (n:Note {by: $by}) RETURN count(n) AS c", Map.of("by", by)).single().get("c").asLong();
    }

    @Test
    void aWrongPasswordIsRefusedAsUnauthorized() {
        as(AuthTokens.basic("wes", "not-the-password"), driver -> {
            assertEquals(UNAUTHORIZED, assertThrows(AuthenticationException.class, driver::verifyConnectivity).code());
            try (Session session = driver.session()) {
                AuthenticationException e = assertThrows(AuthenticationException.class, () -> session.run("RETURN 1").consume());
                assertEquals(UNAUTHORIZED, e.code());
            }
        });
    }

    @Test
    void anUnknownUserIsRefusedAsUnauthorized() {
        as(AuthTokens.basic("mallory", USERS.get("wes")[1]), driver ->
                assertEquals(UNAUTHORIZED, assertThrows(AuthenticationException.class, driver::verifyConnectivity).code()));
    }

    @Test
    void aConnectionWithoutCredentialsIsRefusedOnceUsersExist() {
        as(AuthTokens.none(), driver ->
                assertEquals(UNAUTHORIZED, assertThrows(AuthenticationException.class, driver::verifyConnectivity).code()));
    }

    @Test
    void aWriterWritesAndReadsItsWrites() {
        as(login("wes"), driver -> {
            try (Session session = driver.session()) {
                assertEquals(1, session.run("CREATE (:Note {by: 'wes'})").consume().counters().nodesCreated());
                assertEquals(1, count(session, "wes"));
            }
        });
    }

    @Test
    void anAdminWrites() {
        as(login("ada"), driver -> {
            try (Session session = driver.session()) {
                assertEquals(1, session.run("CREATE (:Note {by: 'ada'})").consume().counters().nodesCreated());
            }
        });
    }

    @Test
    void aReaderReadsButItsWriteIsForbiddenAndItsSessionGoesOn() {
        as(login("rita"), driver -> {
            try (Session session = driver.session()) {
                SecurityException e = assertThrows(SecurityException.class,
                        () -> session.run("CREATE (:Note {by: 'rita'})").consume());
                assertEquals("Neo.ClientError.Security.Forbidden", e.code());
                assertEquals(0, count(session, "rita"));
            }
        });
    }

    /**
     * {@code kith user passwd} and {@code user remove} on a running server's data directory:
     * a new connection (a new driver: pooled connections stay logged in) meets the change.
     */
    @Test
    void aChangedPasswordAndARemovedUserApplyAtTheNextLogin() {
        KithServer.kith("paul-New-5\n", "user", "passwd", "paul", "--data", data.toString(), "--password-stdin");
        as(login("paul"), driver ->
                assertEquals(UNAUTHORIZED, assertThrows(AuthenticationException.class, driver::verifyConnectivity).code()));
        as(AuthTokens.basic("paul", "paul-New-5"), Driver::verifyConnectivity);
        KithServer.kith("", "user", "remove", "paul", "--data", data.toString());
        as(AuthTokens.basic("paul", "paul-New-5"), driver ->
                assertEquals(UNAUTHORIZED, assertThrows(AuthenticationException.class, driver::verifyConnectivity).code()));
    }
}
