package io.gtran.bench.jmh;

import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Edge insertion: {@code edges} edges between random pre-created vertices (the {@link JmhGraphs}
 * power-law list: sources skewed, targets uniform), into a fresh, empty-of-edges graph every
 * iteration — a gtran {@link GraphStore} ({@code addEdge}, which writes the edge header and an OUT
 * and an IN cell into the endpoints' sorted row-lists) and, side by side, a TinkerGraph
 * ({@code Vertex.addEdge}).
 *
 * <p><b>Units.</b> Mode is {@link Mode#SingleShotTime}: one invocation per iteration inserts the
 * whole batch of {@code edges} edges, and the score is milliseconds per batch. Edges per second
 * = {@code edges / (score / 1000)}. A batch of fixed size is used (rather than a time-bounded
 * throughput loop) because gtran's insert cost grows with a vertex's degree (a row-list is walked
 * to the insertion row), so the rate is only meaningful for a defined final graph size. The fresh
 * graph and its vertices are made in {@code @Setup(Level.Iteration)}, outside the timing.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
public class EdgeInsertBenchmark extends GtranForkSettings {
    @Param("100000")
    public int vertices;

    /** Edges inserted per iteration (one batch). */
    @Param("1000000")
    public int edges;

    /** gtran.storage.edge-row.cells (store default 8): longer rows shift more cells per sorted insert. */
    @Param("8")
    public int edgeRowCells;

    private int[] source;
    private int[] target;

    @Setup(Level.Trial)
    public void generate() {
        JmhGraphs.EdgeList list = JmhGraphs.powerLaw(vertices, edges, 1, JmhGraphs.SEED);
        source = list.source();
        target = list.target();
    }

    /** A fresh gtran store with {@code vertices} vertices and no edges, per iteration. */
    @State(Scope.Benchmark)
    public static class GtranGraph {
        GraphStore store;
        long[] ids;
        int label;

        @Setup(Level.Iteration)
        public void open(EdgeInsertBenchmark b) {
            store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.EDGE_ROW_CELLS, b.edgeRowCells)));
            ids = JmhGraphs.addVertices(store, b.vertices, store.labels().intern("vertex"));
            label = store.labels().intern("knows");
        }

        @TearDown(Level.Iteration)
        public void close() {
            store.close();
            store = null;
        }
    }

    /** A fresh TinkerGraph with {@code vertices} vertices and no edges, per iteration. */
    @State(Scope.Benchmark)
    public static class TinkerGraphState {
        TinkerGraph graph;
        Vertex[] vertices;

        @Setup(Level.Iteration)
        public void open(EdgeInsertBenchmark b) {
            graph = TinkerGraph.open();
            vertices = new Vertex[b.vertices];
            for (int i = 0; i < vertices.length; i++) {
                vertices[i] = graph.addVertex("vertex");
            }
        }

        @TearDown(Level.Iteration)
        public void close() throws Exception {
            graph.close();
            graph = null;
            vertices = null;
        }
    }

    @Benchmark
    public void gtranAddEdge(GtranGraph g, Blackhole bh) {
        GraphStore store = g.store;
        long[] ids = g.ids;
        int label = g.label;
        int[] s = source;
        int[] t = target;
        for (int i = 0; i < s.length; i++) {
            bh.consume(store.addEdge(ids[s[i]], ids[t[i]], label, 1L, Long.MAX_VALUE));
        }
    }

    @Benchmark
    public void tinkerAddEdge(TinkerGraphState g, Blackhole bh) {
        Vertex[] v = g.vertices;
        int[] s = source;
        int[] t = target;
        for (int i = 0; i < s.length; i++) {
            bh.consume(v[s[i]].addEdge("knows", v[t[i]]));
        }
    }
}
