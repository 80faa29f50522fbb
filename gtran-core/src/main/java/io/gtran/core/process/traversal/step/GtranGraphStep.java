package io.gtran.core.process.traversal.step;

import io.gtran.core.GtranGraph;
import io.gtran.core.GtranHelper;
import io.gtran.core.TransactionScope;
import io.gtran.core.index.PropertyIndex;
import io.gtran.storage.EdgeCursor;
import io.gtran.storage.ElementIds;
import io.gtran.txn.Transaction;
import io.gtran.txn.common.ElementKind;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.apache.tinkerpop.gremlin.process.traversal.Compare;
import org.apache.tinkerpop.gremlin.process.traversal.Contains;
import org.apache.tinkerpop.gremlin.process.traversal.P;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.process.traversal.step.HasContainerHolder;
import org.apache.tinkerpop.gremlin.process.traversal.step.Mutating;
import org.apache.tinkerpop.gremlin.process.traversal.step.Profiling;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.GraphStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.GraphStepContract;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.HasContainer;
import org.apache.tinkerpop.gremlin.process.traversal.util.AndP;
import org.apache.tinkerpop.gremlin.process.traversal.util.MutableMetrics;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;
import org.apache.tinkerpop.gremlin.util.iterator.IteratorUtils;

/**
 * {@code V()}/{@code E()} with the {@code has(...)} filters folded in by {@link
 * GtranGraphStepStrategy}. It picks the narrowest access path: ids if given; else a property index
 * that can answer one of the filters; else the label index for a {@code hasLabel}; else a scan.
 * Every filter is then applied to every candidate, in the running transaction, so an index only
 * changes how fast the answer comes, never the answer. {@code toString} (and so {@code profile()}
 * and {@code explain()}) names the access path.
 */
public final class GtranGraphStep<S, E extends Element> extends GraphStep<S, E> implements HasContainerHolder<S, E>, Profiling {
    private final RemoteCallProfile profile = new RemoteCallProfile();

    private final List<HasContainer> hasContainers = new ArrayList<>();
    /** What to read ahead of the elements (in batched execution); found on first use, when the traversal is complete. */
    private ElementReads reads;

    @SuppressWarnings("unchecked")
    public GtranGraphStep(GraphStepContract<S, E> original) {
        super(original.getTraversal(), original.getReturnClass(), original.isStartStep(), original.getIds());
        original.getLabels().forEach(this::addLabel);
        this.setIteratorSupplier(() -> (Iterator<E>) elements());
    }

    private Iterator<? extends Element> elements() {
        GtranGraph graph = (GtranGraph) getTraversal().getGraph().get();
        boolean edge = Edge.class.isAssignableFrom(returnClass);
        if (ids == null) {
            return Collections.emptyIterator();
        }
        if (ids.length > 0) {
            return filtered(edge ? (Iterator<? extends Element>) graph.edges(ids) : graph.vertices(ids));
        }
        TransactionScope scope = GtranHelper.scope(graph);
        Transaction txn = scope.txn();
        try {
            for (HasContainer has : hasContainers) {
                PropertyIndex index = has.getKey() == null ? null : graph.indexes().indexFor(edge, has.getKey(), has.getPredicate());
                long[] candidates = index == null ? null : graph.indexes().lookUp(txn, index, has.getPredicate());
                if (candidates != null) {
                    return filtered(visible(graph, txn, candidates, edge));
                }
            }
            for (HasContainer has : hasContainers) {
                Collection<String> labels = labels(has);
                if (labels != null && labels.size() == 1 && GtranHelper.clustered(graph) && !writes()) {
                    // one label over the members a page at a time (see below); interned as withLabels does
                    return filtered(paged(graph, scope, edge, graph.node().store().labels().intern(labels.iterator().next())));
                }
                if (labels != null) {
                    return filtered(iterator(graph, txn, graph.indexes().withLabels(txn, edge, labels), edge)); // already visible
                }
            }
        } catch (RuntimeException e) {
            throw scope.translate(e);
        }
        if (GtranHelper.clustered(graph) && !writes()) {
            return filtered(paged(graph, scope, edge, EdgeCursor.ANY_LABEL));
        }
        return filtered(edge ? (Iterator<? extends Element>) graph.edges() : graph.vertices());
    }

