package io.gtran.bench.jmh;

import io.gtran.core.GtranGraph;
import java.util.concurrent.TimeUnit;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerTransactionGraph;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Gremlin through the TinkerPop API, gtran ({@link GtranGraph}, SR) side by side with TinkerGraph
 * (no transactions) and TinkerTransactionGraph (read committed) in one run, one thread. The graph:
 * {@code vertices} "person" vertices with a unique {@code name} ("p&lt;i&gt;", indexed in every
 * system) and an {@code age}, and {@code edges} power-law "knows" edges ({@link JmhGraphs#powerLaw}).
 * Every operation of a transactional system ends with a commit, as a client's request would.
 *
 * <ul>
 *   <li>{@link #byIdOut}: {@code g.V(id).out().count()}.
 *   <li>{@link #twoHops}: {@code g.V(id).out().out().count()}.
 *   <li>{@link #indexedLookup}: {@code g.V().has("person", "name", n).values("age")}.
 *   <li>{@link #addVertexAndEdge}: a new person with two properties and a "knows" edge to an existing one.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Threads(1)
public class TraversalBenchmark extends GtranForkSettings {
    private static final int LOAD_BATCH = 5_000;

    @Param({"gtran", "tinkergraph", "tinkertransactiongraph"})
    public String system;

    @Param({"10000"})
    public int vertices;

    @Param({"100000"})
    public int edges;

    Graph graph;
    GraphTraversalSource g;
    Object[] ids;
    private int next;
    private int added;

    @Setup(Level.Trial)
    public void load() throws Exception {
        graph = open(system);
        g = graph.traversal();
        boolean tx = graph.features().graph().supportsTransactions();
        ids = new Object[vertices];
        Vertex[] vs = new Vertex[vertices];
        for (int i = 0; i < vertices; i++) {
            vs[i] = graph.addVertex(T.label, "person", "name", "p" + i, "age", i % 100);
            ids[i] = vs[i].id();
            if (tx && i % LOAD_BATCH == LOAD_BATCH - 1) {
                graph.tx().commit();
            }
        }
        JmhGraphs.EdgeList list = JmhGraphs.powerLaw(vertices, edges, 1, JmhGraphs.SEED);
        for (int i = 0; i < list.size(); i++) {
            vs[list.source()[i]].addEdge("knows", vs[list.target()[i]]);
            if (tx && i % LOAD_BATCH == LOAD_BATCH - 1) {
                graph.tx().commit();
            }
        }
        if (tx) {
            graph.tx().commit();
        }
    }

    static Graph open(String system) {
        switch (system) {
            case "gtran": {
                BaseConfiguration c = new BaseConfiguration();
                c.setProperty(GtranGraph.VERTEX_HASH_INDEX, "name");
                return GtranGraph.open(c);
            }
            case "tinkergraph": {
                TinkerGraph tg = TinkerGraph.open();
                tg.createIndex("name", Vertex.class);
                return tg;
            }
            case "tinkertransactiongraph": {
                TinkerTransactionGraph ttg = TinkerTransactionGraph.open();
                ttg.createIndex("name", Vertex.class);
                return ttg;
            }
            default:
                throw new IllegalArgumentException("unknown system: " + system + "; known: gtran, tinkergraph, tinkertransactiongraph");
        }
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        if (graph.features().graph().supportsTransactions() && graph.tx().isOpen()) {
            graph.tx().rollback();
        }
        graph.close();
    }

    private Object nextId() {
        next = (next * 1_103_515_245 + 12_345) & 0x7fff_ffff;
        return ids[next % ids.length];
    }

    private void commit() {
        if (graph.features().graph().supportsTransactions()) {
            graph.tx().commit();
        }
    }

    @Benchmark
    public long byIdOut() {
        long n = g.V(nextId()).out().count().next();
        commit();
        return n;
    }

    @Benchmark
    public long twoHops() {
        long n = g.V(nextId()).out().out().count().next();
        commit();
        return n;
    }

    @Benchmark
    public Object indexedLookup() {
        next = (next * 1_103_515_245 + 12_345) & 0x7fff_ffff;
        Object age = g.V().has("person", "name", "p" + (next % vertices)).values("age").next();
        commit();
        return age;
    }

    @Benchmark
    public Object addVertexAndEdge() {
        Vertex v = graph.addVertex(T.label, "person", "name", "new" + (added++), "age", 1);
        v.addEdge("knows", graph.vertices(nextId()).next());
        commit();
        return v;
    }
}
