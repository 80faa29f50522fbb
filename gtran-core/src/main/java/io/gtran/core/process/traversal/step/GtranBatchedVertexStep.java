package io.gtran.core.process.traversal.step;

import io.gtran.core.GtranGraph;
import io.gtran.core.GtranHelper;
import io.gtran.core.TransactionScope;
import io.gtran.storage.Dictionary;
import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.storage.ElementIds;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.process.traversal.step.Mutating;
import org.apache.tinkerpop.gremlin.process.traversal.step.Profiling;
import org.apache.tinkerpop.gremlin.process.traversal.step.filter.RangeGlobalStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.CountGlobalStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.VertexStep;
import org.apache.tinkerpop.gremlin.process.traversal.util.FastNoSuchElementException;
import org.apache.tinkerpop.gremlin.process.traversal.util.MutableMetrics;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

/**
 * {@code out()}, {@code in()}, {@code both()} and their edge forms over a batch of traversers at a
 * time: the batch's vertices are grouped by owning node and each node is asked once for all of
 * its vertices' adjacency ({@code Transaction.adjacentMany}), so a hop over n vertices of k nodes
 * costs k requests instead of n. Emits exactly what {@link VertexStep} emits, in the same order:
 * each traverser's neighbours (or edges), label by label, then the next traverser's. A vertex the
 * transaction no longer sees is handed to the vertex itself, which reports it as one read would.
 * A {@link VertexStep} to every strategy that looks for one (edge-label verification...). Put in
 * place by {@code GtranExecutionStrategy} where {@link #batches} says so.
 */
public final class GtranBatchedVertexStep<E extends Element> extends VertexStep<E> implements Profiling {
    /** Traversers read ahead per batch. */
    static final int BATCH = 256;
    /** The first batch when a limit may stop the traversal early ({@link #startSmall}); each next one is four times larger. */
    static final int FIRST_SMALL_BATCH = 8;

    private final Direction direction;
    private final String[] edgeLabels;
    private final Class<E> returnClass;
    private final ArrayDeque<Traverser.Admin<E>> ready = new ArrayDeque<>();
    /** Set by profile(): where this step's requests went. */
    private MutableMetrics metrics;
    private final java.util.TreeSet<Integer> nodesAsked = new java.util.TreeSet<>();
    private int batchSize = BATCH;
    /** What the steps after this one read of its results; found on first use, when the traversal is complete. */
    private ElementReads reads;

    public GtranBatchedVertexStep(VertexStep<E> original) {
        super(original.getTraversal(), original.getReturnClass(), original.getDirection(), original.getEdgeLabels());
        this.direction = original.getDirection();
        this.edgeLabels = original.getEdgeLabels();
        this.returnClass = original.getReturnClass();
        original.getLabels().forEach(this::addLabel);
        this.setId(original.getId());
    }

    /**
     * Starts with small batches, growing to {@link #BATCH}: for a traversal with a {@code limit()}
     * or {@code range()}, which may want few results, so that meeting it leaves the traversers
     * behind (and the pages of a scan before them) unread, and their nodes unasked.
     */
    public void startSmall() {
        batchSize = FIRST_SMALL_BATCH;
    }

    @Override
    protected Traverser.Admin<E> processNextStart() {
        while (ready.isEmpty()) {
            fill();
        }
        return ready.poll();
    }

