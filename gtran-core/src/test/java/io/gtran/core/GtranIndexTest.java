package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.core.index.Indexes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.tinkerpop.gremlin.process.traversal.P;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.TransactionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Property and label indexes: a query answered from an index returns exactly what the same query
 * returns on an identical graph without indexes, in every snapshot, with the transaction's own
 * writes, and at SR with phantoms caught.
 */
class GtranIndexTest {
    private static final String[] LABELS = {"a", "b", "c"};
    private static final String[] STRINGS = {"", "a", "ab", "b", "ba", "bb", "c", "A"};
    private final TestGraphs opened = new TestGraphs();

    @AfterEach
    void cleanUp() {
        opened.close();
    }

    private GtranGraph open(String isolation, String... settings) {
        return opened.open(isolation, settings);
    }

    private <V> V inThread(java.util.concurrent.Callable<V> task) throws Exception {
        return opened.inThread(task);
    }

    static Object randomValue(Random r) {
        int n = r.nextInt(11) - 5;
        switch (r.nextInt(7)) {
            case 0: return n;
            case 1: return (long) n;
            case 2: return (double) n;              // integral double: 2.0 eq 2
            case 3: return n + 0.5;
            case 4: return (float) n;
            case 5: return (short) n;
            default: return STRINGS[r.nextInt(STRINGS.length)];
        }
    }

    /** A bound for a random predicate: as {@link #randomValue}, but never "" (see {@link #extremeBounds}). */
    static Object randomBound(Random r) {
        Object v = randomValue(r);
        return "".equals(v) ? "b" : v;
    }

    /** A predicate kept as data so each graph gets its own P instance. */
    record Pred(String name, Object a, Object b, List<Object> list) {
        @SuppressWarnings({"unchecked", "rawtypes"})
        P<Object> make() {
            switch (name) {
                case "eq": return P.eq(a);
                case "neq": return P.neq(a);
                case "gt": return P.gt(a);
                case "gte": return P.gte(a);
                case "lt": return P.lt(a);
                case "lte": return P.lte(a);
                case "between": return P.between(a, b);
                case "inside": return P.inside(a, b);
                case "outside": return P.outside(a, b);
                case "within": return (P) P.within(list);
                default: return (P) P.without(list);
            }
        }

        @Override
        public String toString() {
            return name + "(" + (list != null ? list : b != null ? a + "," + b : a) + ")";
        }
    }

    static Pred randomPredicate(Random r) {
        String[] names = {"eq", "eq", "within", "gt", "gte", "lt", "lte", "between", "inside", "neq", "outside", "without"};
        String name = names[r.nextInt(names.length)];
        if (name.equals("within") || name.equals("without")) {
            List<Object> list = new ArrayList<>();
            for (int i = r.nextInt(4); i >= 0; i--) {
                list.add(randomBound(r));
            }
            return new Pred(name, null, null, list);
        }
        Object a = randomBound(r);
        Object b = a instanceof String ? STRINGS[1 + r.nextInt(STRINGS.length - 1)] : (Object) (((Number) a).doubleValue() + r.nextInt(6));
        return new Pred(name, a, b, null);
    }

    /** A vertex or edge query over key {@code key}, with a description. */
    record Query(String description, Function<GraphTraversalSource, Traversal<?, ? extends Element>> run) {
    }

    static Query randomQuery(Random r, String key, boolean edges) {
        Pred p = randomPredicate(r);
        Pred p2 = randomPredicate(r);
        String l = LABELS[r.nextInt(LABELS.length)];
        String l2 = LABELS[r.nextInt(LABELS.length)];
        String start = edges ? "E()" : "V()";
        Function<GraphTraversalSource, org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversal<?, ? extends Element>> s =
                edges ? GraphTraversalSource::E : GraphTraversalSource::V;
        switch (r.nextInt(7)) {
            case 0: return new Query(start + ".hasLabel(" + l + ").has(" + key + "," + p + ")", g -> s.apply(g).hasLabel(l).has(key, p.make()));
            case 1: return new Query(start + ".has(" + key + "," + p + ").hasLabel(" + l + ")", g -> s.apply(g).has(key, p.make()).hasLabel(l));
            case 2: return new Query(start + ".has(" + key + "," + p + ").has(" + key + "," + p2 + ")",
                    g -> s.apply(g).has(key, p.make()).has(key, p2.make()));
            case 3: return new Query(start + ".hasLabel(" + l + "," + l2 + ")", g -> s.apply(g).hasLabel(l, l2));
            default: return new Query(start + ".has(" + key + "," + p + ")", g -> s.apply(g).has(key, p.make()));
        }
    }

