package dev.kith.bench.bolt;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Logging;
import org.neo4j.driver.Session;
import org.neo4j.driver.exceptions.ClientException;

/**
 * S3's writes as Cypher through Neo4j's Java driver over Bolt, the same texts
 * {@code kith bench writes} sends as its {@code cypher-*} cases: C clients, each with
 * its own session, auto-commit transactions one after the other, for S seconds after a
 * warm-up of W seconds. Each case writes to a label of its own, so cases and runs do
 * not meet. Prints one JSON line per case: nodes (or keys) per second, requests per
 * second, and the median and 99th percentile latency of one request (acknowledged:
 * committed durably by the server).
 *
 * <pre>
 * java -cp 'target/kith-bolt-is1.jar:target/lib/*' dev.kith.bench.bolt.CypherWrites
 *     --url bolt://127.0.0.1:7687 [--name kith] [--cases single,tx1000,tx1000-indexed,merge-new,merge-existing]
 *     [--clients 8] [--seconds 10] [--warmup 2] [--user neo4j] [--password neo4j-peer]
 * </pre>
 */
public final class CypherWrites {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int BATCH = 1_000;
    private static final int PRELOADED = 100_000;

    /** One case: its name, its text (label {@code L} replaced), whether it is indexed. */
    record Case(String name, String text, int perRequest, boolean indexed, boolean existing) {
        static Case of(String name) {
            return switch (name) {
                case "single" -> new Case(name, "CREATE (:L {uid: $uid})", 1, false, false);
                case "tx1000" -> new Case(name, "UNWIND $uids AS u CREATE (:L {uid: u})", BATCH, false, false);
                case "tx1000-indexed" -> new Case(name, "UNWIND $uids AS u CREATE (:L {uid: u})", BATCH, true, false);
                case "merge-new" -> new Case(name, "UNWIND $uids AS u MERGE (:L {uid: u})", BATCH, true, false);
                case "merge-existing" -> new Case(name, "UNWIND $uids AS u MERGE (:L {uid: u})", BATCH, true, true);
                default -> throw new IllegalArgumentException("unknown case " + name
                        + " (single, tx1000, tx1000-indexed, merge-new, merge-existing)");
            };
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            given.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        String url = given.getOrDefault("url", "bolt://127.0.0.1:7687");
        String name = given.getOrDefault("name", url);
        int clients = Integer.parseInt(given.getOrDefault("clients", "8"));
        double seconds = Double.parseDouble(given.getOrDefault("seconds", "10"));
        double warmup = Double.parseDouble(given.getOrDefault("warmup", "2"));
        List<String> cases = Arrays.asList(
                given.getOrDefault("cases", "single,tx1000,tx1000-indexed,merge-new,merge-existing").split(","));
        Config config = Config.builder()
                .withLogging(Logging.none())
                .withMaxConnectionPoolSize(clients + 1)
                .withConnectionAcquisitionTimeout(60, TimeUnit.SECONDS)
                .build();
        String user = given.getOrDefault("user", "neo4j");
        String password = given.getOrDefault("password", "neo4j-peer");
        try (Driver driver = GraphDatabase.driver(url, AuthTokens.basic(user, password), config)) {
            driver.verifyConnectivity();
            long run = System.currentTimeMillis() % 1_000_000;
            for (String c : cases) {
                Case kase = Case.of(c);
                String label = "W" + run + "_" + c.replace('-', '_');
                prepare(driver, kase, label);
                Map<String, Object> out = measure(driver, kase, label, clients, warmup, seconds);
                out.put("system", name);
                System.out.println(JSON.writeValueAsString(out));
                System.out.flush();
            }
        }
    }

    /** The case's index (awaited where the server builds it in the background) and preloaded keys. */
    static void prepare(Driver driver, Case kase, String label) {
        try (Session session = driver.session()) {
            if (kase.indexed()) {
                session.run("CREATE INDEX IF NOT EXISTS FOR (n:" + label + ") ON (n.uid)").consume();
                try {
                    session.run("CALL db.awaitIndexes(300)").consume();
                } catch (ClientException e) {
                    // kith builds an index as it declares it: nothing to wait for.
                }
            }
            if (kase.existing()) {
                for (int from = 0; from < PRELOADED; from += 10_000) {
                    List<Long> uids = new ArrayList<>();
                    for (long u = from; u < from + 10_000; u++) {
                        uids.add(u);
                    }
                    session.run("UNWIND $uids AS u CREATE (:" + label + " {uid: u})", Map.of("uids", uids)).consume();
                }
            }
        }
    }

    static Map<String, Object> measure(Driver driver, Case kase, String label, int clients, double warmup,
            double seconds) throws InterruptedException {
        String text = kase.text().replace(":L ", ":" + label + " ");
        AtomicLong nextUid = new AtomicLong(kase.existing() ? 0 : 1_000_000_000L);
        long[] window = new long[2];
        CountDownLatch ready = new CountDownLatch(clients);
        CountDownLatch go = new CountDownLatch(1);
        List<Is1Throughput.Samples> samples = new ArrayList<>();
        AtomicLong errors = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            Is1Throughput.Samples mine = new Is1Throughput.Samples();
            samples.add(mine);
            Thread t = new Thread(() -> {
                try (Session session = driver.session()) {
                    ready.countDown();
                    go.await();
                    for (long start = System.nanoTime(); start < window[1]; start = System.nanoTime()) {
                        try {
                            session.run(text, params(kase, nextUid)).consume();
                            if (start >= window[0]) {
                                mine.add(System.nanoTime() - start);
                            }
                        } catch (RuntimeException e) {
                            errors.incrementAndGet();
                            firstError.compareAndSet(null, e.toString());
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "writer-" + i);
            threads.add(t);
            t.start();
        }
        ready.await();
        window[0] = System.nanoTime() + (long) (warmup * 1e9);
        window[1] = window[0] + (long) (seconds * 1e9);
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        int total = samples.stream().mapToInt(s -> s.size).sum();
        long[] all = new long[total];
        int at = 0;
        for (Is1Throughput.Samples s : samples) {
            System.arraycopy(s.values, 0, all, at, s.size);
            at += s.size;
        }
        Arrays.sort(all);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("case", kase.name());
        out.put("text", kase.text());
        out.put("clients", clients);
        out.put("seconds", seconds);
        out.put("requests", total);
        out.put("requests_per_s", Is1Throughput.round(total / seconds));
        out.put(kase.existing() ? "keys_per_s" : "nodes_per_s", Is1Throughput.round(total * (double) kase.perRequest() / seconds));
        out.put("p50_us", Is1Throughput.round(Is1Throughput.percentile(all, 0.50) / 1e3));
        out.put("p99_us", Is1Throughput.round(Is1Throughput.percentile(all, 0.99) / 1e3));
        out.put("errors", errors.get());
        if (firstError.get() != null) {
            out.put("first_error", firstError.get());
        }
        try {
            out.put("client", "neo4j-java-driver " + Is1Throughput.driverVersion());
        } catch (java.io.IOException e) {
            out.put("client", "neo4j-java-driver");
        }
        return out;
    }

    private static Map<String, Object> params(Case kase, AtomicLong nextUid) {
        if (kase.perRequest() == 1) {
            return Map.of("uid", nextUid.getAndIncrement());
        }
        long first = nextUid.getAndAdd(kase.perRequest());
        List<Long> uids = new ArrayList<>(kase.perRequest());
        for (long u = first; u < first + kase.perRequest(); u++) {
            uids.add(kase.existing() ? u % PRELOADED : u);
        }
        return Map.of("uids", uids);
    }
}