    @SuppressWarnings("unchecked")
    private void fill() {
        List<Traverser.Admin<Vertex>> batch = new ArrayList<>();
        while (batch.size() < batchSize && starts.hasNext()) {
            batch.add(starts.next());
        }
        batchSize = Math.min(BATCH, batchSize * 4);
        if (batch.isEmpty()) {
            throw FastNoSuchElementException.instance();
        }
        GtranGraph graph = (GtranGraph) getTraversal().getGraph().get();
        long[] ids = new long[batch.size()];
        boolean[] ours = new boolean[batch.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = GtranHelper.vertexId(graph, batch.get(i).get());
            ours[i] = ids[i] != ElementIds.NONE;
        }
        boolean edges = Edge.class.isAssignableFrom(returnClass);
        long[][] pairs;
        if (!edges && direction == Direction.BOTH && edgeLabels.length > 1) {
            // as GtranVertex.vertices: every OUT neighbour (label by label), then every IN one
            long[][] out = adjacency(graph, ids, ours, Direction.OUT);
            long[][] in = adjacency(graph, ids, ours, Direction.IN);
            pairs = new long[ids.length][];
            for (int i = 0; i < ids.length; i++) {
                if (out[i] != null && in[i] != null) {
                    pairs[i] = GtranHelper.concat(out[i], in[i]);
                }
            }
        } else {
            pairs = adjacency(graph, ids, ours, direction);
        }
        if (!(getNextStep() instanceof CountGlobalStep || getNextStep() instanceof VertexStep)) {
            long[] results = results(pairs, edges);
            prefetchIds(graph, results, edges); // the next step only counts, or hops on: it needs no ids
            readAhead(graph, results, edges);
        }
        for (int i = 0; i < ids.length; i++) {
            Traverser.Admin<Vertex> t = batch.get(i);
            if (pairs[i] == null) {
                // Not ours, or not seen any more: the vertex's own method answers (or throws) as VertexStep does.
                Iterator<? extends Element> one = edges ? t.get().edges(direction, edgeLabels) : t.get().vertices(direction, edgeLabels);
                one.forEachRemaining(e -> ready.add(t.split((E) e, this)));
                continue;
            }
            for (int p = 0; p < pairs[i].length; p += 2) {
                long edge = pairs[i][p];
                long neighbour = pairs[i][p + 1];
                Element e;
                if (!edges) {
                    e = GtranHelper.vertex(graph, neighbour);
                } else if (direction == Direction.OUT) {
                    e = GtranHelper.edge(graph, edge, ids[i], neighbour);
                } else if (direction == Direction.IN) {
                    e = GtranHelper.edge(graph, edge, neighbour, ids[i]);
                } else {
                    e = GtranHelper.edge(graph, edge);
                }
                ready.add(t.split((E) e, this));
            }
        }
    }

    /**
     * Fetches the shown ids of the batch's results on other nodes, one request per node, so that
     * what comes next (a barrier's equality, {@code id()}, a result sent to a client) finds them.
     */
    static void prefetchIds(GtranGraph graph, long[] elements, boolean edges) {
        TransactionScope scope = GtranHelper.scope(graph);
        try {
            GtranHelper.prefetchIds(graph, scope.txn(), edges ? io.gtran.txn.common.ElementKind.EDGE : io.gtran.txn.common.ElementKind.VERTEX, elements);
        } catch (RuntimeException e) {
            throw scope.translate(e);
        }
    }

    /**
     * Whether {@code traversal} runs batched: on a cluster graph in batched execution, not on a
     * graph computer, and its root traversal writes nothing.
     */
    public static boolean batches(Traversal.Admin<?, ?> traversal) {
        Graph graph = traversal.getGraph().orElse(null);
        if (!(graph instanceof GtranGraph g) || !GtranHelper.batched(g) || TraversalHelper.onGraphComputer(traversal)) {
            return false;
        }
        return !TraversalHelper.hasStepOfAssignableClassRecursively(Mutating.class, TraversalHelper.getRootTraversal(traversal));
    }

    /** Whether {@code traversal}'s root has a {@code limit()} or {@code range()}, which may want few results. */
    public static boolean limited(Traversal.Admin<?, ?> traversal) {
        return TraversalHelper.hasStepOfAssignableClassRecursively(RangeGlobalStep.class, TraversalHelper.getRootTraversal(traversal));
    }