    static Set<Object> ids(GraphTraversalSource g, Query q) {
        return q.run().apply(g).toStream().map(Element::id).collect(Collectors.toSet());
    }

    /** Runs queries on both graphs, in their current transactions, and compares. */
    static void compare(Random r, GtranGraph indexed, GtranGraph plain, String key, boolean edges, int count, String where) {
        Traversal.Admin<?, ?> probe = (edges ? indexed.traversal().E() : indexed.traversal().V()).has(key, 1).asAdmin();
        probe.toList();
        assertTrue(!indexed.indexes().indexed(edges ? Edge.class : Vertex.class).containsKey(key) || probe.getStartStep().toString().contains("index=" + key), where + ": the index is not used: " + probe);
        int nonEmpty = 0;
        for (int i = 0; i < count; i++) {
            Query q = randomQuery(r, key, edges);
            Set<Object> expected = ids(plain.traversal(), q);
            Set<Object> actual;
            try {
                actual = ids(indexed.traversal(), q);
            } catch (RuntimeException e) {
                throw new AssertionError(where + ": " + q.description() + " failed with an index: " + e, e);
            }
            assertEquals(expected, actual, where + ": " + q.description());
            nonEmpty += expected.isEmpty() ? 0 : 1;
        }
        assertTrue(nonEmpty > 0, where + ": every query came back empty; the comparison proves nothing");
    }

