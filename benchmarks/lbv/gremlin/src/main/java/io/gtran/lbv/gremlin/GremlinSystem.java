package io.gtran.lbv.gremlin;

import io.gtran.lbv.Dataset;
import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.LatencyQuery;
import io.gtran.lbv.LbvQuery;
import io.gtran.lbv.LbvSystem;
import io.gtran.lbv.LoadProgress;
import io.gtran.lbv.QueryParams;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Transaction;

/**
 * The base of every Gremlin system under test: loads a {@link Dataset} in committed batches,
 * maps dataset ids to the system's ids, and runs each {@link LbvQuery} and {@link LatencyQuery}
 * of {@link GremlinQueries} as one transaction, committed, or rolled back and rethrown on any
 * failure.
 *
 * <p>Subclasses provide the graph ({@link #traversal}, {@link #loadGraph}), the indexes ({@link
 * #createIndexes}), what a conflict looks like ({@link #isRetryable}), and, where user-supplied
 * ids are not accepted, the id mapping ({@link #suppliesIds}, {@link #vertexId}, {@link #edgeId},
 * {@link #recordVertexId}, {@link #recordEdgeId}). Transactions go through {@code g.tx()} by
 * default; a subclass whose queries commit on their own (a sessionless remote) overrides {@link
 * #begin}.
 *
 * <p>Options (the {@code --option k=v} of the child JVM): {@value #BATCH} (elements per committed
 * load transaction, default {@value #BATCH_DEFAULT}), plus the subclass's own; an unknown option
 * is refused with its name.
 */
public abstract class GremlinSystem implements LbvSystem {
    /** Elements (vertices or edges) per committed transaction while loading. */
    public static final String BATCH = "batch";
    public static final int BATCH_DEFAULT = 10_000;

    private final int batch;
    private volatile DatasetInfo info;

    /**
     * @param options the system's options
     * @param known   the option names the subclass accepts ({@value #BATCH} is always accepted); a
     *                name ending in {@code *} accepts every option starting with what precedes it
     * @throws IllegalArgumentException naming an unknown option or a bad {@value #BATCH}
     */
    protected GremlinSystem(Map<String, String> options, Set<String> known) {
        for (String key : options.keySet()) {
            if (!key.equals(BATCH) && !known.contains(key) && known.stream().noneMatch(k -> k.endsWith("*")
                    && key.startsWith(k.substring(0, k.length() - 1)))) {
                Set<String> all = new TreeSet<>(known);
                all.add(BATCH);
                throw new IllegalArgumentException("unknown option for " + getClass().getSimpleName() + ": " + key
                        + "=" + options.get(key) + " (known: " + all + ")");
            }
        }
        this.batch = intOption(options, BATCH, BATCH_DEFAULT, 1, 10_000_000);
    }

    // ------------------------------------------------------------------ hooks

    /** The traversal source the queries run on (thread-safe; transactions bound to the calling thread or to {@link #begin}). */
    protected abstract GraphTraversalSource traversal();

    /**
     * The graph {@link #load} writes into, through its thread-bound {@code tx()}; by default the
     * graph behind {@link #traversal}. A remote system loads into the server's embedded graph.
     */
    protected Graph loadGraph() {
        return traversal().getGraph();
    }

    /**
     * Called first by {@link #load}, before {@link #createIndexes}: a system that sizes its graph
     * from the dataset opens it here. Does nothing by default.
     */
    protected void prepare(DatasetInfo info) {
    }

    /**
     * Creates, on the empty graph, the indexes {@code info} asks for: exact-match indexes on every
     * {@link DatasetInfo#indexedVertexKeys}, {@link DatasetInfo#indexedEdgeKeys} (where the system
     * can index edges) and {@link DatasetInfo#lookupKey}.
     */
    protected abstract void createIndexes(DatasetInfo info);

    /**
     * Whether {@link #load} gives each element its dataset id ({@link #vertexId}, {@link #edgeId})
     * as a user-supplied id ({@code T.id}). If not, the system assigns ids and {@link #load}
     * reports them through {@link #recordVertexId} and {@link #recordEdgeId} after each committed
     * batch (and all vertices before any edge).
     */
    protected boolean suppliesIds() {
        return true;
    }

    /** The system's id of dataset vertex {@code datasetId}; by default the dataset id itself, a {@code Long}. */
    protected Object vertexId(long datasetId) {
        return datasetId;
    }

    /** The system's id of dataset edge {@code datasetId}; by default the dataset id itself, a {@code Long}. */
    protected Object edgeId(long datasetId) {
        return datasetId;
    }

