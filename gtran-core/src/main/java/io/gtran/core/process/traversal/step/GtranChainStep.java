package io.gtran.core.process.traversal.step;

import io.gtran.core.GtranGraph;
import io.gtran.core.GtranHelper;
import io.gtran.core.TransactionScope;
import io.gtran.storage.ElementIds;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.protocol.Chain;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.process.traversal.step.Profiling;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.CountGlobalStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.VertexStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.AbstractStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.ProfileStep;
import org.apache.tinkerpop.gremlin.process.traversal.util.FastNoSuchElementException;
import org.apache.tinkerpop.gremlin.process.traversal.util.MutableMetrics;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

/**
 * A run of vertex hops and label filters ({@code out().in('knows').hasLabel('person').both()})
 * pushed to the nodes that own the vertices ({@code Transaction.runChain}, docs/cluster-
 * transactions.md, "Pushed chains"): a batch of traversers goes to their vertices' owners, each
 * node runs the stages on what it owns and sends the rest straight on, and only the last stage's
 * vertices come back, with the bulk of the traversers that reached each. Gives the vertices the
 * steps it replaces give, in another order, merged by vertex. Put in place by {@code
 * GtranExecutionStrategy} in {@code pushed} execution, only where traversers carry nothing but
 * their object and bulk.
 */
public final class GtranChainStep extends AbstractStep<Vertex, Vertex> implements Profiling {
    /** Traversers sent per run. */
    static final int BATCH = 4096;

    private final Chain chain;
    /** The replaced steps, for the explanation and for reporting a start vertex the transaction does not see. */
    private final List<String> replaced;
    /** The first replaced step if it is a hop, else null (a label filter). */
    private final VertexStep<Vertex> firstHop;
    private ArrayDeque<Traverser.Admin<Vertex>> ready = new ArrayDeque<>();
    private MutableMetrics metrics;
    private TreeSet<Integer> nodes = new TreeSet<>();
    private ElementReads reads;

    public GtranChainStep(Traversal.Admin<?, ?> traversal, Chain chain, List<String> replaced, VertexStep<Vertex> firstHop) {
        super(traversal);
        this.chain = chain;
        this.replaced = replaced;
        this.firstHop = firstHop;
    }

    @Override
    protected Traverser.Admin<Vertex> processNextStart() {
        while (ready.isEmpty()) {
            fill();
        }
        return ready.poll();
    }

    private void fill() {
        List<Traverser.Admin<Vertex>> batch = new ArrayList<>();
        while (batch.size() < BATCH && starts.hasNext()) {
            batch.add(starts.next());
        }
        if (batch.isEmpty()) {
            throw FastNoSuchElementException.instance();
        }
        GtranGraph graph = (GtranGraph) getTraversal().getGraph().get();
        Map<Long, Long> bulks = new LinkedHashMap<>();
        Map<Long, Traverser.Admin<Vertex>> byVertex = new LinkedHashMap<>();
        for (Traverser.Admin<Vertex> t : batch) {
            long v = ours(graph, t.get());
            if (v != ElementIds.NONE) {
                bulks.merge(v, t.bulk(), Long::sum);
                byVertex.putIfAbsent(v, t);
            }
        }
        TransactionScope scope = GtranHelper.scope(graph);
        Chain.Outcome outcome;
        try {
            outcome = scope.txn().runChain(chain, bulks.keySet().stream().mapToLong(Long::longValue).toArray(),
                    bulks.values().stream().mapToLong(Long::longValue).toArray());
        } catch (RuntimeException e) {
            throw scope.translate(e);
        }
        for (long unseen : outcome.unseen()) {
            report(byVertex.get(unseen), unseen);
        }
        if (metrics != null) {
            for (int n : outcome.nodes()) {
                nodes.add(n);
            }
            metrics.setAnnotation("nodes", nodes.toString());
            metrics.incrementCount("messages", outcome.messages());
            metrics.incrementCount("runs", 1);
        }
        long[] results = outcome.vertices();
        Step<?, ?> last = lastReplaced();
        Step<?, ?> next = last.getNextStep() instanceof ProfileStep<?> p ? p.getNextStep() : last.getNextStep();
        if (!(next instanceof CountGlobalStep || next instanceof VertexStep)) {
            GtranBatchedVertexStep.prefetchIds(graph, results, false);
            if (reads == null) {
                reads = ElementReads.after(last);
            }
            reads.readAhead(graph, ElementKind.VERTEX, results);
        }
        Traverser.Admin<Vertex> template = batch.get(0);
        for (int i = 0; i < results.length; i++) {
            Traverser.Admin<Vertex> t = template.split(GtranHelper.vertex(graph, results[i]), this);
            long bulk = outcome.bulks()[i];
            t.setBulk(bulk); // ChainPlanner pushes only where traversers keep a bulk
            ready.add(t);
        }
    }

    /** The last of the steps standing for the replaced ones (this, or a {@link GtranChainedStep}), past profile()'s steps. */
    private Step<?, ?> lastReplaced() {
        Step<?, ?> last = this;
        while (true) {
            Step<?, ?> next = last.getNextStep();
            Step<?, ?> after = next instanceof ProfileStep<?> ? next.getNextStep() : next;
            if (!(after instanceof GtranChainedStep<?>)) {
                return last;
            }
            last = after;
        }
    }

    /** The internal id of this graph's vertex for {@code v}, or {@link ElementIds#NONE} if this graph has none. */
    private static long ours(GtranGraph graph, Vertex v) {
        long id = GtranHelper.vertexId(graph, v);
        if (id != ElementIds.NONE) {
            return id;
        }
        Iterator<Vertex> found = graph.vertices(v.id());
        return found.hasNext() ? GtranHelper.vertexId(graph, found.next()) : ElementIds.NONE;
    }

    /** A vertex the chain did not see at its owner: its own read reports it, as the replaced step would. */
    private void report(Traverser.Admin<Vertex> start, long vertex) {
        if (start != null) {
            if (firstHop != null) {
                start.get().vertices(firstHop.getDirection(), firstHop.getEdgeLabels()).forEachRemaining(x -> { });
            } else {
                start.get().label();
            }
        }
        throw new IllegalStateException("vertex " + vertex + ", reached by " + this + ", is not visible at its owner");
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
    public GtranChainStep clone() {
        GtranChainStep clone = (GtranChainStep) super.clone();
        clone.ready = new ArrayDeque<>();
        clone.nodes = new TreeSet<>();
        clone.metrics = null;
        return clone;
    }

    @Override
    public String toString() {
        return StringFactory.stepString(this, replaced, "pushed");
    }
}
