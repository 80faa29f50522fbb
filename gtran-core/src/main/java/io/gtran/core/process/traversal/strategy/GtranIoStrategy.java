package io.gtran.core.process.traversal.strategy;

import io.gtran.core.io.GtranIoRegistry;
import io.gtran.core.process.traversal.step.GtranIoStep;
import java.util.List;
import java.util.Map;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.IO;
import org.apache.tinkerpop.gremlin.process.traversal.step.sideEffect.IoStep;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;

/**
 * Puts {@link GtranIoStep} in place of TinkerPop's {@link IoStep}, so that every {@code
 * g.io(file).read()/write()} on a gtran graph, whatever the format, writes atomically and refuses
 * an empty or truncated file, and adds {@link GtranIoRegistry} so every stored value type can be
 * written. IoStep never goes through {@code Graph.io()}, so a strategy is where
 * gtran can reach it.
 */
public final class GtranIoStrategy extends AbstractTraversalStrategy<TraversalStrategy.ProviderOptimizationStrategy>
        implements TraversalStrategy.ProviderOptimizationStrategy {
    private static final GtranIoStrategy INSTANCE = new GtranIoStrategy();

    private GtranIoStrategy() {
    }

    public static GtranIoStrategy instance() {
        return INSTANCE;
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public void apply(Traversal.Admin<?, ?> traversal) {
        if (!traversal.isRoot() || !(traversal.getStartStep() instanceof IoStep<?> io) || io instanceof GtranIoStep) {
            return;
        }
        GtranIoStep<?> step = new GtranIoStep<>(traversal, io.getFile());
        step.setMode(io.getMode());
        for (Map.Entry<Object, List<Object>> e : io.getParameters().getRaw().entrySet()) {
            for (Object value : e.getValue()) {
                step.configure(e.getKey(), value);
            }
        }
        step.configure(IO.registry, GtranIoRegistry.class.getName()); // as well as any the traversal names
        io.getLabels().forEach(step::addLabel);
        TraversalHelper.replaceStep((Step) io, step, traversal);
    }
}
