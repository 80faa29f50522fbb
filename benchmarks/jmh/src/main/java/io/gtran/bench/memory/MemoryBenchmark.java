package io.gtran.bench.memory;

import io.gtran.bench.BenchArgs;
import io.gtran.bench.PowerLawGraph;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;

/**
 * {@code bin/gtran bench memory [--vertices N] [--edges M] [--seed S] [--compact]}: loads the same
 * power-law property graph into gtran's store and into TinkerGraph, one after the other in one
 * JVM, and prints for each
 * {@code MEMORY system=<name> vertices=<n> edges=<m> bytes_per_vertex=<x> bytes_per_edge=<y>}.
 * With {@code --compact} it then runs {@link GraphStore#compactAllEdges} on gtran's store and
 * prints a third line, {@code system=gtran-compacted}, measured the same way after it.
 *
 * <p>Bytes per vertex is the growth of heap-after-GC plus direct memory while the vertices (with
 * their properties) are loaded, divided by their number; bytes per edge the same for the edges.
 * The generated graph itself and the arrays mapping vertex numbers to handles are allocated
 * before the first reading, so they are not counted against either system.
 */
public final class MemoryBenchmark {
    private static final BenchArgs ARGS = new BenchArgs("bench memory");
    static final String GTRAN = "gtran";
    static final String TINKERGRAPH = "tinkergraph";
    static final String GTRAN_COMPACTED = "gtran-compacted";
    private static final long COMMITTED_BEGIN = 1L;
    private static final long OPEN_END = Long.MAX_VALUE;

    private MemoryBenchmark() {
    }

    /** One system's measurement. */
    record Result(String system, int vertices, int edges, double bytesPerVertex, double bytesPerEdge) {
        String line() {
            return String.format(Locale.ROOT, "MEMORY system=%s vertices=%d edges=%d bytes_per_vertex=%.1f bytes_per_edge=%.1f",
                    system, vertices, edges, bytesPerVertex, bytesPerEdge);
        }
    }

