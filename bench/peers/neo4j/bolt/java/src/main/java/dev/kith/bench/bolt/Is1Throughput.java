package dev.kith.bench.bolt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Logging;
import org.neo4j.driver.Session;

/**
 * IS1 (the official LDBC text, unmodified) through Neo4j's Java driver over Bolt, the
 * LDBC reference set-up: T threads, each with its own session, each running IS1 with
 * the person ids of a parameter file in turn, for S seconds after a warm-up of W
 * seconds (same threads and sessions, not measured). For each thread count prints one
 * JSON line: queries/s and the median and 99th percentile latency of one query.
 *
 * <pre>
 * java -cp 'target/kith-bolt-is1.jar:target/lib/*' dev.kith.bench.bolt.Is1Throughput
 *     --url bolt://127.0.0.1:7687 --queries RUN/queries.json
 *     --text ../shared/data/ldbc-cypher/interactive-short-1.cypher
 *     [--name kith] [--threads 1,8,32,128] [--seconds 30] [--warmup 5]
 *     [--user neo4j] [--password neo4j-peer]
 * </pre>
 *
 * The parameter file is either {@code queries.json} as {@code kith bench ldbc --out RUN}
 * writes it (the {@code personId}s of its {@code ldbc.is1} entry, as
 * bench/peers/neo4j/bolt/is1.py reads it), or a CSV file with a header that has a
 * {@code personId} column, separated by {@code |} (LDBC's own parameter files) or commas.
 */
public final class Is1Throughput {
    private static final ObjectMapper JSON = new ObjectMapper();

    record Options(String url, String name, Path text, Path queries, List<Integer> threads, double seconds,
            double warmup, String user, String password) {}

    /** What one thread count measured. */
    record Measurement(int threads, long queries, long empty, long errors, String firstError, long[] latenciesNs) {}

    public static void main(String[] args) throws Exception {
        Options options = parse(args);
        String text = Files.readString(options.text());
        List<Long> ids = personIds(options.queries());
        int poolSize = Collections.max(options.threads());
        Config config = Config.builder()
                .withLogging(Logging.none())
                .withMaxConnectionPoolSize(poolSize)
                .withConnectionAcquisitionTimeout(60, TimeUnit.SECONDS)
                .build();
        try (Driver driver = GraphDatabase.driver(options.url(), AuthTokens.basic(options.user(), options.password()), config)) {
            driver.verifyConnectivity();
            for (int threads : options.threads()) {
                Measurement m = measure(driver, text, ids, threads, options.warmup(), options.seconds());
                System.out.println(JSON.writeValueAsString(report(options, m)));
                System.out.flush();
            }
        }
    }

