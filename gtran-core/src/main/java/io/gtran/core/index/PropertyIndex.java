package io.gtran.core.index;

import io.gtran.txn.Transaction;
import io.gtran.txn.ValueIndex;
import io.gtran.txn.common.ElementKind;
import java.util.Collection;
import java.util.Map;
import org.apache.tinkerpop.gremlin.process.traversal.Compare;
import org.apache.tinkerpop.gremlin.process.traversal.Contains;
import org.apache.tinkerpop.gremlin.process.traversal.P;

/**
 * A property-value index as a traversal uses it: which look-ups it can answer and how a predicate
 * becomes one. The entries are the node's {@link ValueIndex}, one per member on a cluster, each
 * holding that member's elements (see {@link Indexes} for what a look-up promises). Values that
 * Gremlin's {@code eq} finds equal (1, 1L, 1.0) share a normalised key; an ordered index sorts
 * numbers numerically, then strings, booleans and other values by type.
 */
public final class PropertyIndex {
    final String key;
    final Indexes.Type type;
    private final ElementKind kind;
    private final ValueIndex local;
    private final boolean clustered;

    PropertyIndex(ElementKind kind, ValueIndex local, boolean clustered) {
        this.key = local.key();
        this.type = local.isOrdered() ? Indexes.Type.ORDERED : Indexes.Type.HASH;
        this.kind = kind;
        this.local = local;
        this.clustered = clustered;
    }

    boolean canAnswer(P<?> predicate) {
        if (Indexes.isEquality(predicate)) {
            Object value = predicate.getValue();
            if (predicate.getBiPredicate() == Contains.within) {
                return ((Collection<?>) value).stream().allMatch(this::indexable);
            }
            return indexable(value);
        }
        if (type != Indexes.Type.ORDERED) {
            return false;
        }
        Object bound = predicate.getValue();
        if (!(bound instanceof Number || bound instanceof String) || bound instanceof Number n && Double.isNaN(n.doubleValue())) {
            return false; // other types and NaN compare with nothing in a range; a scan answers
        }
        return predicate.getBiPredicate() == Compare.gt || predicate.getBiPredicate() == Compare.gte
                || predicate.getBiPredicate() == Compare.lt || predicate.getBiPredicate() == Compare.lte;
    }

    /**
     * Whether equality with {@code value} can be looked up: not null (the index holds no nulls), and
     * not a collection, map or array (Gremlin compares their elements by value, 1 equal to 1.0, which
     * the element's own equals does not); on a cluster, a value the other members can be sent.
     */
    private boolean indexable(Object value) {
        return value != null && !(value instanceof Collection) && !(value instanceof Map) && !value.getClass().isArray()
                && (!clustered || ValueIndex.travels(value));
    }

    /**
     * Candidates (a superset) for {@code predicate}, which {@link #canAnswer} accepted, from every
     * member, recording the index reads there; null if some member cannot answer (the caller scans).
     */
    long[] lookUp(Transaction txn, P<?> predicate) {
        if (predicate.getBiPredicate() == Compare.eq) {
            return txn.indexes().lookUp(kind, key, ValueIndex.EQUAL, new Object[] {predicate.getValue()});
        }
        if (predicate.getBiPredicate() == Contains.within) {
            return txn.indexes().lookUp(kind, key, ValueIndex.EQUAL, ((Collection<?>) predicate.getValue()).toArray());
        }
        boolean atLeast = predicate.getBiPredicate() == Compare.gt || predicate.getBiPredicate() == Compare.gte;
        return txn.indexes().lookUp(kind, key, atLeast ? ValueIndex.AT_LEAST : ValueIndex.AT_MOST, new Object[] {predicate.getValue()});
    }

    /** How many (value, element) entries this node's part of the index holds; for tests. */
    int entryCount() {
        return local.entryCount();
    }

    @Override
    public String toString() {
        return key + "(" + type.name().toLowerCase(java.util.Locale.ROOT) + ")";
    }
}
