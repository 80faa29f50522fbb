package io.gtran.core;

import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.step.Mutating;
import org.apache.tinkerpop.gremlin.process.traversal.step.filter.RangeGlobalStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.VertexStep;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;
import org.apache.tinkerpop.gremlin.structure.Graph;

/**
 * On a graph over a cluster in {@code batched} execution ({@link GtranGraph#EXECUTION}), replaces
 * each vertex step ({@code out()}, {@code inE()}, ...) with a {@link GtranBatchedVertexStep},
 * which asks each node once per batch of traversers (batches that start small and grow, when the
 * traversal has a {@code limit()} or {@code range()} that may end it early); {@link
 * GtranGraphStep} reads ahead in batches under the same condition ({@link #batches}). Traversals
 * that write are left alone: reading ahead of a write could read before it, where the lazy order
 * of the element-at-a-time steps reads after it (the same rule TinkerPop's LazyBarrierStrategy
 * follows). In {@code pushed} execution, runs of vertex hops are first replaced with {@link
 * GtranChainStep}s where {@link ChainPlanner} allows it.
 */
public final class GtranExecutionStrategy extends AbstractTraversalStrategy<TraversalStrategy.ProviderOptimizationStrategy>
        implements TraversalStrategy.ProviderOptimizationStrategy {
    private static final GtranExecutionStrategy INSTANCE = new GtranExecutionStrategy();

    private GtranExecutionStrategy() {
    }

    public static GtranExecutionStrategy instance() {
        return INSTANCE;
    }

    /**
     * Whether {@code traversal} runs batched: on a cluster graph in batched execution, not on a
     * graph computer, and its root traversal writes nothing.
     */
    static boolean batches(Traversal.Admin<?, ?> traversal) {
        Graph graph = traversal.getGraph().orElse(null);
        if (!(graph instanceof GtranGraph g) || !g.batched() || TraversalHelper.onGraphComputer(traversal)) {
            return false;
        }
        return !TraversalHelper.hasStepOfAssignableClassRecursively(Mutating.class, TraversalHelper.getRootTraversal(traversal));
    }

    /** Whether {@code traversal}'s root has a {@code limit()} or {@code range()}, which may want few results. */
    static boolean limited(Traversal.Admin<?, ?> traversal) {
        return TraversalHelper.hasStepOfAssignableClassRecursively(RangeGlobalStep.class, TraversalHelper.getRootTraversal(traversal));
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public void apply(Traversal.Admin<?, ?> traversal) {
        if (!batches(traversal)) {
            return;
        }
        boolean limited = limited(traversal);
        if (!limited && ChainPlanner.pushes(traversal)) {
            ChainPlanner.push(traversal);
        }
        for (VertexStep original : TraversalHelper.getStepsOfClass(VertexStep.class, traversal)) {
            GtranBatchedVertexStep<?> batched = new GtranBatchedVertexStep<>(original);
            if (limited) {
                batched.startSmall();
            }
            TraversalHelper.replaceStep((Step) original, batched, traversal);
        }
    }
}
