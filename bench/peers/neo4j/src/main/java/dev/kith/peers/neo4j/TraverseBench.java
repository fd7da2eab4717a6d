package dev.kith.peers.neo4j;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.Direction;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.graphdb.Label;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.PathExpander;
import org.neo4j.graphdb.RelationshipType;
import org.neo4j.graphdb.ResourceIterable;
import org.neo4j.graphdb.Relationship;
import org.neo4j.graphdb.Transaction;
import org.neo4j.graphdb.traversal.BranchState;
import org.neo4j.graphdb.traversal.TraversalDescription;
import org.neo4j.graphdb.traversal.Uniqueness;

/**
 * S2's traversal on Neo4j 5.26, embedded: the tree of {@code kith generate tree}, loaded
 * with {@code shindig/load.sh} (export, bulk import, a uniqueness constraint on {@code id}),
 * counting the B nodes whose flag is true from the root, through the traversal framework
 * (depth and breadth first, uniqueness NONE and NODE_GLOBAL, an expander choosing
 * HAS_B or HAS_A by the node's label) and through Cypher, sequentially: warm-up, then
 * measured runs; median and p99 milliseconds and the bytes the thread allocated, per
 * traversal. The table has the columns of {@code kith bench traverse}.
 */
public final class TraverseBench {
    private static final Label A = Label.label("A");
    private static final Label B = Label.label("B");
    private static final RelationshipType HAS_A = RelationshipType.withName("HAS_A");
    private static final RelationshipType HAS_B = RelationshipType.withName("HAS_B");
    static final String CYPHER =
            "MATCH (:A {id: 0})-[:HAS_B|HAS_A*]->(b:B) WHERE b.flag = true RETURN count(b) AS count";

    private TraverseBench() {}

    /** HAS_B below an A, HAS_A below a B: S2's label-driven expander. */
    private static final PathExpander<Object> BY_LABEL = new PathExpander<>() {
        @Override
        public ResourceIterable<Relationship> expand(org.neo4j.graphdb.Path path, BranchState<Object> state) {
            Node end = path.endNode();
            return end.getRelationships(Direction.OUTGOING, end.hasLabel(A) ? HAS_B : HAS_A);
        }

        @Override
        public PathExpander<Object> reverse() {
            throw new UnsupportedOperationException("S2's traversal only goes down");
        }
    };

    public static void main(String[] args) throws Exception {
        Path home = null;
        int runs = 100;
        int warmup = 100;
        boolean cypher = true;
        long pagecacheMb = 1024;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--home" -> home = Path.of(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--pagecache-mb" -> pagecacheMb = Long.parseLong(args[++i]);
                case "--no-cypher" -> cypher = false;
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
            }
        }
        if (home == null) {
            throw new IllegalArgumentException("--home NEO4J_HOME is required (loaded with shindig/load.sh)");
        }
        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, false)
                .setConfig(HttpConnector.enabled, false)
                .setConfig(HttpsConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.pagecache_memory, org.neo4j.io.ByteUnit.mebiBytes(pagecacheMb))
                .build();
        try {
            GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
            List<Case> cases = new ArrayList<>();
            for (boolean depthFirst : new boolean[] {true, false}) {
                for (Uniqueness u : new Uniqueness[] {Uniqueness.NONE, Uniqueness.NODE_GLOBAL}) {
                    String name = "traversal-" + (depthFirst ? "dfs" : "bfs") + "-"
                            + (u == Uniqueness.NONE ? "none" : "node_global");
                    cases.add(measure(name, runs, warmup, () -> traverse(db, depthFirst, u)));
                }
            }
            if (cypher) {
                cases.add(measure("cypher", runs, warmup, () -> viaCypher(db)));
            }
            System.out.println("| case | count | median ms | p99 ms | bytes allocated | allocations |");
            System.out.println("|---|---:|---:|---:|---:|---:|");
            for (Case c : cases) {
                System.out.println(c.row());
            }
        } finally {
            dbms.shutdown();
        }
    }

    private static long traverse(GraphDatabaseService db, boolean depthFirst, Uniqueness uniqueness) {
        try (Transaction tx = db.beginTx()) {
            Node root = tx.findNode(A, "id", 0L);
            TraversalDescription td = tx.traversalDescription().expand(BY_LABEL).uniqueness(uniqueness);
            td = depthFirst ? td.depthFirst() : td.breadthFirst();
            long count = 0;
            for (Node n : td.traverse(root).nodes()) {
                if (n.hasLabel(B) && Boolean.TRUE.equals(n.getProperty("flag", null))) {
                    count++;
                }
            }
            tx.commit();
            return count;
        }
    }

    private static long viaCypher(GraphDatabaseService db) {
        try (Transaction tx = db.beginTx()) {
            long count = (Long) tx.execute(CYPHER).next().get("count");
            tx.commit();
            return count;
        }
    }

    private static Case measure(String name, int runs, int warmup, Supplier<Long> run) {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long count = run.get();
        for (int i = 1; i < warmup; i++) {
            run.get();
        }
        double[] millis = new double[runs];
        double[] bytes = new double[runs];
        for (int i = 0; i < runs; i++) {
            long allocated = threads.getCurrentThreadAllocatedBytes();
            long started = System.nanoTime();
            long got = run.get();
            millis[i] = (System.nanoTime() - started) / 1e6;
            bytes[i] = threads.getCurrentThreadAllocatedBytes() - allocated;
            if (got != count) {
                throw new IllegalStateException(name + ": the count changed from " + count + " to " + got);
            }
        }
        System.err.println(name + ": done");
        return new Case(name, count, millis, bytes);
    }

    private record Case(String name, long count, double[] millis, double[] bytes) {
        String row() {
            double[] ms = millis.clone();
            double[] b = bytes.clone();
            Arrays.sort(ms);
            Arrays.sort(b);
            // The JVM counts bytes, not allocations: that column stays empty.
            return String.format("| %s | %d | %.2f | %.2f | %.0f | - |",
                    name, count, quantile(ms, 0.5), quantile(ms, 0.99), quantile(b, 0.5));
        }
    }

    private static double quantile(double[] sorted, double q) {
        return sorted[(int) Math.round((sorted.length - 1) * q)];
    }
}
