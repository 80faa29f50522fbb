package io.gtran.bench.restart;

import io.gtran.bench.BenchArgs;
import io.gtran.bench.PowerLawGraph;
import io.gtran.core.GtranGraph;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;

/**
 * {@code bin/gtran bench restart [--vertices N] [--edges M] [--batch B] [--rewrites R] [--snapshot] [--seed S] [--dir DIR]
 * [--durability D]}: loads a power-law property graph into an embedded graph with a data directory
 * (B elements per transaction, so per log record), then rewrites one vertex's score in each of R
 * transactions (history that does not grow the graph), takes a snapshot if asked, closes the
 * graph, opens it again and prints how long the open took (docs/durability.md, "Restart time"):
 * {@code RESTART vertices=V edges=E records=R replayed=P snapshot=S log_bytes=L live_bytes=D open_ms=T ms_per_gb=..
 * ms_per_100k_records=..}, where records are the log's entries since the directory was made, replayed
 * those after the snapshot, live bytes the direct memory the restored store holds and the log bytes
 * the directory's files (segments and snapshot).
 */
public final class RestartBenchmark {
    private static final BenchArgs ARGS = new BenchArgs("bench restart");

    private RestartBenchmark() {
    }

    public static void main(String[] args) throws IOException {
        int vertices = 100_000;
        int edges = 1_000_000;
        int batch = 1_000;
        long seed = 42;
        Path dir = null;
        String durability = "sync";
        int rewrites = 0;
        boolean snapshot = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--vertices" -> vertices = ARGS.parseInt(arg, ARGS.value(args, ++i, arg));
                case "--edges" -> edges = ARGS.parseInt(arg, ARGS.value(args, ++i, arg));
                case "--batch" -> batch = ARGS.parseInt(arg, ARGS.value(args, ++i, arg));
                case "--seed" -> seed = ARGS.parseLong(arg, ARGS.value(args, ++i, arg));
                case "--dir" -> dir = Path.of(ARGS.value(args, ++i, arg));
                case "--durability" -> durability = ARGS.value(args, ++i, arg);
                case "--rewrites" -> rewrites = ARGS.parseInt(arg, ARGS.value(args, ++i, arg));
                case "--snapshot" -> snapshot = true;
                case "-h", "--help" -> {
                    System.out.println("usage: bin/gtran bench restart [--vertices N (100000)] [--edges M (1000000)]"
                            + " [--batch B (1000 elements per transaction)] [--seed S (42)] [--dir DIR (a new temporary one)] [--durability sync|async (sync), for the load]"
                            + " [--rewrites R (0 transactions that each rewrite one vertex's score)] [--snapshot (take one before the close)]");
                    return;
                }
                default -> ARGS.fail("unknown option: " + arg + " (try --help)");
            }
        }
        if (vertices < 2 || edges < 0 || batch < 1 || rewrites < 0) {
            ARGS.fail("need --vertices >= 2, --edges >= 0, --batch >= 1: vertices=" + vertices + " edges=" + edges + " batch=" + batch);
        }
        if (dir == null) {
            dir = Files.createTempDirectory("gtran-restart-");
        } else if (Files.exists(dir)) {
            ARGS.fail("--dir must not exist yet: " + dir);
        }
        PowerLawGraph data = PowerLawGraph.generate(vertices, edges, seed);
        long loadStart = System.nanoTime();
        try (GtranGraph graph = GtranGraph.open(configuration(dir, durability))) {
            load(graph, data, batch);
            rewrite(graph, rewrites, seed);
            if (snapshot) {
                System.out.println("SNAPSHOT " + graph.snapshot());
            }
        }
        double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
        long logBytes = bytesUnder(dir);
        long openStart = System.nanoTime();
        GtranGraph graph = GtranGraph.open(configuration(dir, "sync"));
        double openMs = (System.nanoTime() - openStart) / 1e6;
        try {
            long records = graph.node().engine().commitLog().lastIndex();
            long snapshotIndex = graph.node().engine().commitLog().snapshotIndex();
            long replayed = records - Math.max(0, snapshotIndex);
            long live = graph.node().store().reservedBytes().values().stream().mapToLong(Long::longValue).sum();
            long vertexCount = graph.traversal().V().count().next();
            long edgeCount = graph.traversal().E().count().next();
            graph.tx().rollback();
            if (vertexCount != vertices || edgeCount != edges) {
                throw new IllegalStateException("restored " + vertexCount + " vertices and " + edgeCount + " edges, loaded "
                        + vertices + " and " + edges);
            }
            System.out.printf(Locale.ROOT, "RESTART vertices=%d edges=%d batch=%d rewrites=%d records=%d replayed=%d snapshot=%s"
                            + " log_bytes=%d live_bytes=%d load_s=%.1f open_ms=%.0f ms_per_gb=%.0f ms_per_100k_records=%.0f%n",
                    vertices, edges, batch, rewrites, records, replayed, snapshot, logBytes, live, loadSeconds, openMs,
                    openMs / (live / 1e9), openMs / (Math.max(1, replayed) / 1e5));
        } finally {
            graph.close();
        }
    }

    private static BaseConfiguration configuration(Path dir, String durability) {
        BaseConfiguration c = new BaseConfiguration();
        c.setProperty("gremlin.graph", GtranGraph.class.getName());
        c.setProperty("gtran.storage.directory", dir.toString());
        c.setProperty("gtran.durability", durability);
        c.setProperty("gtran.durability.snapshot-records", 0); // only the one asked for
        return c;
    }

    private static void load(GtranGraph graph, PowerLawGraph data, int batch) {
        Object[] ids = new Object[data.vertices];
        int inBatch = 0;
        for (int i = 0; i < data.vertices; i++) {
            ids[i] = graph.addVertex(T.label, PowerLawGraph.VERTEX_LABELS[data.vertexLabel[i]], "name", data.name(i),
                    "age", data.age[i], "score", data.score[i]).id();
            if (++inBatch == batch) {
                graph.tx().commit();
                inBatch = 0;
            }
        }
        graph.tx().commit();
        inBatch = 0;
        for (int e = 0; e < data.edges; e++) {
            Vertex out = graph.vertices(ids[data.edgeOut[e]]).next();
            Vertex in = graph.vertices(ids[data.edgeIn[e]]).next();
            out.addEdge(PowerLawGraph.EDGE_LABELS[data.edgeLabel[e]], in, "weight", data.weight[e], "since", data.since[e]);
            if (++inBatch == batch) {
                graph.tx().commit();
                inBatch = 0;
            }
        }
        graph.tx().commit();
    }

    /** {@code count} transactions, each setting a random vertex's score. */
    private static void rewrite(GtranGraph graph, int count, long seed) {
        if (count == 0) {
            return;
        }
        java.util.List<Object> ids = graph.traversal().V().id().toList();
        graph.tx().commit();
        java.util.Random random = new java.util.Random(seed);
        for (int i = 0; i < count; i++) {
            graph.vertices(ids.get(random.nextInt(ids.size()))).next().property("score", random.nextDouble());
            graph.tx().commit();
        }
    }

    private static long bytesUnder(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
