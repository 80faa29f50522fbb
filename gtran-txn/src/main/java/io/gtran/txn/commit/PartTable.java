package io.gtran.txn.commit;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * A node's parts of other nodes' transactions, with the highest sequence it has seen in each of
 * their coordinators' status slots ({@link SlotSequences}): what it holds, and what it held and
 * forgot (docs/cluster-transactions.md, "Forgetting a decided part"). Messages of one transaction
 * arrive on several threads at once, so the order of two steps matters: a part's sequence is noted
 * seen only once the part is in the table, and {@link #forgotten} reads the sequences before the
 * parts. A thread that finds a sequence seen then also finds its part, and never takes a
 * transaction whose part another thread is making for one decided and forgotten. Thread-safe.
 */
final class PartTable<P> {
    private final ConcurrentMap<Long, P> parts;
    private final SlotSequences sequences = new SlotSequences();
    private final Supplier<P> newPart;

    PartTable(Supplier<P> newPart) {
        this(newPart, new ConcurrentHashMap<>());
    }

    /** A table over {@code parts} (tests pass a map that lets other steps run between two of its reads). */
    PartTable(Supplier<P> newPart, ConcurrentMap<Long, P> parts) {
        this.newPart = newPart;
        this.parts = parts;
    }

    /** {@code txn}'s part here, or null. */
    P get(long txn) {
        return parts.get(txn);
    }

    /** Whether this node holds a part of {@code txn}. */
    boolean holds(long txn) {
        return parts.containsKey(txn);
    }

    /** {@code txn}'s part, made if there is none; its sequence is then seen. */
    P part(long txn) {
        P part = parts.computeIfAbsent(txn, t -> newPart.get());
        sequences.saw(txn);
        return part;
    }

    /** Whether {@code txn} has no part here and is not new here: it was decided and forgotten, or passed this node by. */
    boolean forgotten(long txn) {
        return sequences.seenSince(txn) && !parts.containsKey(txn);
    }

    /** The highest sequence seen here in {@code txn}'s slot, or -1. */
    long highestSeen(long txn) {
        return sequences.highestSeen(txn);
    }

    /** Whether a later transaction of {@code txn}'s slot has been seen here: its round is over. */
    boolean laterSeen(long txn) {
        return sequences.laterSeen(txn);
    }

    /** {@code node} restarted: its sequences start again (see {@link SlotSequences#restarted}). */
    void restarted(int node) {
        sequences.restarted(node);
    }

    /** Drops {@code txn}'s part; later messages of it find it forgotten. */
    void remove(long txn) {
        parts.remove(txn);
    }

    void forEach(BiConsumer<Long, P> action) {
        parts.forEach(action);
    }

    /** The parts held, a live view. */
    Set<Map.Entry<Long, P>> entries() {
        return parts.entrySet();
    }
}