    /**
     * The elements with {@code label} (or any), this node's first, then other members' a page at a
     * time, as far as the traversal reads (a limit() may stop it). Not for a traversal that writes:
     * a later page would show elements it created meanwhile.
     */
    private static Iterator<? extends Element> paged(GtranGraph graph, TransactionScope scope, boolean edge, int label) {
        ElementKind kind = edge ? ElementKind.EDGE : ElementKind.VERTEX;
        return GtranHelper.elements(graph, scope, scope.txn().scanByMember(kind, label), edge);
    }

    @Override
    protected Traverser.Admin<E> processNextStart() {
        if (!profile.active()) {
            return super.processNextStart();
        }
        Transaction txn = GtranHelper.scope((GtranGraph) getTraversal().getGraph().get()).txn();
        java.util.Map<Integer, Integer> before = profile.before(txn);
        try {
            return super.processNextStart();
        } finally {
            profile.after(txn, before);
        }
    }

    @Override
    public void setMetrics(MutableMetrics metrics) {
        profile.setMetrics(metrics);
    }

    private boolean writes() {
        return TraversalHelper.hasStepOfAssignableClassRecursively(Mutating.class, TraversalHelper.getRootTraversal(getTraversal()));
    }

    /**
     * What a {@code count()} right after this step reads, or null if it needs the elements: only a
     * start {@code V()}/{@code E()} without ids or step labels, filtered by at most one {@code
     * hasLabel}, can be counted from the element counters.
     */
    public GtranCountStep.Countable countable() {
        if (!isStartStep() || ids == null || ids.length > 0 || !getLabels().isEmpty() || hasContainers.size() > 1) {
            return null;
        }
        boolean edge = Edge.class.isAssignableFrom(returnClass);
        if (hasContainers.isEmpty()) {
            return new GtranCountStep.Countable(edge, null);
        }
        Collection<String> labels = labels(hasContainers.get(0));
        return labels == null ? null : new GtranCountStep.Countable(edge, List.copyOf(labels));
    }

    /** The labels a {@code hasLabel} filter accepts, or null if it is not one the label index answers. */
    @SuppressWarnings("unchecked")
    public static Collection<String> labels(HasContainer has) {
        if (!T.label.getAccessor().equals(has.getKey())) {
            return null;
        }
        P<?> predicate = has.getPredicate();
        if (predicate.getBiPredicate() == Compare.eq && predicate.getValue() instanceof String label) {
            return List.of(label);
        }
        if (predicate.getBiPredicate() == Contains.within && predicate.getValue() instanceof Collection<?> values
                && values.stream().allMatch(v -> v instanceof String)) {
            return new java.util.LinkedHashSet<>((Collection<String>) values); // hasLabel(a, a) lists each element once
        }
        return null;
    }

    private static Iterator<? extends Element> visible(GtranGraph graph, Transaction txn, long[] candidates, boolean edge) {
        long[] keep = new long[candidates.length];
        int n = 0;
        for (long id : candidates) {
            if (edge ? txn.edgeExists(id) : txn.vertexExists(id)) {
                keep[n++] = id;
            }
        }
        return iterator(graph, txn, java.util.Arrays.copyOf(keep, n), edge);
    }

    private static Iterator<? extends Element> iterator(GtranGraph graph, Transaction txn, long[] visible, boolean edge) {
        return GtranHelper.elements(graph, txn, visible, edge);
    }

    private Iterator<? extends Element> filtered(Iterator<? extends Element> candidates) {
        Iterator<? extends Element> read = readingAhead(candidates);
        return hasContainers.isEmpty() ? read : IteratorUtils.filter(read, e -> HasContainer.testAll(e, hasContainers));
    }

