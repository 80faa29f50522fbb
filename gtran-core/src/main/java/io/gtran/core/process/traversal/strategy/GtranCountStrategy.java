package io.gtran.core.process.traversal.strategy;

import io.gtran.core.process.traversal.step.GtranCountStep;
import io.gtran.core.process.traversal.step.GtranGraphStep;
import java.util.Set;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.CountGlobalStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.NoOpBarrierStep;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;

/**
 * Answers a traversal that starts with {@code V()} or {@code E()}, optionally filtered by one
 * {@code hasLabel(...)} and nothing else, followed by {@code count()}, from the element counters:
 * {@link GtranCountStep} replaces the two steps. Anything more (ids, other filters, step labels,
 * a count inside a child traversal) keeps the ordinary steps.
 */
public final class GtranCountStrategy extends AbstractTraversalStrategy<TraversalStrategy.ProviderOptimizationStrategy>
        implements TraversalStrategy.ProviderOptimizationStrategy {
    private static final GtranCountStrategy INSTANCE = new GtranCountStrategy();

    private GtranCountStrategy() {
    }

    public static GtranCountStrategy instance() {
        return INSTANCE;
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public void apply(Traversal.Admin<?, ?> traversal) {
        if (!traversal.isRoot() || TraversalHelper.onGraphComputer(traversal) || traversal.getSteps().isEmpty()) {
            return;
        }
        if (!(traversal.getStartStep() instanceof GtranGraphStep<?, ?> graphStep)) {
            return;
        }
        GtranCountStep.Countable countable = graphStep.countable();
        if (countable == null) {
            return;
        }
        Step<?, ?> next = graphStep.getNextStep();
        while (next instanceof NoOpBarrierStep && next.getLabels().isEmpty()) {
            next = next.getNextStep();
        }
        if (!(next instanceof CountGlobalStep<?> count)) {
            return;
        }
        GtranCountStep<?> step = new GtranCountStep<>(traversal, countable.edges(), countable.labels());
        count.getLabels().forEach(step::addLabel);
        TraversalHelper.replaceStep((Step) count, step, traversal);
        while (traversal.getStartStep() != step) {
            traversal.removeStep(0); // the graph step and any barrier before the count
        }
    }

    @Override
    public Set<Class<? extends ProviderOptimizationStrategy>> applyPrior() {
        return Set.of(GtranGraphStepStrategy.class);
    }
}