    /** Told the system's id of a loaded vertex, when {@link #suppliesIds} is false. */
    protected void recordVertexId(long datasetId, Object nativeId) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " assigns its own ids but does not record them");
    }

    /** Told the system's id of a loaded edge, when {@link #suppliesIds} is false. */
    protected void recordEdgeId(long datasetId, Object nativeId) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " assigns its own ids but does not record them");
    }

    /**
     * One unit of work: the traversal source its queries use, and how to end it. By default the
     * thread-bound transaction of {@code traversal().tx()}.
     */
    protected Unit begin() {
        GraphTraversalSource g = traversal();
        Transaction tx = g.tx();
        return new Unit() {
            @Override
            public GraphTraversalSource g() {
                return g;
            }

            @Override
            public void commit() {
                tx.commit();
            }

            @Override
            public void rollback() {
                if (tx.isOpen()) {
                    tx.rollback();
                }
            }
        };
    }

    /** A transaction as {@link #execute} uses it; see {@link #begin}. */
    /**
     * A unit for a sessionless remote system: each query is one request, which the server commits
     * when it succeeds and rolls back when it fails, so {@code commit} and {@code rollback} have
     * nothing left to do.
     */
    protected static Unit sessionless(GraphTraversalSource source) {
        return new Unit() {
            @Override
            public GraphTraversalSource g() {
                return source;
            }

            @Override
            public void commit() {
                // committed by the server when the request succeeded
            }

            @Override
            public void rollback() {
                // rolled back by the server when the request failed
            }
        };
    }

    protected interface Unit {
        GraphTraversalSource g();

        void commit();

        /** Ends the unit without its writes; does nothing if the system already ended it (an abort). */
        void rollback();
    }

    // ------------------------------------------------------------------ LbvSystem

    @Override
    public void load(Dataset dataset, LoadProgress progress) {
        if (info != null) {
            throw new IllegalStateException("a dataset is already loaded: dataset=" + info.name());
        }
        DatasetInfo described = dataset.info();
        prepare(described);
        createIndexes(described);
        loadElements(dataset, progress);
        info = described;
    }

    /**
     * Writes the dataset's elements, after {@link #prepare} and {@link #createIndexes}: by default
     * through {@link #loadGraph}'s structure API in committed batches of {@value #BATCH} elements. A
     * system with no embedded graph to write into (a cluster of server processes) loads its own way.
     */
    protected void loadElements(Dataset dataset, LoadProgress progress) {
        new GraphLoader(this, loadGraph(), batch, progress).load(dataset);
    }

    /** Elements per committed load transaction (option {@value #BATCH}). */
    protected int batch() {
        return batch;
    }

    /** Whether option {@value #BATCH} was given. */
    protected static boolean batchGiven(Map<String, String> options) {
        return options.containsKey(BATCH);
    }

    /** The loaded dataset's description; null before {@link #load}. */
    protected DatasetInfo info() {
        return info;
    }

    @Override
    public long execute(LbvQuery query, QueryParams params) {
        DatasetInfo loaded = loaded();
        return inTransaction(query, g -> run(g, query, params, loaded));
    }

    @Override
    public long latency(LatencyQuery query, QueryParams params) {
        DatasetInfo loaded = loaded();
        return inTransaction(query, g -> runLatency(g, query, params, loaded));
    }

    /**
     * Runs {@code work} in one unit of work and commits it; on any failure rolls back and rethrows
     * (a checked exception that TinkerPop throws undeclared, such as {@code TransactionException}
     * from a commit, is wrapped in an {@link IllegalStateException} naming the query).
     */
    private long inTransaction(Enum<?> query, java.util.function.ToLongFunction<GraphTraversalSource> work) {
        Unit unit = begin();
        try {
            long result = work.applyAsLong(unit.g());
            unit.commit();
            return result;
        } catch (Throwable failure) {
            try {
                unit.rollback();
            } catch (Throwable rollback) {
                failure.addSuppressed(rollback);
            }
            if (failure instanceof RuntimeException) {
                throw (RuntimeException) failure;
            }
            if (failure instanceof Error) {
                throw (Error) failure;
            }
            throw new IllegalStateException("query=" + query + " failed: " + failure, failure);
        }
    }

    /** Runs one LBV query; a subclass may override one query and delegate the rest here. */
    protected long run(GraphTraversalSource g, LbvQuery query, QueryParams p, DatasetInfo info) {
        switch (query) {
            case Q2:
                return GremlinQueries.addVertex(g, p.label(), p.properties());
            case Q3:
                return GremlinQueries.addEdge(g, vertexId(p.vertex()), vertexId(p.otherVertex()), p.label(), Map.of());
            case Q4:
                return GremlinQueries.addEdge(g, vertexId(p.vertex()), vertexId(p.otherVertex()), p.label(), p.properties());
            case Q5:
                return GremlinQueries.setVertexProperty(g, vertexId(p.vertex()), p.key(), p.value(), false);
            case Q6:
                return GremlinQueries.setEdgeProperty(g, edgeId(p.edge()), p.key(), p.value(), false);
            case Q7:
                return GremlinQueries.addVertexWithEdges(g, p.label(), p.properties(), p.edgeLabel(), q7Targets(p));
            case Q11:
                return GremlinQueries.verticesWith(g, p.key(), p.value());
            case Q12:
                return GremlinQueries.edgesWith(g, p.key(), p.value());
            case Q13:
                return GremlinQueries.edgesLabelled(g, p.label());
            case Q14:
                return GremlinQueries.vertex(g, vertexId(p.vertex()));
            case Q15:
                return GremlinQueries.edge(g, edgeId(p.edge()));
            case Q16:
                return GremlinQueries.setVertexProperty(g, vertexId(p.vertex()), p.key(), p.value(), true);
            case Q17:
                return GremlinQueries.setEdgeProperty(g, edgeId(p.edge()), p.key(), p.value(), true);
            case Q18:
                return GremlinQueries.dropVertex(g, vertexId(p.vertex()));
            case Q19:
                return GremlinQueries.dropEdge(g, edgeId(p.edge()));
            case Q20:
                return GremlinQueries.dropVertexProperty(g, vertexId(p.vertex()), p.key());
            case Q21:
                return GremlinQueries.dropEdgeProperty(g, edgeId(p.edge()), p.key());
            case Q22:
                return GremlinQueries.in(g, vertexId(p.vertex()));
            case Q23:
                return GremlinQueries.out(g, vertexId(p.vertex()));
            case Q24:
                return GremlinQueries.both(g, vertexId(p.vertex()), p.label());
            case Q25:
                return GremlinQueries.inLabels(g, vertexId(p.vertex()));
            case Q26:
                return GremlinQueries.outLabels(g, vertexId(p.vertex()));
            case Q27:
                return GremlinQueries.bothLabels(g, vertexId(p.vertex()));
            default:
                throw new IllegalArgumentException("no Gremlin template for query=" + query);
        }
    }

    /** Runs one latency query on the dataset's lookup key. */
    protected long runLatency(GraphTraversalSource g, LatencyQuery query, QueryParams p, DatasetInfo info) {
        String key = info.lookupKey();
        Object value = p.lookupValue();
        switch (query) {
            case IS1:
                return GremlinQueries.is1(g, key, value);
            case IS2:
                return GremlinQueries.is2(g, key, value);
            case IS3:
                return GremlinQueries.is3(g, key, value);
            case IS4:
                return GremlinQueries.is4(g, key, value);
            case KHOP1:
                return GremlinQueries.khop(g, key, value, 1);
            case KHOP2:
                return GremlinQueries.khop(g, key, value, 2);
            case KHOP3:
                return GremlinQueries.khop(g, key, value, 3);
            case KHOP4:
                return GremlinQueries.khop(g, key, value, 4);
            default:
                throw new IllegalArgumentException("no Gremlin template for latency query=" + query);
        }
    }

    /** Q7's targets ({@link QueryParams#targets}, dataset ids) as the system's ids. */
    private Object[] q7Targets(QueryParams p) {
        Object[] targets = new Object[p.targets().size()];
        for (int i = 0; i < targets.length; i++) {
            targets[i] = vertexId(p.targets().get(i));
        }
        return targets;
    }

    private DatasetInfo loaded() {
        DatasetInfo loaded = info;
        if (loaded == null) {
            throw new IllegalStateException("load a dataset before running queries: system=" + name());
        }
        return loaded;
    }

    // ------------------------------------------------------------------ helpers for subclasses

    /** Whether {@code failure} or any of its causes satisfies {@code test}. */
    protected static boolean anyCause(Throwable failure, Predicate<Throwable> test) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 32; t = t.getCause(), depth++) {
            if (test.test(t)) {
                return true;
            }
            for (Throwable suppressed : t.getSuppressed()) {
                if (test.test(suppressed)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** An integer option in [{@code min}, {@code max}], or {@code fallback} if absent. */
    protected static int intOption(Map<String, String> options, String key, int fallback, int min, int max) {
        String raw = options.get(key);
        if (raw == null) {
            return fallback;
        }
        int value;
        try {
            value = Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + key + " must be an integer: " + key + "=" + raw);
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException("option " + key + " must be in [" + min + ", " + max + "]: " + key + "=" + raw);
        }
        return value;
    }

    /** An option that must be one of {@code allowed} (case-insensitive), upper-cased, or {@code fallback} if absent. */
    protected static String choiceOption(Map<String, String> options, String key, String fallback, Set<String> allowed) {
        String raw = options.get(key);
        if (raw == null) {
            return fallback;
        }
        String value = raw.trim().toUpperCase(java.util.Locale.ROOT);
        if (!allowed.contains(value)) {
            throw new IllegalArgumentException("option " + key + " must be one of " + new TreeSet<>(allowed) + ": " + key + "=" + raw);
        }
        return value;
    }
}
