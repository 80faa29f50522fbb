package io.gtran.core.process.traversal.step;

import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.AbstractStep;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

/**
 * Stands where a step that a {@link GtranChainStep} runs used to be, passing on what comes: the
 * traversal keeps the steps it was written with, one per position (as {@code profile()} and
 * anything that finds a step by its index expect), and its explanation says where each went.
 */
public final class GtranChainedStep<S> extends AbstractStep<S, S> {
    private final String replaced;

    public GtranChainedStep(Traversal.Admin<?, ?> traversal, String replaced) {
        super(traversal);
        this.replaced = replaced;
    }

    @Override
    protected Traverser.Admin<S> processNextStart() {
        return starts.next();
    }

    @Override
    public String toString() {
        return StringFactory.stepString(this, replaced, "in the chain before");
    }
}
