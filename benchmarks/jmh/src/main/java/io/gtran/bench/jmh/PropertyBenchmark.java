package io.gtran.bench.jmh;

import io.gtran.storage.GraphStore;
import io.gtran.storage.MvStore;
import io.gtran.storage.MvTupleDescriptor;
import io.gtran.storage.StoreConfig;
import java.util.concurrent.TimeUnit;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
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

/**
 * Vertex property read and write, gtran {@link GraphStore} against TinkerGraph, for an int
 * property ({@code age}) and a String property ({@code name}) on each of {@code vertices}
 * vertices. Each invocation touches one vertex, chosen from a fixed pseudo-random sequence
 * (the same for both systems), so the numbers include the cache misses of random access.
 *
 * <p><b>Units.</b> {@link Mode#Throughput}, operations (one property read or write) per second.
 *
 * <p>Reads: the gtran read state's {@code firstVersion} parameter ({@code base}, {@code full})
 * selects how the properties were written. gtran looks up the newest version ({@code store.vertices().propertyVersion}) and
 * reads it with {@link MvStore#inlineWord} (int, no boxing), {@link MvStore#value} (int boxed, as
 * TinkerPop would hand it out) or {@link MvStore#value} (String, decoded from UTF-8 bytes in the
 * value region into a new String); TinkerGraph calls {@code vertex.value(key)}, which returns the
 * String object it holds. Both hold their vertices by reference/id in an array.
 *
 * <p>Writes: gtran {@code store.vertices().addPropertyVersion} links a new MV-tuple (and, for a
 * String, a new value-region slot) in front of the old version, which is kept — nothing is
 * garbage-collected here, so the write state is rebuilt every iteration to bound memory;
 * TinkerGraph {@code vertex.property(key, value)} replaces the single-cardinality property. The
 * written values come from a small pre-built pool, so no boxing or string building is measured.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class PropertyBenchmark extends GtranForkSettings {
    static final String AGE = "age";
    static final String NAME = "name";
    private static final int ACCESS_MASK = (1 << 20) - 1;
    private static final int VALUE_MASK = 1023;

    @Param("100000")
    public int vertices;

    /** The vertex visited by invocation i is {@code order[i & ACCESS_MASK]}. */
    int[] order;
    Integer[] intValues;
    String[] stringValues;

    @Setup(Level.Trial)
    public void generate() {
        order = JmhGraphs.randomIndexes(ACCESS_MASK + 1, vertices, JmhGraphs.SEED);
        intValues = new Integer[VALUE_MASK + 1];
        stringValues = new String[VALUE_MASK + 1];
        for (int i = 0; i <= VALUE_MASK; i++) {
            intValues[i] = 1_000_000 + i;
            stringValues[i] = "person-" + (1_000_000 + i);
        }
    }

    static String name(int vertex) {
        return "person-" + vertex;
    }

    /** A gtran store whose vertices have {@code age} = index and {@code name} = "person-index". */
    public abstract static class Gtran {
        GraphStore store;
        MvStore mv;
        long[] ids;
        int ageKey;
        int nameKey;
        int[] order;
        int next;

        /** @param base give each property its first version as a base version (else a full MV-tuple) */
        void build(PropertyBenchmark b, boolean base) {
            store = GraphStore.open(StoreConfig.defaults());
            mv = store.mvStore();
            ageKey = store.propertyKeys().intern(AGE);
            nameKey = store.propertyKeys().intern(NAME);
            ids = JmhGraphs.addVertices(store, b.vertices, store.labels().intern("person"));
            for (int i = 0; i < ids.length; i++) {
                if (base) {
                    store.vertices().addPropertyBase(ids[i], ageKey, i);
                    store.vertices().addPropertyBase(ids[i], nameKey, name(i));
                } else {
                    store.vertices().addPropertyVersion(ids[i], ageKey, i, 1L, Long.MAX_VALUE);
                    store.vertices().addPropertyVersion(ids[i], nameKey, name(i), 1L, Long.MAX_VALUE);
                }
            }
            order = b.order;
            int probe = ids.length / 2;
            int tuple = store.vertices().propertyVersion(ids[probe], nameKey);
            if (tuple == MvTupleDescriptor.NO_TUPLE || !name(probe).equals(mv.value(tuple))
                    || (int) mv.inlineWord(store.vertices().propertyVersion(ids[probe], ageKey)) != probe) {
                throw new IllegalStateException("gtran property setup is wrong at vertex " + probe);
            }
        }

        long nextId() {
            return ids[order[next++ & ACCESS_MASK]];
        }

        void close() {
            store.close();
            store = null;
        }
    }

    /** Read state: built once per trial. */
    @State(Scope.Thread)
    public static class GtranRead extends Gtran {
        /**
         * How the read properties were written: {@code base} = a base version (value and type
         * only, validity from the vertex: what a property set when its vertex is created gets),
         * {@code full} = a full MV-tuple with its own begin/end time (an updated property).
         */
        @Param({"base", "full"})
        public String firstVersion;

        @Setup(Level.Trial)
        public void setup(PropertyBenchmark b) {
            build(b, firstVersion.equals("base"));
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            close();
        }
    }

    /**
     * Write state: rebuilt every iteration, because every write keeps a new version. Properties
     * start with full versions, so each write links a full tuple over a full tuple (the steady
     * state of an updated property; a base version would first be materialized by MV-OCC).
     */
    @State(Scope.Thread)
    public static class GtranWrite extends Gtran {
        @Setup(Level.Iteration)
        public void setup(PropertyBenchmark b) {
            build(b, false);
        }

        @TearDown(Level.Iteration)
        public void tearDown() {
            close();
        }
    }

    /** The same vertices and properties in a TinkerGraph. */
    @State(Scope.Thread)
    public static class Tinker {
        TinkerGraph graph;
        Vertex[] vertices;
        int[] order;
        int next;

        @Setup(Level.Trial)
        public void setup(PropertyBenchmark b) {
            graph = TinkerGraph.open();
            vertices = new Vertex[b.vertices];
            for (int i = 0; i < vertices.length; i++) {
                vertices[i] = graph.addVertex("person");
                vertices[i].property(AGE, i);
                vertices[i].property(NAME, name(i));
            }
            order = b.order;
        }

        Vertex nextVertex() {
            return vertices[order[next++ & ACCESS_MASK]];
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            graph.close();
        }
    }

    // ------------------------------------------------------------------ reads

    @Benchmark
    public int gtranReadInt(GtranRead g) {
        return (int) g.mv.inlineWord(g.store.vertices().propertyVersion(g.nextId(), g.ageKey));
    }

    @Benchmark
    public Object gtranReadIntBoxed(GtranRead g) {
        return g.mv.value(g.store.vertices().propertyVersion(g.nextId(), g.ageKey));
    }

    @Benchmark
    public int tinkerReadInt(Tinker t) {
        return t.nextVertex().<Integer>value(AGE);
    }

    @Benchmark
    public Object gtranReadString(GtranRead g) {
        return g.mv.value(g.store.vertices().propertyVersion(g.nextId(), g.nameKey));
    }

    @Benchmark
    public Object tinkerReadString(Tinker t) {
        return t.nextVertex().<String>value(NAME);
    }

    // ------------------------------------------------------------------ writes

    @Benchmark
    public int gtranWriteInt(GtranWrite g) {
        int n = g.next;
        return g.store.vertices().addPropertyVersion(g.nextId(), g.ageKey, intValues[n & VALUE_MASK], 2L, Long.MAX_VALUE);
    }

    @Benchmark
    public VertexProperty<Integer> tinkerWriteInt(Tinker t) {
        int n = t.next;
        return t.nextVertex().property(AGE, intValues[n & VALUE_MASK]);
    }

    @Benchmark
    public int gtranWriteString(GtranWrite g) {
        int n = g.next;
        return g.store.vertices().addPropertyVersion(g.nextId(), g.nameKey, stringValues[n & VALUE_MASK], 2L, Long.MAX_VALUE);
    }

    @Benchmark
    public VertexProperty<String> tinkerWriteString(Tinker t) {
        int n = t.next;
        return t.nextVertex().property(NAME, stringValues[n & VALUE_MASK]);
    }
}
