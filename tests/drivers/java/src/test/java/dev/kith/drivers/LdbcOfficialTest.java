package dev.kith.drivers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Result;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;
import org.neo4j.driver.exceptions.Neo4jException;

/**
 * The official LDBC SNB Interactive read texts, unmodified, sent by Neo4j's Java driver
 * to kith over Bolt: every answer must equal Neo4j 5.26's own (the fixtures the Rust
 * suite also checks the engine against), through {@code bolt://} sessions and through
 * {@code neo4j://} routing with the driver line's query-at-once API. Mirrors
 * tests/drivers/python/test_ldbc_official.py.
 */
class LdbcOfficialTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;

    static KithServer server;

    @BeforeAll
    static void start() throws Exception {
        Path data = tmp.resolve("data");
        KithServer.loadLdbc(data);
        server = KithServer.start(data, tmp);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"test", "test-probes"})
    void sessionsOverBoltAnswerAsNeo4j(String dataset) throws IOException {
        try (Driver driver = KithServer.driver(server.bolt(), KithServer.ANY_AUTH);
                Session session = driver.session()) {
            check((text, params) -> {
                Result result = session.run(text, params);
                return new Answer(result.keys(), result.list(), result.consume());
            }, dataset);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"test", "test-probes"})
    void queriesAtOnceWithRoutingAnswerAsNeo4j(String dataset) throws IOException {
        try (Driver driver = KithServer.driver(server.neo4j(), KithServer.ANY_AUTH)) {
            check((text, params) -> DriverApi.readQuery(driver, text, params), dataset);
        }
    }

    interface Runner {
        Answer run(String text, Map<String, Object> params);
    }

    record Fixture(String name, String text, List<String> columns, List<String> sortedLists, List<Map<String, Object>> cases) {}

    static List<Fixture> fixtures(String dataset) throws IOException {
        List<Fixture> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(KithServer.FIXTURES.resolve(dataset))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                Map<String, Object> f = JSON.readValue(file.toFile(), new TypeReference<>() {});
                String text = Files.readString(KithServer.SHARED.resolve("ldbc-cypher").resolve((String) f.get("text")));
                String name = file.getFileName().toString().replace(".json", "");
                out.add(new Fixture(name, text, cast(f.get("columns")), cast(f.get("sorted_lists")), cast(f.get("cases"))));
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object value) {
        return (T) value;
    }

    /** Runs every case of {@code dataset}; fails listing the ones that differ from Neo4j. */
    static void check(Runner runner, String dataset) throws IOException {
        List<String> failures = new ArrayList<>();
        int count = 0;
        for (Fixture fixture : fixtures(dataset)) {
            for (Map<String, Object> c : fixture.cases()) {
                count++;
                String failure = checkCase(runner, fixture, c);
                if (failure != null) {
                    failures.add(failure);
                }
            }
        }
        assertTrue(count > 0, "no cases in " + dataset);
        assertEquals(List.of(), failures, failures.size() + " of " + count + " cases differ:\n"
                + String.join("\n", failures.subList(0, Math.min(20, failures.size()))));
    }

    private static String checkCase(Runner runner, Fixture fixture, Map<String, Object> c) throws JsonProcessingException {
        Map<String, Object> params = cast(c.get("params"));
        String where = fixture.name() + " " + params;
        if (c.containsKey("error")) {
            String code = ((String) c.get("error")).split(":")[0];
            try {
                runner.run(fixture.text(), params);
                return where + ": Neo4j raised " + code + ", kith answered";
            } catch (Neo4jException e) {
                return code.equals(e.code()) ? null : where + ": Neo4j raised " + code + ", kith " + e.code() + " (" + e.getMessage() + ")";
            }
        }
        Answer answer = runner.run(fixture.text(), params);
        if (!answer.keys().equals(fixture.columns())) {
            return fixture.name() + ": columns " + answer.keys() + ", Neo4j " + fixture.columns();
        }
        List<List<Object>> ours = normalise(answer.records().stream().map(LdbcOfficialTest::row).toList(), fixture);
        List<List<Object>> theirs = normalise(LdbcOfficialTest.<List<List<Object>>>cast(c.get("rows")), fixture);
        if (ours.equals(theirs)) {
            return null;
        }
        return where + ": " + ours.size() + " rows, Neo4j " + theirs.size() + "; first rows kith "
                + (ours.isEmpty() ? "none" : JSON.writeValueAsString(ours.get(0))) + ", Neo4j "
                + (theirs.isEmpty() ? "none" : JSON.writeValueAsString(theirs.get(0)));
    }

    private static List<Object> row(Record record) {
        return record.values().stream().map(Value::asObject).toList();
    }

    /**
     * Both sides in one form: JSON's numbers as Long/Double, maps with sorted keys; lists
     * in {@code sorted_lists} columns sorted (their order is undefined), and IC14's paths by
     * weight, then as JSON (paths of equal weight come in no defined order, Neo4j's own vary).
     */
    static List<List<Object>> normalise(List<List<Object>> rows, Fixture fixture) throws JsonProcessingException {
        List<Integer> sortedColumns = fixture.sortedLists().stream().map(fixture.columns()::indexOf).toList();
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> cells = new ArrayList<>();
            for (int i = 0; i < row.size(); i++) {
                Object cell = canonical(row.get(i));
                if (sortedColumns.contains(i) && cell instanceof List<?> list) {
                    cell = list.stream().sorted(Comparator.comparing(LdbcOfficialTest::json)).toList();
                }
                cells.add(cell);
            }
            out.add(cells);
        }
        if (fixture.name().equals("ic14")) {
            out.sort(Comparator.<List<Object>>comparingDouble(r -> -((Number) r.get(1)).doubleValue())
                    .thenComparing(LdbcOfficialTest::json));
        }
        return out;
    }

    private static Object canonical(Object value) {
        if (value instanceof Integer i) {
            return i.longValue();
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            list.forEach(v -> out.add(canonical(v)));
            return out;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new TreeMap<>();
            map.forEach((k, v) -> out.put((String) k, canonical(v)));
            return out;
        }
        return value;
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