    /**
     * In batched execution, the candidates up to {@link GtranBatchedVertexStep#BATCH} at a time, with
     * what the filters and the steps after this one read of them read ahead first, one request per
     * node ({@link ElementReads}); else the candidates as they come.
     */
    private Iterator<? extends Element> readingAhead(Iterator<? extends Element> candidates) {
        if (reads == null) {
            reads = GtranBatchedVertexStep.batches(getTraversal()) ? ElementReads.including(this) : ElementReads.NONE;
        }
        ElementReads reads = this.reads;
        if (reads.isEmpty()) {
            return candidates;
        }
        GtranGraph graph = (GtranGraph) getTraversal().getGraph().get();
        ElementKind kind = Edge.class.isAssignableFrom(returnClass) ? ElementKind.EDGE : ElementKind.VERTEX;
        java.util.ArrayDeque<Element> ready = new java.util.ArrayDeque<>();
        // Under a limit, small batches first (as GtranBatchedVertexStep.startSmall), so pages of the scan it never reaches stay unasked.
        boolean limited = GtranBatchedVertexStep.limited(getTraversal());
        return new Iterator<Element>() {
            private int batchSize = limited ? GtranBatchedVertexStep.FIRST_SMALL_BATCH : GtranBatchedVertexStep.BATCH;

            @Override
            public boolean hasNext() {
                if (ready.isEmpty() && candidates.hasNext()) {
                    java.util.stream.LongStream.Builder ids = java.util.stream.LongStream.builder();
                    while (ready.size() < batchSize && candidates.hasNext()) {
                        Element e = candidates.next();
                        ready.add(e);
                        long id = GtranHelper.elementId(graph, e);
                        if (id != ElementIds.NONE) {
                            ids.add(id);
                        }
                    }
                    batchSize = Math.min(GtranBatchedVertexStep.BATCH, batchSize * 4);
                    reads.readAhead(graph, kind, ids.build().toArray());
                }
                return !ready.isEmpty();
            }

            @Override
            public Element next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                return ready.poll();
            }
        };
    }

    @Override
    public List<HasContainer> getHasContainers() {
        return Collections.unmodifiableList(hasContainers);
    }

    @Override
    public void addHasContainer(HasContainer hasContainer) {
        if (hasContainer.getPredicate() instanceof AndP<?> and) {
            for (P<?> predicate : and.getPredicates()) {
                addHasContainer(new HasContainer(hasContainer.getKey(), predicate));
            }
        } else {
            hasContainers.add(hasContainer);
        }
    }

    /** The access path {@link #elements} takes with the graph's current indexes: ids, a property index, the label index or a scan. */
    String accessPath() {
        if (ids != null && ids.length > 0) {
            return "ids";
        }
        if (!(getTraversal().getGraph().orElse(null) instanceof GtranGraph graph)) {
            return "scan";
        }
        boolean edge = Edge.class.isAssignableFrom(returnClass);
        for (HasContainer has : hasContainers) {
            PropertyIndex index = has.getKey() == null ? null : graph.indexes().indexFor(edge, has.getKey(), has.getPredicate());
            if (index != null) {
                return "index=" + index;
            }
        }
        for (HasContainer has : hasContainers) {
            if (labels(has) != null) {
                return "index=label";
            }
        }
        return "scan";
    }

    @Override
    public String toString() {
        if (hasContainers.isEmpty()) {
            return super.toString();
        }
        String kind = returnClass.getSimpleName().toLowerCase(java.util.Locale.ROOT);
        List<Object> parts = new ArrayList<>();
        parts.add(kind);
        parts.add(accessPath()); // first, so that profile()'s truncated step names still show it
        if (ids != null && ids.length > 0) {
            parts.add(java.util.Arrays.toString(ids));
        }
        parts.add(hasContainers);
        return StringFactory.stepString(this, parts.toArray());
    }

    @Override
    public int hashCode() {
        return super.hashCode() ^ hasContainers.hashCode();
    }
}
