package io.gtran.core.process.traversal.step;

import io.gtran.core.GtranGraph;
import io.gtran.core.GtranHelper;
import io.gtran.core.TransactionScope;
import io.gtran.storage.Dictionary;
import io.gtran.txn.common.ElementKind;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.lambda.TokenTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.lambda.ValueTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.step.HasContainerHolder;
import org.apache.tinkerpop.gremlin.process.traversal.step.PathProcessor;
import org.apache.tinkerpop.gremlin.process.traversal.step.Scoping;
import org.apache.tinkerpop.gremlin.process.traversal.step.TraversalParent;
import org.apache.tinkerpop.gremlin.process.traversal.step.filter.FilterStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.ElementMapStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.LabelStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.NoOpBarrierStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.PropertiesStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.PropertyMapStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.sideEffect.IdentityStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.sideEffect.SideEffectStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.CollectingBarrierStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.EmptyStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.HasContainer;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.ProfileStep;
import org.apache.tinkerpop.gremlin.structure.T;

/**
 * What the steps after a step read of each element it emits: its label, and the properties under
 * which keys (or all of them). A batched step reads these ahead for the whole batch, one request
 * per owning node ({@code Transaction.readMany}), so the element-at-a-time reads that follow find
 * them. Looks at the next step, on past steps that let the element through unchanged (filters,
 * side effects, barriers such as {@code order()}), and into the local child traversals of each (a {@code by()}, a {@code has()}'s
 * or {@code where()}'s inner traversal) that start from the element; not into those of steps that
 * work on other objects (a {@code select()}'s, a {@code path()}'s). A filter between the step and
 * a read means some elements are read ahead that the read never reaches: a few more reads for SR
 * validation, never a different answer.
 */
final class ElementReads {
    /** Nothing read ahead. */
    static final ElementReads NONE = new ElementReads(false, new String[0]);

    final boolean label;
    /** The keys read; null: every property. */
    final String[] keys;

    private ElementReads(boolean label, String[] keys) {
        this.label = label;
        this.keys = keys;
    }

    boolean isEmpty() {
        return !label && keys != null && keys.length == 0;
    }

    /** What the steps after {@code step} read of the elements it emits. */
    static ElementReads after(Step<?, ?> step) {
        Collector c = new Collector();
        c.walk(step.getNextStep(), 0);
        return c.done();
    }

    /** What {@code step} itself (its {@code has()} filters) and the steps after it read of the elements it emits. */
    static ElementReads including(Step<?, ?> step) {
        Collector c = new Collector();
        c.read(step, 0);
        c.walk(step.getNextStep(), 0);
        return c.done();
    }

    /**
     * Reads these of {@code elements} (internal ids of one kind) ahead, one request per other
     * node that owns some ({@code Transaction.readMany}), in this thread's transaction. A key this
     * node never saw is left out, as the single reads skip it ({@code GtranVertex.properties}).
     */
    void readAhead(GtranGraph graph, ElementKind kind, long[] elements) {
        if (isEmpty() || elements.length == 0) {
            return;
        }
        int[] ids = null;
        if (keys != null) {
            ids = Arrays.stream(keys).mapToInt(graph.node().store().propertyKeys()::find).filter(k -> k != Dictionary.ABSENT).toArray();
            if (ids.length == 0 && !label) {
                return;
            }
        }
        TransactionScope scope = GtranHelper.scope(graph);
        try {
            scope.txn().readMany(kind, elements, label, ids);
        } catch (RuntimeException e) {
            throw scope.translate(e);
        }
    }

    @Override
    public String toString() {
        return (label ? "label " : "") + (keys == null ? "all properties" : Arrays.toString(keys));
    }

    private static final class Collector {
        /** Child traversals looked into at most this deep. */
        private static final int DEPTH = 4;
        boolean label;
        boolean all;
        final Set<String> keys = new LinkedHashSet<>();

        ElementReads done() {
            return !label && !all && keys.isEmpty() ? NONE : new ElementReads(label, all ? null : keys.toArray(new String[0]));
        }

        /** Steps from {@code step} on, while each lets the element through. */
        void walk(Step<?, ?> step, int depth) {
            for (Step<?, ?> s = step; !(s instanceof EmptyStep); s = s.getNextStep()) {
                read(s, depth);
                if (!passesThrough(s)) {
                    return; // the element is mapped to something else: what follows reads that
                }
            }
        }

        /** Whether the step emits the elements it was given (or some of them), unchanged. */
        private static boolean passesThrough(Step<?, ?> s) {
            return s instanceof FilterStep || s instanceof SideEffectStep || s instanceof IdentityStep
                    || s instanceof CollectingBarrierStep || s instanceof NoOpBarrierStep || s instanceof ProfileStep;
        }

        private void read(Step<?, ?> s, int depth) {
            if (s instanceof PropertiesStep<?> p) {
                keys(p.getPropertyKeys());
            } else if (s instanceof PropertyMapStep<?, ?> p) {
                keys(p.getPropertyTraversal() == null ? p.getPropertyKeys() : new String[0]);
                label |= p.getIncludedTokens() != 0;
            } else if (s instanceof ElementMapStep<?, ?> p) {
                keys(p.getPropertyKeys());
                label = true;
            } else if (s instanceof LabelStep) {
                label = true;
            }
            if (s instanceof HasContainerHolder<?, ?> holder) {
                for (HasContainer has : holder.getHasContainers()) {
                    String key = has.getKey();
                    if (T.label.getAccessor().equals(key)) {
                        label = true;
                    } else if (key != null && !key.startsWith("~")) { // T.id, T.key, T.value: no property of the element
                        keys.add(key);
                    }
                }
            }
            if (s instanceof TraversalParent parent && !(s instanceof Scoping) && !(s instanceof PathProcessor) && depth < DEPTH) {
                for (Traversal.Admin<?, ?> child : parent.getLocalChildren()) {
                    child(child, depth + 1);
                }
            }
        }

        private void child(Traversal.Admin<?, ?> child, int depth) {
            if (child instanceof ValueTraversal<?, ?> value) {
                keys(new String[] {value.getPropertyKey()});
            } else if (child instanceof TokenTraversal<?, ?> token) {
                label |= token.getToken() == T.label;
            } else if (!child.getSteps().isEmpty()) {
                walk(child.getStartStep(), depth);
            }
        }

        /** A step reading {@code names}; none named: every property. */
        private void keys(String[] names) {
            if (names.length == 0) {
                all = true;
            } else {
                Arrays.stream(names).filter(java.util.Objects::nonNull).forEach(keys::add); // a null key reads nothing
            }
        }
    }
}
