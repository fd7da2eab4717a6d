package dev.kith.drivers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.neo4j.driver.AuthToken;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Logging;

/**
 * A real {@code kith serve} with Bolt on a free port, as tests/drivers/python/conftest.py
 * runs them for the Python driver. The binary is {@code $KITH_BIN} (scripts/test sets it).
 */
final class KithServer implements AutoCloseable {
    static final Path REPO = Path.of(System.getProperty("kith.repo", "../../..")).toAbsolutePath().normalize();
    static final Path SHARED = REPO.getParent().resolve("shared").resolve("data");
    static final Path FIXTURES = REPO.resolve("crates/kith-cypher/tests/fixtures/neo4j-official");
    static final AuthToken ANY_AUTH = AuthTokens.basic("neo4j", "unused");
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    /** Servers not yet stopped: killed if the test JVM exits first (a crash, a timeout). */
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly)));
    }

    final int httpPort;
    final int boltPort;
    private final Process process;
    private final Path log;

    private KithServer(int httpPort, int boltPort, Process process, Path log) {
        this.httpPort = httpPort;
        this.boltPort = boltPort;
        this.process = process;
        this.log = log;
    }

    String bolt() {
        return "bolt://127.0.0.1:" + boltPort;
    }

    String neo4j() {
        return "neo4j://127.0.0.1:" + boltPort;
    }

    /** A driver for {@code url}, its own logging off (failures are the tests' to report). */
    static Driver driver(String url, AuthToken auth) {
        return GraphDatabase.driver(url, auth, Config.builder().withLogging(Logging.none()).build());
    }

    static Path bin() {
        String env = System.getenv("KITH_BIN");
        Path bin = env != null && !env.isEmpty() ? Path.of(env) : REPO.resolve("target/release/kith");
        if (!Files.isRegularFile(bin)) {
            throw new IllegalStateException("no kith binary at " + bin + ": build it with cargo build --release --bin kith");
        }
        return bin;
    }

    /** Runs the kith CLI to completion with {@code input} on standard input; throws with its output if it fails. */
    static void kith(String input, String... args) {
        List<String> command = new ArrayList<>(List.of(bin().toString()));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            try (var stdin = p.getOutputStream()) {
                stdin.write(input.getBytes(StandardCharsets.UTF_8));
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed (" + p.exitValue() + "):\n" + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Loads the official LDBC SNB Interactive test data into {@code data}. */
    static void loadLdbc(Path data) {
        kith("", "load", "ldbc", SHARED.resolve("ldbc-snb-interactive-test/vanilla").toString(), "--out", data.toString());
    }

    /** Creates a user before a server starts on {@code data}; the password goes on standard input. */
    static void addUser(Path data, String name, String role, String password) {
        kith(password + "\n", "user", "add", name, "--role", role, "--data", data.toString(), "--password-stdin");
    }

    /** Starts {@code kith serve} on {@code data}, its output in {@code dir/serve.log}; returns once /health answers. */
    static KithServer start(Path data, Path dir) throws IOException, InterruptedException {
        return start(data, dir, List.of());
    }

    /**
     * Makes a self-signed certificate for localhost and 127.0.0.1 in {@code dir} (scripts/test-cert)
     * and starts a server that speaks TLS only with it; the certificate is {@code dir/server.crt}.
     */
    static KithServer startTls(Path data, Path dir) throws IOException, InterruptedException {
        Path cert = dir.resolve("server.crt");
        Path key = dir.resolve("server.key");
        Process certify = new ProcessBuilder("bash", REPO.resolve("scripts/test-cert").toString(), dir.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(certify.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (certify.waitFor() != 0) {
            throw new IllegalStateException("scripts/test-cert failed:\n" + out);
        }
        return start(data, dir, List.of("--tls-cert", cert.toString(), "--tls-key", key.toString()));
    }

    private static KithServer start(Path data, Path dir, List<String> extra) throws IOException, InterruptedException {
        // A port found free can be taken before the server binds it (another process,
        // or a closed connection's port still lingering): pick again, a few times.
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce(data, dir, extra);
            } catch (IllegalStateException e) {
                if (attempt >= 3 || !String.valueOf(e.getMessage()).contains("Address already in use")) {
                    throw e;
                }
            }
        }
    }

    private static KithServer startOnce(Path data, Path dir, List<String> extra) throws IOException, InterruptedException {
        int httpPort = freePort();
        int boltPort = freePort();
        Path log = dir.resolve("serve.log");
        List<String> command = new ArrayList<>(List.of(bin().toString(), "serve", "--data", data.toString(),
                "--listen", "127.0.0.1:" + httpPort, "--bolt-listen", "127.0.0.1:" + boltPort, "--workers", "2"));
        command.addAll(extra);
        boolean tls = !extra.isEmpty();
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        RUNNING.add(process);
        KithServer server = new KithServer(httpPort, boltPort, process, log);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("kith serve exited (" + process.exitValue() + "):\n" + server.logTail());
            }
            if (tls ? server.listening() : server.healthy()) {
                return server;
            }
            Thread.sleep(100);
        }
        process.destroyForcibly();
        throw new IllegalStateException("kith serve did not answer /health within 30 s:\n" + server.logTail());
    }

    private boolean healthy() throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/health"))
                .timeout(Duration.ofSeconds(1))
                .build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notYet) {
            return false;
        }
    }

    /** The HTTP port accepts connections (a TLS server's /health needs its certificate trusted). */
    private boolean listening() {
        try (java.net.Socket socket = new java.net.Socket(InetAddress.getLoopbackAddress(), httpPort)) {
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    private String logTail() {
        try {
            String text = Files.readString(log);
            return text.substring(Math.max(0, text.length() - 4000));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** SIGTERM (kith checkpoints and exits), then SIGKILL after 30 s or if interrupted. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        RUNNING.remove(process);
    }
}