    static Options parse(String[] args) {
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw usage("expected --name value pairs, got " + String.join(" ", args));
            }
            given.put(args[i].substring(2), args[i + 1]);
        }
        for (String required : List.of("url", "queries", "text")) {
            if (!given.containsKey(required)) {
                throw usage("--" + required + " is required");
            }
        }
        String url = given.remove("url");
        Options options = new Options(url, given.getOrDefault("name", url), Path.of(given.remove("text")),
                Path.of(given.remove("queries")),
                Arrays.stream(given.getOrDefault("threads", "1,8,32,128").split(",")).map(Integer::parseInt).toList(),
                Double.parseDouble(given.getOrDefault("seconds", "30")), Double.parseDouble(given.getOrDefault("warmup", "5")),
                given.getOrDefault("user", "neo4j"), given.getOrDefault("password", "neo4j-peer"));
        given.keySet().removeAll(List.of("name", "threads", "seconds", "warmup", "user", "password"));
        if (!given.isEmpty()) {
            throw usage("unknown options " + given.keySet());
        }
        return options;
    }

    private static IllegalArgumentException usage(String problem) {
        return new IllegalArgumentException(problem + "\nusage: Is1Throughput --url BOLT_URL --queries FILE --text IS1.cypher "
                + "[--name NAME] [--threads 1,8,32,128] [--seconds 30] [--warmup 5] [--user neo4j] [--password neo4j-peer]");
    }

    /** The IS1 person ids of a parameter file, in file order. */
    static List<Long> personIds(Path file) throws IOException {
        List<Long> ids = file.toString().endsWith(".json") ? idsFromQueriesJson(file) : idsFromCsv(file);
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("no IS1 person ids in " + file);
        }
        return ids;
    }

    private static List<Long> idsFromQueriesJson(Path file) throws IOException {
        for (JsonNode query : JSON.readTree(file.toFile())) {
            if (query.path("procedure").asText().equals("ldbc.is1")) {
                List<Long> ids = new ArrayList<>();
                query.path("params").forEach(p -> ids.add(p.get("personId").asLong()));
                return ids;
            }
        }
        throw new IllegalArgumentException("no ldbc.is1 parameters in " + file);
    }

    private static List<Long> idsFromCsv(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file).stream().filter(l -> !l.isBlank()).toList();
        String separator = lines.get(0).contains("|") ? "\\|" : ",";
        int column = Arrays.asList(lines.get(0).split(separator)).indexOf("personId");
        if (column < 0) {
            throw new IllegalArgumentException(file + ": no personId column in the header " + lines.get(0));
        }
        return lines.subList(1, lines.size()).stream().map(l -> Long.parseLong(l.split(separator)[column].trim())).toList();
    }

    /** Runs {@code threads} sessions for warm-up + seconds; keeps what started after the warm-up. */
    static Measurement measure(Driver driver, String text, List<Long> ids, int threads, double warmup, double seconds)
            throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        long[] window = new long[2];
        Worker[] workers = new Worker[threads];
        Thread[] running = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            workers[i] = new Worker(driver, text, ids, i, ready, go, window);
            running[i] = new Thread(workers[i], "is1-" + i);
            running[i].start();
        }
        ready.await();
        window[0] = System.nanoTime() + (long) (warmup * 1e9);
        window[1] = window[0] + (long) (seconds * 1e9);
        go.countDown();
        for (Thread t : running) {
            t.join();
        }
        return merge(threads, workers);
    }

    private static Measurement merge(int threads, Worker[] workers) {
        long queries = 0;
        long empty = 0;
        long errors = 0;
        String firstError = null;
        for (Worker w : workers) {
            queries += w.latencies.size;
            empty += w.empty;
            errors += w.errors;
            if (firstError == null && w.firstError.get() != null) {
                firstError = w.firstError.get();
            }
        }
        long[] all = new long[(int) queries];
        int at = 0;
        for (Worker w : workers) {
            System.arraycopy(w.latencies.values, 0, all, at, w.latencies.size);
            at += w.latencies.size;
        }
        Arrays.sort(all);
        return new Measurement(threads, queries, empty, errors, firstError, all);
    }

    /** One thread: its own session, the ids in turn from its own offset (as is1.py does). */
    static final class Worker implements Runnable {
        private final Driver driver;
        private final String text;
        private final List<Long> ids;
        private final int index;
        private final CountDownLatch ready;
        private final CountDownLatch go;
        private final long[] window;
        final Samples latencies = new Samples();
        final AtomicReference<String> firstError = new AtomicReference<>();
        long empty;
        long errors;

        Worker(Driver driver, String text, List<Long> ids, int index, CountDownLatch ready, CountDownLatch go, long[] window) {
            this.driver = driver;
            this.text = text;
            this.ids = ids;
            this.index = index;
            this.ready = ready;
            this.go = go;
            this.window = window;
        }

        @Override
        public void run() {
            try (Session session = driver.session()) {
                ready.countDown();
                go.await();
                loop(session);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                errors++;
                firstError.compareAndSet(null, e.toString());
            }
        }

        private void loop(Session session) {
            long measureFrom = window[0];
            long end = window[1];
            int next = index % ids.size();
            for (long start = System.nanoTime(); start < end; start = System.nanoTime()) {
                Map<String, Object> params = Map.of("personId", ids.get(next));
                next = (next + 1) % ids.size();
                try {
                    int rows = session.run(text, params).list().size();
                    long took = System.nanoTime() - start;
                    if (start >= measureFrom) {
                        latencies.add(took);
                        empty += rows == 0 ? 1 : 0;
                    }
                } catch (RuntimeException e) {
                    errors++;
                    firstError.compareAndSet(null, e.toString());
                }
            }
        }
    }

    /** A growable array of longs (no boxing on the measured path). */
    static final class Samples {
        long[] values = new long[1 << 16];
        int size;

        void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }
    }

    static Map<String, Object> report(Options options, Measurement m) throws IOException {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("system", options.name());
        out.put("url", options.url());
        out.put("client", "neo4j-java-driver " + driverVersion());
        out.put("query", options.text().getFileName().toString());
        out.put("threads", m.threads());
        out.put("warmup_s", options.warmup());
        out.put("seconds", options.seconds());
        out.put("queries", m.queries());
        out.put("queries_per_s", round(m.queries() / options.seconds()));
        out.put("p50_us", round(percentile(m.latenciesNs(), 0.50) / 1e3));
        out.put("p99_us", round(percentile(m.latenciesNs(), 0.99) / 1e3));
        out.put("empty_answers", m.empty());
        out.put("errors", m.errors());
        if (m.firstError() != null) {
            out.put("first_error", m.firstError());
        }
        return out;
    }

    static double percentile(long[] sorted, double q) {
        return sorted.length == 0 ? Double.NaN : sorted[Math.min(sorted.length - 1, (int) (sorted.length * q))];
    }

    static double round(double value) {
        return Double.isNaN(value) ? value : Math.round(value * 10) / 10.0;
    }

    static String driverVersion() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Is1Throughput.class.getResourceAsStream("/driver.properties")) {
            properties.load(in);
        }
        return properties.getProperty("driver.version");
    }
}
