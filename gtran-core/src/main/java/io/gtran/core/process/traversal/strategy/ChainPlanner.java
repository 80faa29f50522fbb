package io.gtran.core.process.traversal.strategy;

import io.gtran.core.GtranGraph;
import io.gtran.core.GtranHelper;
import io.gtran.core.process.traversal.step.GtranChainStep;
import io.gtran.core.process.traversal.step.GtranChainedStep;
import io.gtran.core.process.traversal.step.GtranGraphStep;
import io.gtran.txn.protocol.Chain;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.step.filter.HasStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.CountGlobalStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.NoOpBarrierStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.VertexStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.HasContainer;
import org.apache.tinkerpop.gremlin.process.traversal.traverser.TraverserRequirement;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;
import org.apache.tinkerpop.gremlin.structure.Graph;

/**
 * Finds the runs of steps that {@link GtranChainStep} can push to the owners: at least two vertex
 * hops ({@code out()}, {@code in('knows')}, {@code both()} to vertices; the last may go to edges
 * that are only counted), with label filters ({@code hasLabel}) and TinkerPop's bulking barriers
 * between them, in a root traversal whose traversers carry nothing of their own but their object
 * and bulk (no path, no step labels, no sack, no loop counters; the side effects they share are
 * the traversal's), so that a traverser may be merged with another at the same vertex and continue
 * anywhere. {@link GtranExecutionStrategy} calls it for traversals that write nothing and have no
 * {@code limit()} or {@code range()} (a chain runs to the end before the first result).
 */
final class ChainPlanner {
    /** What traversers may need: side effects are the traversal's, the same for every traverser, so merging loses none. */
    private static final Set<TraverserRequirement> PLAIN = EnumSet.of(TraverserRequirement.OBJECT, TraverserRequirement.BULK,
            TraverserRequirement.SIDE_EFFECTS);

    private ChainPlanner() {
    }

    /**
     * Whether {@code traversal} may have chains pushed: the root of a traversal on a graph in
     * pushed execution, with plain traversers that keep a bulk.
     */
    static boolean pushes(Traversal.Admin<?, ?> traversal) {
        Graph graph = traversal.getGraph().orElse(null);
        if (!(graph instanceof GtranGraph g) || !GtranHelper.pushed(g) || !traversal.isRoot() || TraversalHelper.hasLabels(traversal)) {
            return false;
        }
        if (traversal.getSideEffects().getSackInitialValue() != null) {
            return false;
        }
        Set<TraverserRequirement> needed = EnumSet.noneOf(TraverserRequirement.class);
        for (Step<?, ?> step : traversal.getSteps()) {
            needed.addAll(step.getRequirements());
        }
        // Traversers that keep a bulk: a chain's results come merged by vertex, and traversers
        // without one would have to be made one per walk, all at once, where the steps replaced
        // stream them.
        return PLAIN.containsAll(needed) && needed.contains(TraverserRequirement.BULK);
    }

    /**
     * Replaces each run of {@code traversal}'s steps that makes a chain of two or more hops with a
     * {@link GtranChainStep} and, for each step after the first, a {@link GtranChainedStep}.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static void push(Traversal.Admin<?, ?> traversal) {
        List<Step> steps = new ArrayList<>(traversal.getSteps());
        for (int i = steps.size() - 1; i >= 0; i--) {
            if (!chainable(steps.get(i)) || steps.get(i) instanceof NoOpBarrierStep || (i > 0 && chainable(steps.get(i - 1)))) {
                continue; // not the first step of a run
            }
            int end = i;
            int hops = 0;
            for (int j = i; j < steps.size(); j++) {
                if (countedEdges(steps, j)) {
                    end = j;
                    hops++;
                    break; // the run's last step: only counted after it
                }
                if (!chainable(steps.get(j))) {
                    break;
                }
                if (!(steps.get(j) instanceof NoOpBarrierStep)) {
                    end = j;
                    hops += isHop(steps.get(j)) ? 1 : 0;
                }
            }
            if (hops < 2) {
                continue;
            }
            Chain chain = Chain.empty();
            List<String> replaced = new ArrayList<>();
            for (int j = i; j <= end; j++) {
                Step step = steps.get(j);
                replaced.add(step.toString());
                if (isHop(step) || countedEdges(steps, j)) {
                    VertexStep<?> hop = (VertexStep<?>) step;
                    chain = chain.hop(GtranHelper.toStore(hop.getDirection()), hop.getEdgeLabels());
                } else if (step instanceof HasStep<?> has) {
                    for (HasContainer container : has.getHasContainers()) {
                        chain = chain.hasLabel(labels(container).toArray(new String[0]));
                    }
                }
            }
            VertexStep firstHop = isHop(steps.get(i)) ? (VertexStep) steps.get(i) : null;
            GtranChainStep pushed = new GtranChainStep(traversal, chain, replaced, firstHop);
            for (int j = end; j > i; j--) {
                TraversalHelper.replaceStep(steps.get(j), new GtranChainedStep<>(traversal, steps.get(j).toString()), traversal);
            }
            TraversalHelper.replaceStep(steps.get(i), pushed, traversal);
        }
    }

    private static boolean isHop(Step<?, ?> step) {
        return step instanceof VertexStep<?> v && v.returnsVertex() && step.getLabels().isEmpty();
    }

    /**
     * Whether step {@code j} goes to edges that are only counted ({@code out().count()}, which
     * TinkerPop's AdjacentToIncidentStrategy turns into {@code outE().count()}): as many as the
     * hop to the vertices at their other ends gives, so it may end a chain as that hop.
     */
    @SuppressWarnings("rawtypes")
    private static boolean countedEdges(List<Step> steps, int j) {
        Step<?, ?> step = steps.get(j);
        return step instanceof VertexStep<?> v && v.returnsEdge() && step.getLabels().isEmpty() && j + 1 < steps.size()
                && steps.get(j + 1) instanceof CountGlobalStep;
    }

    private static boolean chainable(Step<?, ?> step) {
        if (!step.getLabels().isEmpty()) {
            return false;
        }
        if (isHop(step) || step instanceof NoOpBarrierStep) {
            return true;
        }
        if (step.getClass() != HasStep.class) {
            return false;
        }
        for (HasContainer container : ((HasStep<?>) step).getHasContainers()) {
            if (labels(container) == null) {
                return false;
            }
        }
        return true;
    }

    /** The labels a {@code hasLabel} container keeps (at least one), or null if it is another filter. */
    private static Collection<String> labels(HasContainer container) {
        Collection<String> labels = GtranGraphStep.labels(container);
        return labels == null || labels.isEmpty() ? null : labels;
    }
}