    /** The batch's results: each pair's edge ({@code edges}) or neighbour. */
    private static long[] results(long[][] pairs, boolean edges) {
        int n = 0;
        for (long[] p : pairs) {
            n += p == null ? 0 : p.length / 2;
        }
        long[] elements = new long[n];
        int at = 0;
        for (long[] p : pairs) {
            for (int j = 0; p != null && j < p.length; j += 2) {
                elements[at++] = edges ? p[j] : p[j + 1];
            }
        }
        return elements;
    }

    /**
     * Reads ahead, one request per node, the labels and properties of the batch's results that
     * the steps after this one read ({@link ElementReads}), so their element-at-a-time reads find
     * them in the transaction ({@code Transaction.readMany}).
     */
    private void readAhead(GtranGraph graph, long[] elements, boolean edges) {
        if (reads == null) {
            reads = ElementReads.after(this);
        }
        reads.readAhead(graph, edges ? io.gtran.txn.common.ElementKind.EDGE : io.gtran.txn.common.ElementKind.VERTEX, elements);
        if (metrics != null && !reads.isEmpty()) {
            java.util.TreeSet<Integer> owners = owners(elements);
            owners.remove(graph.node().id());
            metrics.setAnnotation("readAhead", reads.toString());
            metrics.incrementCount("readAheadRequests", owners.size());
        }
    }

    private static java.util.TreeSet<Integer> owners(long[] elements) {
        java.util.TreeSet<Integer> owners = new java.util.TreeSet<>();
        for (long id : elements) {
            owners.add(io.gtran.storage.ElementIds.node(id));
        }
        return owners;
    }

    /** Each vertex's (edge, neighbour) pairs, or null where the vertex's own method must answer. */
    private long[][] adjacency(GtranGraph graph, long[] ids, boolean[] ours, Direction direction) {
        TransactionScope scope = GtranHelper.scope(graph);
        try {
            int[] labels = new int[edgeLabels.length];
            int known = 0;
            for (String label : edgeLabels) {
                int id = graph.node().store().labels().find(label);
                if (id != Dictionary.ABSENT) {
                    labels[known++] = id;
                }
            }
            if (edgeLabels.length > 0 && known == 0) {
                labels = new int[] {EdgeCursor.ANY_LABEL}; // still a validated read of the adjacency; nothing matches
            } else {
                labels = java.util.Arrays.copyOf(labels, known);
            }
            int n = 0;
            for (boolean mine : ours) {
                n += mine ? 1 : 0;
            }
            long[] asked = new long[n];
            for (int i = 0, j = 0; i < ids.length; i++) {
                if (ours[i]) {
                    asked[j++] = ids[i];
                }
            }
            long[][] answers = scope.txn().adjacentMany(asked, GtranHelper.toStore(direction), labels);
            if (metrics != null) {
                profiled(graph, asked);
            }
            long[][] all = new long[ids.length][];
            for (int i = 0, j = 0; i < ids.length; i++) {
                if (ours[i]) {
                    long[] a = answers[j++];
                    all[i] = a != null && edgeLabels.length > 0 && known == 0 ? new long[0] : a;
                }
            }
            return all;
        } catch (RuntimeException e) {
            throw scope.translate(e);
        }
    }

    /** Records in the profile which nodes this batch asked and how many requests went to other nodes. */
    private void profiled(GtranGraph graph, long[] asked) {
        java.util.TreeSet<Integer> owners = owners(asked);
        nodesAsked.addAll(owners);
        owners.remove(graph.node().id());
        metrics.setAnnotation("nodes", nodesAsked.toString());
        metrics.incrementCount("remoteRequests", owners.size());
        metrics.incrementCount("batches", 1);
    }

    @Override
    public void setMetrics(MutableMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void reset() {
        super.reset();
        ready.clear();
    }

    @Override
    public String toString() {
        return StringFactory.stepString(this, direction, java.util.Arrays.asList(edgeLabels), returnClass.getSimpleName().toLowerCase(),
                "batched");
    }
}
