package io.gtran.core.process.traversal.strategy;

import io.gtran.core.process.traversal.step.GtranGraphStep;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.step.HasContainerHolder;
import org.apache.tinkerpop.gremlin.process.traversal.step.filter.HasStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.GraphStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.GraphStepContract;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.NoOpBarrierStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.HasContainer;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;

/**
 * Replaces each {@code V()}/{@code E()} step with a {@link GtranGraphStep} and folds the {@code
 * has(...)} filters that follow it into that step, so it can answer them from the label index or
 * a property index instead of scanning every element.
 */
public final class GtranGraphStepStrategy extends AbstractTraversalStrategy<TraversalStrategy.ProviderOptimizationStrategy>
        implements TraversalStrategy.ProviderOptimizationStrategy {
    private static final GtranGraphStepStrategy INSTANCE = new GtranGraphStepStrategy();

    private GtranGraphStepStrategy() {
    }

    public static GtranGraphStepStrategy instance() {
        return INSTANCE;
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public void apply(Traversal.Admin<?, ?> traversal) {
        if (TraversalHelper.onGraphComputer(traversal)) {
            return;
        }
        for (GraphStepContract original : TraversalHelper.getStepsOfClass(GraphStepContract.class, traversal)) {
            GtranGraphStep<?, ?> step = new GtranGraphStep<>(original);
            TraversalHelper.replaceStep((Step) original, step, traversal);
            Step<?, ?> current = step.getNextStep();
            while (current instanceof HasStep || current instanceof NoOpBarrierStep) {
                if (current instanceof HasStep) {
                    for (HasContainer has : ((HasContainerHolder<?, ?>) current).getHasContainers()) {
                        if (!GraphStep.processHasContainerIds(step, has)) {
                            step.addHasContainer(has);
                        }
                    }
                    TraversalHelper.copyLabels(current, current.getPreviousStep(), false);
                    traversal.removeStep(current);
                }
                current = current.getNextStep();
            }
        }
    }
}
