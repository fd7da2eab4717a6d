package dev.kith.drivers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.AuthToken;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Logging;
import org.neo4j.driver.Session;
import org.neo4j.driver.exceptions.ServiceUnavailableException;

/**
 * Neo4j's Java driver over TLS ({@code kith serve --tls-cert --tls-key}): bolt+ssc://
 * (encrypted, the self-signed certificate accepted), bolt:// with the certificate as a
 * trusted authority (verified in full), and plain bolt:// to the TLS-only port refused
 * with the driver's own {@link ServiceUnavailableException}.
 */
class TlsTest {
    private static final AuthToken AUTH = AuthTokens.basic("will", "will-pw");

    @TempDir
    static Path tmp;

    static KithServer server;

    @BeforeAll
    static void start() throws Exception {
        Path data = tmp.resolve("data");
        KithServer.addUser(data, "will", "writer", "will-pw");
        server = KithServer.startTls(data, tmp);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void boltSscWritesAndReads() {
        try (Driver driver = KithServer.driver("bolt+ssc://127.0.0.1:" + server.boltPort, AUTH);
                Session session = driver.session()) {
            session.run("CREATE (:Sealed {id: 7})").consume();
            List<Long> ids = session.run("MATCH (s:Sealed) RETURN s.id AS id").list(r -> r.get("id").asLong());
            assertEquals(List.of(7L), ids);
        }
    }

    @Test
    void theCertificateAsATrustedAuthorityVerifiesInFull() {
        Config config = Config.builder()
                .withLogging(Logging.none())
                .withEncryption()
                .withTrustStrategy(Config.TrustStrategy.trustCustomCertificateSignedBy(
                        tmp.resolve("server.crt").toFile()))
                .build();
        try (Driver driver = GraphDatabase.driver("bolt://localhost:" + server.boltPort, AUTH, config);
                Session session = driver.session()) {
            assertEquals("secret", session.run("RETURN 'secret' AS word").single().get("word").asString());
        }
    }

    @Test
    void plainBoltToTheTlsPortIsRefused() {
        try (Driver driver = KithServer.driver("bolt://127.0.0.1:" + server.boltPort, AUTH)) {
            assertThrows(ServiceUnavailableException.class, driver::verifyConnectivity);
        }
    }
}
