package io.gtran.core.process.traversal.strategy;

import io.gtran.core.GtranGraph;
import io.gtran.core.process.traversal.step.GtranBatchedVertexStep;
import io.gtran.core.process.traversal.step.GtranChainStep;
import io.gtran.core.process.traversal.step.GtranGraphStep;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.VertexStep;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;

/**
 * On a graph over a cluster in {@code batched} execution ({@link GtranGraph#EXECUTION}), replaces
 * each vertex step ({@code out()}, {@code inE()}, ...) with a {@link GtranBatchedVertexStep},
 * which asks each node once per batch of traversers (batches that start small and grow, when the
 * traversal has a {@code limit()} or {@code range()} that may end it early); {@link
 * GtranGraphStep} reads ahead in batches under the same condition ({@link GtranBatchedVertexStep#batches}). Traversals
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

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public void apply(Traversal.Admin<?, ?> traversal) {
        if (!GtranBatchedVertexStep.batches(traversal)) {
            return;
        }
        boolean limited = GtranBatchedVertexStep.limited(traversal);
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