    /** Vertex ops, replayed identically on each graph (a fresh Random from the same seed per graph). */
    static void mutateVertices(Graph graph, long seed, List<String> live, int[] next, int ops) {
        Random r = new Random(seed);
        for (int i = 0; i < ops; i++) {
            int op = live.isEmpty() ? 0 : r.nextInt(9);
            Vertex v = live.isEmpty() ? null : graph.vertices(live.get(r.nextInt(live.size()))).next();
            switch (op) {
                case 0, 1 -> {
                    String id = "v" + next[0]++;
                    if (r.nextInt(5) == 0) {
                        graph.addVertex(T.id, id, T.label, LABELS[r.nextInt(3)]);
                    } else {
                        graph.addVertex(T.id, id, T.label, LABELS[r.nextInt(3)], "k", randomValue(r));
                    }
                    live.add(id);
                }
                case 2, 3 -> v.property("k", randomValue(r));
                case 4 -> { // away and back again
                    java.util.Iterator<Object> values = v.values("k");
                    Object old = values.hasNext() ? values.next() : randomValue(r);
                    v.property(VertexProperty.Cardinality.single, "k", randomValue(r));
                    v.property(VertexProperty.Cardinality.single, "k", old);
                }
                case 5 -> v.properties("k").forEachRemaining(VertexProperty::remove);
                case 6 -> v.property(VertexProperty.Cardinality.list, "k", randomValue(r));
                case 7 -> {
                    List<VertexProperty<Object>> ps = new ArrayList<>();
                    v.<Object>properties("k").forEachRemaining(ps::add);
                    if (!ps.isEmpty()) {
                        ps.get(r.nextInt(ps.size())).remove();
                    }
                }
                default -> {
                    live.remove(v.id());
                    v.remove();
                }
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"HASH,config,SERIALIZABLE", "ORDERED,config,SERIALIZABLE", "HASH,runtime,SERIALIZABLE",
            "ORDERED,runtime,SERIALIZABLE", "ORDERED,config,SNAPSHOT", "HASH,runtime,SNAPSHOT", "ORDERED,early,SERIALIZABLE"})
    @Timeout(300)
    void vertexIndexAnswersExactlyAsAScan(Indexes.Type type, String how, String isolation) {
        for (int seed = 0; seed < 12; seed++) {
            String configKey = type == Indexes.Type.HASH ? GtranGraph.VERTEX_HASH_INDEX : GtranGraph.VERTEX_ORDERED_INDEX;
            GtranGraph indexed = how.equals("config") ? open(isolation, configKey, "k") : open(isolation);
            GtranGraph plain = open(isolation);
            try {
                if (how.equals("early")) {
                    indexed.indexes().create(Vertex.class, "k", type);
                }
                Random queries = new Random(1000 + seed);
                Map<GtranGraph, List<String>> live = new HashMap<>();
                Map<GtranGraph, int[]> next = new HashMap<>();
                for (GtranGraph g : List.of(indexed, plain)) {
                    live.put(g, new ArrayList<>());
                    next.put(g, new int[1]);
                }
                long base = seed * 7919L;
                for (GtranGraph g : List.of(indexed, plain)) { // committed graph
                    mutateVertices(g, base + 1, live.get(g), next.get(g), 60);
                    g.tx().commit();
                }
                if (how.equals("runtime")) {
                    indexed.indexes().create(Vertex.class, "k", type);
                    assertEquals(Map.of("k", type.toString()), indexed.indexes().indexed(Vertex.class));
                }
                String where = "seed " + seed + " " + type + "/" + how + "/" + isolation;
                compare(queries, indexed, plain, "k", false, 25, where + " committed");
                for (GtranGraph g : List.of(indexed, plain)) { // uncommitted changes in the open transaction
                    mutateVertices(g, base + 2, live.get(g), next.get(g), 40);
                }
                compare(queries, indexed, plain, "k", false, 25, where + " own writes");
                for (GtranGraph g : List.of(indexed, plain)) {
                    g.tx().commit();
                }
                compare(queries, indexed, plain, "k", false, 15, where + " after commit");
                for (GtranGraph g : List.of(indexed, plain)) {
                    g.tx().commit();
                    List<String> copy = new ArrayList<>(live.get(g));
                    mutateVertices(g, base + 3, copy, next.get(g).clone(), 30);
                    g.tx().rollback();
                }
                compare(queries, indexed, plain, "k", false, 15, where + " after rollback");
            } finally {
                indexed.close();
                plain.close();
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"HASH,config", "ORDERED,config", "ORDERED,runtime"})
    @Timeout(300)
    void edgeIndexAnswersExactlyAsAScan(Indexes.Type type, String how) {
        for (int seed = 0; seed < 8; seed++) {
            String configKey = type == Indexes.Type.HASH ? GtranGraph.EDGE_HASH_INDEX : GtranGraph.EDGE_ORDERED_INDEX;
            GtranGraph indexed = how.equals("config") ? open("SERIALIZABLE", configKey, "w") : open("SERIALIZABLE");
            GtranGraph plain = open("SERIALIZABLE");
            try {
                Random queries = new Random(500 + seed);
                for (int phase = 0; phase < 3; phase++) {
                    for (GtranGraph g : List.of(indexed, plain)) {
                        Random r = new Random(seed * 31L + phase);
                        if (phase == 0) {
                            for (int i = 0; i < 12; i++) {
                                g.addVertex(T.id, (long) i);
                            }
                        }
                        for (int i = 0; i < 40; i++) {
                            List<Vertex> vs = g.traversal().V().toList();
                            vs.sort(java.util.Comparator.comparing(x -> (Long) x.id()));
                            if (vs.size() < 3) {
                                break;
                            }
                            List<Edge> es = g.traversal().E().toList();
                            es.sort(java.util.Comparator.comparing(e -> String.valueOf(e.id())));
                            int op = es.isEmpty() || phase == 0 ? 0 : r.nextInt(6);
                            Edge e = es.isEmpty() ? null : es.get(r.nextInt(es.size()));
                            switch (op) {
                                case 0 -> vs.get(r.nextInt(vs.size())).addEdge(LABELS[r.nextInt(3)],
                                        vs.get(r.nextInt(vs.size())), T.id, "e" + phase + "-" + i, "w", randomValue(r));
                                case 1, 2 -> e.property("w", randomValue(r));
                                case 3 -> e.property("w").remove();
                                case 4 -> e.remove();
                                default -> {
                                    if (r.nextInt(3) == 0) {
                                        vs.get(r.nextInt(vs.size())).remove();
                                    }
                                }
                            }
                        }
                    }
                    compare(queries, indexed, plain, "w", true, 20, "seed " + seed + " phase " + phase + " own writes");
                    assertEquals(how.equals("runtime") && phase == 0 ? Map.of() : Map.of("w", type.toString()), indexed.indexes().indexed(Edge.class));
                    indexed.tx().commit();
                    plain.tx().commit();
                    if (phase == 0 && how.equals("runtime")) {
                        indexed.indexes().create(Edge.class, "w", type);
                    }
                    compare(queries, indexed, plain, "w", true, 20, "seed " + seed + " phase " + phase + " committed");
                }
            } finally {
                indexed.close();
                plain.close();
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"HASH", "ORDERED"})
    @Timeout(60)
    void extremeBounds(Indexes.Type type) {
        String configKey = type == Indexes.Type.HASH ? GtranGraph.VERTEX_HASH_INDEX : GtranGraph.VERTEX_ORDERED_INDEX;
        GtranGraph indexed = open("SERIALIZABLE", configKey, "k");
        GtranGraph plain = open("SERIALIZABLE");
        List<Object> values = List.of("", "a", Long.MAX_VALUE, Long.MIN_VALUE, 0x1p63, -0x1p63, Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY, Double.NaN, -0.0, 0, 1e300, (1L << 53) + 1, 0x1p53);
        for (GtranGraph g : List.of(indexed, plain)) {
            for (int i = 0; i < values.size(); i++) {
                g.addVertex(T.id, "x" + i, "k", values.get(i));
            }
            g.tx().commit();
        }
        List<Executable> checks = new ArrayList<>();
        for (String name : List.of("eq", "lt", "lte", "gt", "gte")) {
            for (Object bound : values) {
                Pred p = new Pred(name, bound, null, null);
                checks.add(() -> {
                    Query q = new Query("V().has(k," + p + ")", g -> g.V().has("k", p.make()));
                    Set<Object> expected = ids(plain.traversal(), q);
                    Set<Object> actual;
                    try {
                        actual = ids(indexed.traversal(), q);
                    } catch (RuntimeException e) {
                        throw new AssertionError(q.description() + " threw with an index, a scan gives " + expected + ": " + e, e);
                    }
                    assertEquals(expected, actual, q.description());
                });
            }
        }
        assertAll(checks);
    }

    @Test
    @Timeout(60)
    void profileAndExplainNameTheAccessPath() {
        GtranGraph graph = open("SERIALIZABLE", GtranGraph.VERTEX_HASH_INDEX, "name", GtranGraph.VERTEX_ORDERED_INDEX, "age");
        graph.addVertex(T.label, "person", "name", "marko", "age", 29);
        graph.addVertex(T.label, "person", "name", "vadas", "age", 27);
        graph.tx().commit();
        GraphTraversalSource g = graph.traversal();
        Traversal.Admin<?, ?> ran = g.V().has("name", "marko").asAdmin();
        ran.toList();
        String afterRun = ran.getStartStep().toString(); // the step itself knows its path once it ran
        String profile = g.V().has("name", "marko").profile().next().toString();
        String range = g.V().has("age", P.gt(28)).profile().next().toString();
        String label = g.V().hasLabel("person").profile().next().toString();
        String scan = g.V().has("other", 1).profile().next().toString();
        String explain = g.V().has("name", "marko").explain().prettyPrint();
        String explainLabel = g.V().hasLabel("person").explain().prettyPrint();
        assertAll(
                () -> assertTrue(afterRun.contains("index=name"), afterRun),
                () -> assertTrue(profile.contains("index=") && profile.contains("name"), "profile: " + profile),
                () -> assertTrue(range.contains("index=") && range.contains("age"), "profile: " + range),
                () -> assertTrue(label.contains("index=label"), "profile: " + label),
                () -> assertFalse(scan.contains("index="), "profile: " + scan),
                () -> assertTrue(explain.contains("index=") && explain.contains("name"), "explain: " + explain),
                () -> assertTrue(explainLabel.contains("index=label"), "explain: " + explainLabel));
        assertEquals(1L, g.V().has("name", "marko").count().next());
    }

    @ParameterizedTest
    @CsvSource({"SERIALIZABLE,HASH", "SERIALIZABLE,ORDERED", "SNAPSHOT,HASH", "SNAPSHOT,ORDERED"})
    @Timeout(60)
    void aSnapshotDoesNotSeeValuesCommittedAfterItBegan(String isolation, Indexes.Type type) throws Exception {
        GtranGraph graph = open(isolation);
        graph.indexes().create(Vertex.class, "k", type);
        graph.addVertex(T.id, "old", "k", 3);
        graph.tx().commit();
        assertEquals(Set.of("old"), ids(graph.traversal(), new Query("", g -> g.V().has("k", 3)))); // snapshot begins
        inThread(() -> {
            graph.addVertex(T.id, "new", "k", 7);
            graph.vertices("old").next().property("k", 8);
            graph.tx().commit();
            return null;
        });
        GraphTraversalSource g = graph.traversal();
        assertEquals(Set.of(), g.V().has("k", 7).id().toSet());
        assertEquals(Set.of(), g.V().has("k", P.within(7, 8)).id().toSet());
        assertEquals(Set.of("old"), g.V().has("k", 3).id().toSet());
        assertEquals(Set.of("old"), g.V().has("k", P.gt(2)).id().toSet());
        graph.tx().rollback();
        assertEquals(Set.of("new", "old"), g.V().has("k", P.gt(2)).id().toSet());
    }

    @ParameterizedTest
    @CsvSource({"HASH,eq,add", "HASH,within,add", "HASH,eq,update", "HASH,eq,remove", "ORDERED,gt,add",
            "ORDERED,gt,update", "ORDERED,between,remove", "ORDERED,eq,update", "HASH,label,add"})
    @Timeout(60)
    void serializableReaderAbortsOnAPhantom(Indexes.Type type, String predicate, String change) throws Exception {
        for (String isolation : List.of("SERIALIZABLE", "SNAPSHOT")) {
            GtranGraph graph = open(isolation, type == Indexes.Type.HASH ? GtranGraph.VERTEX_HASH_INDEX : GtranGraph.VERTEX_ORDERED_INDEX, "k");
            graph.addVertex(T.id, "one", T.label, "thing", "k", 1);
            graph.addVertex(T.id, "three", T.label, "thing", "k", 3);
            graph.addVertex(T.id, "seven", T.label, "thing", "k", 7);
            graph.tx().commit();
            GraphTraversalSource g = graph.traversal();
            boolean remove = change.equals("remove"); // the look-up covers 7 (removed) or 9 (added, updated to)
            int target = remove ? 7 : 9;
            long before = switch (predicate) { // the reader's look-up
                case "eq" -> g.V().has("k", target).count().next();
                case "within" -> g.V().has("k", P.within(target, 10)).count().next();
                case "gt" -> g.V().has("k", P.gt(target - 1)).count().next();
                case "between" -> g.V().has("k", P.between(target - 2, target + 1)).count().next();
                default -> g.V().hasLabel(remove ? "thing" : "person").count().next();
            };
            assertEquals(remove ? (predicate.equals("label") ? 3L : 1L) : 0L, before);
            inThread(() -> { // a concurrent commit that changes the look-up's answer
                switch (change) {
                    case "add" -> graph.addVertex(T.id, "nine", T.label, "person", "k", 9);
                    case "update" -> graph.vertices("three").next().property("k", 9);
                    default -> graph.vertices("seven").next().remove();
                }
                graph.tx().commit();
                return null;
            });
            graph.addVertex(T.id, "unrelated", T.label, "log"); // the reader writes something
            if (isolation.equals("SERIALIZABLE")) {
                TransactionException e = org.junit.jupiter.api.Assertions.assertThrows(TransactionException.class,
                        () -> graph.tx().commit(), "phantom " + change + " under " + predicate + " must abort the SR reader");
                assertNotNull(assertInstanceOf(TransactionAbortedException.class, e).conflict());
                assertFalse(graph.tx().isOpen());
                assertFalse(graph.vertices("unrelated").hasNext());
            } else {
                graph.tx().commit(); // SI does not validate reads
                assertTrue(graph.vertices("unrelated").hasNext());
            }
            graph.tx().rollback();
            graph.close();
        }
    }

    /** The edge label index answers as the edges are: own writes, removals, other snapshots, and phantoms at SR. */
    @ParameterizedTest
    @CsvSource({"add", "remove"})
    @Timeout(60)
    void edgeLabelLookUpsSeeWhatTheTransactionSeesAndCatchPhantoms(String change) throws Exception {
        for (String isolation : List.of("SERIALIZABLE", "SNAPSHOT")) {
            GtranGraph graph = open(isolation);
            Vertex a = graph.addVertex(T.id, "a");
            Vertex b = graph.addVertex(T.id, "b");
            a.addEdge("knows", b, T.id, "k1");
            a.addEdge("knows", b, T.id, "k2");
            a.addEdge("likes", b, T.id, "l1");
            graph.tx().commit();
            GraphTraversalSource g = graph.traversal();
            assertTrue(g.E().hasLabel("knows").explain().prettyPrint().contains("index=label"));
            assertEquals(2L, g.E().hasLabel("knows").count().next());
            a.addEdge("knows", b, T.id, "k3"); // own uncommitted edge: seen
            graph.edges("k1").next().remove(); // own removal: not seen
            assertEquals(java.util.Set.of("k2", "k3"), new java.util.HashSet<>(g.E().hasLabel("knows").id().toList()));
            assertEquals(1L, g.E().hasLabel("likes", "nothing").count().next());
            graph.tx().rollback();
            assertEquals(2L, g.E().hasLabel("knows").count().next(), "rolled back: as before");

            assertEquals(2L, g.E().hasLabel("knows").count().next()); // the reader's look-up
            inThread(() -> { // a concurrent commit that changes its answer
                if (change.equals("add")) {
                    graph.vertices("b").next().addEdge("knows", graph.vertices("a").next(), T.id, "k4");
                } else {
                    graph.edges("k2").next().remove();
                }
                graph.tx().commit();
                return null;
            });
            assertEquals(2L, g.E().hasLabel("knows").count().next(), "the snapshot does not change");
            graph.addVertex(T.id, "unrelated"); // the reader writes something
            if (isolation.equals("SERIALIZABLE")) {
                TransactionException e = org.junit.jupiter.api.Assertions.assertThrows(TransactionException.class,
                        () -> graph.tx().commit(), "edge phantom (" + change + ") must abort the SR reader");
                assertNotNull(assertInstanceOf(TransactionAbortedException.class, e).conflict());
            } else {
                graph.tx().commit();
            }
            graph.tx().rollback();
            assertEquals(change.equals("add") ? 3L : 1L, g.E().hasLabel("knows").count().next(), "a new snapshot sees the change");
            graph.tx().rollback();
            graph.close();
        }
    }

    @Test
    @Timeout(30)
    void indexLookUpsOfNullsAndCollectionsMatchAScan() {
        GtranGraph indexed = GtranGraph.open(TestGraphs.config(GtranGraph.ALLOW_NULL_PROPERTY_VALUES, "true",
                GtranGraph.VERTEX_HASH_INDEX, "k", GtranGraph.VERTEX_ORDERED_INDEX, "o"));
        try {
            GraphTraversalSource g = indexed.traversal();
            g.addV().property("k", null).property("o", null).iterate();
            g.addV().property("k", List.of(1)).property("o", List.of(1)).iterate();
            List<List<Integer>> colliding = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                List<Integer> l = List.of(i, 31 * (31 - i)); // equal hashCodes, different lists
                colliding.add(l);
                g.addV().property("o", l).iterate();
            }
            indexed.tx().commit();
            assertEquals(1L, g.V().has("k", (Object) null).count().next());
            assertEquals(1L, g.V().has("o", (Object) null).count().next());
            assertEquals(1L, g.V().has("k", List.of(1L)).count().next(), "Gremlin finds [1] equal to [1L]");
            assertEquals(1L, g.V().has("o", List.of(1L)).count().next());
            for (List<Integer> l : colliding) {
                assertEquals(1L, g.V().has("o", new ArrayList<>(l)).count().next(), "ordered index finds " + l);
            }
        } finally {
            indexed.close();
        }
    }

    @Test
    @Timeout(30)
    void aLabelLookUpIsValidatedAgainstAConcurrentCreationAtSerializable() throws Exception {
        for (String isolation : List.of("SERIALIZABLE", "SNAPSHOT")) {
            GtranGraph graph = GtranGraph.open(TestGraphs.config(GtranGraph.ISOLATION, isolation));
            ExecutorService other = Executors.newSingleThreadExecutor();
            try {
                Vertex a = graph.addVertex(T.label, "x");
                a.addEdge("e", a);
                graph.addVertex(T.label, "y");
                graph.tx().commit();
                GraphTraversalSource g = graph.traversal();
                assertEquals(1L, g.V().hasLabel("x").count().next());
                assertEquals(1L, g.E().hasLabel("e").count().next());
                assertTrue(g.V().hasLabel("x").explain().toString().contains("index=label"));
                graph.addVertex(T.label, "y"); // this transaction writes, so at SR its reads are validated
                other.submit(() -> {
                    Vertex b = graph.addVertex(T.label, "x");
                    b.addEdge("e", b);
                    graph.tx().commit();
                }).get();
                if (isolation.equals("SERIALIZABLE")) {
                    assertThrows(TransactionException.class, () -> graph.tx().commit(), "a phantom in the label scan");
                } else {
                    graph.tx().commit(); // snapshot isolation does not validate reads
                }
                assertEquals(2L, g.V().hasLabel("x").count().next());
                assertEquals(2L, g.E().hasLabel("e").count().next());
                graph.tx().rollback();
            } finally {
                other.shutdownNow();
                graph.close();
            }
        }
    }
}