    public static void main(String[] args) {
        int vertices = 100_000;
        int edges = 1_000_000;
        long seed = 42;
        boolean compact = false;
        Map<String, String> settings = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--vertices" -> vertices = ARGS.parseInt(arg, ARGS.value(args, ++i, arg));
                case "--edges" -> edges = ARGS.parseInt(arg, ARGS.value(args, ++i, arg));
                case "--seed" -> seed = ARGS.parseLong(arg, ARGS.value(args, ++i, arg));
                case "--set" -> ARGS.setting(ARGS.value(args, ++i, arg), settings);
                case "--compact" -> compact = true;
                case "-h", "--help" -> {
                    System.out.println("usage: bin/gtran bench memory [--vertices N (100000)] [--edges M (1000000)] [--seed S (42)]"
                            + " [--set gtran.storage.KEY=VALUE ...] [--compact (also measure gtran after compactAllEdges)]");
                    return;
                }
                default -> ARGS.fail("unknown option: " + arg + " (try --help)");
            }
        }
        if (vertices < 2 || edges < 1) {
            ARGS.fail("need --vertices >= 2 and --edges >= 1: vertices=" + vertices + " edges=" + edges);
        }
        StoreConfig config;
        try {
            config = StoreConfig.from(settings);
        } catch (IllegalArgumentException e) {
            ARGS.fail(e.getMessage());
            return;
        }
        run(vertices, edges, seed, config, compact, System.out);
    }

    static Result[] run(int vertices, int edges, long seed, StoreConfig config, PrintStream out) {
        return run(vertices, edges, seed, config, false, out);
    }

    /** Results in the order printed: gtran, then gtran-compacted if {@code compact}, then TinkerGraph. */
    static Result[] run(int vertices, int edges, long seed, StoreConfig config, boolean compact, PrintStream out) {
        long started = System.nanoTime();
        PowerLawGraph graph = PowerLawGraph.generate(vertices, edges, seed);
        out.printf(Locale.ROOT, "graph: vertices=%d edges=%d seed=%d max_degree=%d generated_in=%.1fs%n",
                vertices, edges, seed, graph.maxDegree(), (System.nanoTime() - started) / 1e9);
        Result[] gtran = measureGtran(graph, config, compact, out);
        for (Result r : gtran) {
            out.println(r.line());
        }
        Result tinker = measureTinkerGraph(graph);
        out.println(tinker.line());
        for (Result r : gtran) {
            out.printf(Locale.ROOT, "MEMORY ratio %s/tinkergraph bytes_per_vertex=%.3f bytes_per_edge=%.3f (goal bytes_per_edge <= 0.25)%n",
                    r.system(), r.bytesPerVertex() / tinker.bytesPerVertex(), r.bytesPerEdge() / tinker.bytesPerEdge());
        }
        Result[] all = Arrays.copyOf(gtran, gtran.length + 1);
        all[gtran.length] = tinker;
        return all;
    }

    /** gtran as loaded, and after {@link GraphStore#compactAllEdges} if {@code compact}. */
    static Result[] measureGtran(PowerLawGraph graph, StoreConfig config, boolean compact, PrintStream out) {
        long[] ids = new long[graph.vertices];
        long before = MemoryProbe.heapAndDirect();
        try (GraphStore store = GraphStore.open(config)) {
            int[] vertexLabels = intern(store, PowerLawGraph.VERTEX_LABELS);
            int[] edgeLabels = intern(store, PowerLawGraph.EDGE_LABELS);
            int name = store.propertyKeys().intern("name");
            int age = store.propertyKeys().intern("age");
            int score = store.propertyKeys().intern("score");
            int weight = store.propertyKeys().intern("weight");
            int since = store.propertyKeys().intern("since");
            for (int i = 0; i < graph.vertices; i++) {
                // Properties written with their element take base versions, as a transaction that
                // creates an element with its properties does.
                long v = store.addVertex(vertexLabels[graph.vertexLabel[i]], COMMITTED_BEGIN, OPEN_END);
                store.vertices().addPropertyBase(v, name, graph.name(i));
                store.vertices().addPropertyBase(v, age, graph.age[i]);
                store.vertices().addPropertyBase(v, score, graph.score[i]);
                ids[i] = v;
            }
            long afterVertices = MemoryProbe.heapAndDirect();
            for (int e = 0; e < graph.edges; e++) {
                long edge = store.addEdge(ids[graph.edgeOut[e]], ids[graph.edgeIn[e]], edgeLabels[graph.edgeLabel[e]],
                        COMMITTED_BEGIN, OPEN_END);
                store.edges().addPropertyBase(edge, weight, graph.weight[e]);
                store.edges().addPropertyBase(edge, since, graph.since[e]);
            }
            long afterEdges = MemoryProbe.heapAndDirect();
            Map<String, Long> pools = store.reservedBytes();
            out.println("gtran pools (reserved bytes): " + pools);
            if (store.vertices().count() != graph.vertices || store.edges().count() != graph.edges) {
                throw new IllegalStateException("gtran load incomplete: vertices=" + store.vertices().count() + " edges=" + store.edges().count());
            }
            double perVertex = (afterVertices - before) / (double) graph.vertices;
            Result loaded = new Result(GTRAN, graph.vertices, graph.edges, perVertex, (afterEdges - afterVertices) / (double) graph.edges);
            if (!compact) {
                return new Result[] {loaded};
            }
            store.compactAllEdges();
            long afterCompaction = MemoryProbe.heapAndDirect();
            out.println("gtran pools after compactAllEdges (reserved bytes): " + store.reservedBytes());
            return new Result[] {loaded, new Result(GTRAN_COMPACTED, graph.vertices, graph.edges, perVertex,
                    (afterCompaction - afterVertices) / (double) graph.edges)};
        }
    }

    static Result measureTinkerGraph(PowerLawGraph graph) {
        Vertex[] handles = new Vertex[graph.vertices];
        long before = MemoryProbe.heapAndDirect();
        TinkerGraph tinker = TinkerGraph.open();
        try {
            for (int i = 0; i < graph.vertices; i++) {
                handles[i] = tinker.addVertex(T.label, PowerLawGraph.VERTEX_LABELS[graph.vertexLabel[i]],
                        "name", graph.name(i), "age", graph.age[i], "score", graph.score[i]);
            }
            long afterVertices = MemoryProbe.heapAndDirect();
            for (int e = 0; e < graph.edges; e++) {
                handles[graph.edgeOut[e]].addEdge(PowerLawGraph.EDGE_LABELS[graph.edgeLabel[e]], handles[graph.edgeIn[e]],
                        "weight", graph.weight[e], "since", graph.since[e]);
            }
            long afterEdges = MemoryProbe.heapAndDirect();
            Result result = new Result(TINKERGRAPH, graph.vertices, graph.edges,
                    (afterVertices - before) / (double) graph.vertices, (afterEdges - afterVertices) / (double) graph.edges);
            Arrays.fill(handles, null);
            return result;
        } finally {
            tinker.close();
        }
    }

    private static int[] intern(GraphStore store, String[] names) {
        int[] ids = new int[names.length];
        for (int i = 0; i < names.length; i++) {
            ids[i] = store.labels().intern(names[i]);
        }
        return ids;
    }
}
