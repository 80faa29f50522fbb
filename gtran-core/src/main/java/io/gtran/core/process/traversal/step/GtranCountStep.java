package io.gtran.core.process.traversal.step;

import io.gtran.core.GtranGraph;
import io.gtran.core.GtranHelper;
import io.gtran.core.TransactionScope;
import io.gtran.txn.Transaction;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.process.traversal.step.Profiling;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.AbstractStep;
import org.apache.tinkerpop.gremlin.process.traversal.util.FastNoSuchElementException;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

/**
 * {@code g.V().count()}, {@code g.E().hasLabel(a, b).count()} and the like, put in place of the
 * graph step and the count by {@code GtranCountStrategy}: one number, read from the transaction's
 * element counters ({@link Transaction#countVertices}, {@link Transaction#countEdges}) without
 * visiting an element. The answer is the one the two steps would give in the same transaction.
 */
public final class GtranCountStep<S> extends AbstractStep<S, Long> implements Profiling {
    private final RemoteCallProfile profile = new RemoteCallProfile();
    private final boolean edges;
    /** The labels counted, distinct; null for all elements. */
    private final List<String> labels;
    private boolean done;

    public GtranCountStep(Traversal.Admin<?, ?> traversal, boolean edges, List<String> labels) {
        super(traversal);
        this.edges = edges;
        this.labels = labels == null ? null : List.copyOf(labels);
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    protected Traverser.Admin<Long> processNextStart() throws NoSuchElementException {
        if (done) {
            throw FastNoSuchElementException.instance();
        }
        done = true;
        GtranGraph graph = (GtranGraph) getTraversal().getGraph().get();
        TransactionScope scope = GtranHelper.scope(graph);
        long count;
        java.util.Map<Integer, Integer> before = null;
        try {
            before = profile.before(scope.txn());
            count = graph.indexes().count(scope.txn(), edges, labels);
        } catch (RuntimeException e) {
            throw scope.translate(e);
        } finally {
            if (before != null) {
                profile.after(scope.txn(), before);
            }
        }
        return getTraversal().getTraverserGenerator().generate(count, (Step) this, 1L);
    }

    @Override
    public void setMetrics(org.apache.tinkerpop.gremlin.process.traversal.util.MutableMetrics metrics) {
        profile.setMetrics(metrics);
    }

    @Override
    public void reset() {
        super.reset();
        done = false;
    }

    @Override
    public GtranCountStep<S> clone() {
        GtranCountStep<S> clone = (GtranCountStep<S>) super.clone();
        clone.done = false;
        return clone;
    }

    @Override
    public String toString() {
        return StringFactory.stepString(this, edges ? "edge" : "vertex", labels == null ? "all" : labels, "counters");
    }

    @Override
    public int hashCode() {
        return super.hashCode() ^ Boolean.hashCode(edges) ^ (labels == null ? 0 : labels.hashCode());
    }

    /** What a count of a {@link GtranGraphStep}'s elements reads ({@link GtranGraphStep#countable}): edges or vertices, of which labels (null: all). */
    public record Countable(boolean edges, List<String> labels) {
    }
}
