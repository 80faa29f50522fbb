package io.gtran.txn.membership;

import io.gtran.txn.protocol.Outcome;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The state the membership group's log builds, the same on every member once it applied the same
 * entries: which members are lost, and each member's generation (how many times it came back).
 * An entry is applied only if what it assumed still holds (docs/cluster-transactions.md,
 * "Membership decided by consensus"):
 * <ul>
 *   <li>{@code Lost(n, g, by, bg)}: {@code n} is up in generation {@code g}, and the proposer
 *       {@code by} is up in generation {@code bg}, and is not {@code n}. Of the two ends of a cut
 *       that each propose the other's loss, the first entry wins; the second finds its proposer
 *       lost.</li>
 *   <li>{@code Back(n, g, by, bg)}: {@code n} is lost in generation {@code g} and {@code by} is up
 *       in generation {@code bg}; {@code n}'s generation moves on by one.</li>
 * </ul>
 * <ul>
 *   <li>{@code Decided(t, o)}: no outcome of {@code t} was applied before. The first proposed
 *       outcome the log orders is {@code t}'s, for its coordinator and its recoveries alike.</li>
 * </ul>
 * A repeated, late or stale proposal therefore changes nothing. Not thread-safe: its owner applies
 * entries one at a time.
 */
public final class MemberLedger {
    private final Set<Integer> members;
    private final Set<Integer> lost = new TreeSet<>();
    private final Map<Integer, Integer> generations = new HashMap<>();
    /** The outcomes decided through the log, by transaction (few: only those a loss made contested). */
    private final Map<Long, Outcome> outcomes = new HashMap<>();
    private long applied;

    public MemberLedger(Iterable<Integer> members) {
        TreeSet<Integer> all = new TreeSet<>();
        members.forEach(all::add);
        this.members = all;
    }

    /**
     * Applies {@code entry} if what it assumed still holds.
     *
     * @return whether it changed the state
     */
    public boolean apply(MemberEntry entry) {
        applied++;
        if (entry instanceof MemberEntry.Decided d) {
            return outcomes.putIfAbsent(d.txn(), d.outcome()) == null;
        }
        MemberEntry.Change change = (MemberEntry.Change) entry;
        int node = change.node();
        int by = change.by();
        if (!members.contains(node) || !members.contains(by) || node == by || !upIn(by, change.byGeneration())) {
            return false;
        }
        if (change instanceof MemberEntry.Lost) {
            if (!upIn(node, change.generation())) {
                return false;
            }
            lost.add(node);
            return true;
        }
        if (!lost.contains(node) || generation(node) != change.generation()) {
            return false;
        }
        lost.remove(node);
        generations.merge(node, 1, Integer::sum);
        return true;
    }

    private boolean upIn(int node, int generation) {
        return !lost.contains(node) && generation(node) == generation;
    }

    /** Whether the log counts {@code node} lost. */
    public boolean isLost(int node) {
        return lost.contains(node);
    }

    /** How many times {@code node} came back. */
    public int generation(int node) {
        return generations.getOrDefault(node, 0);
    }

    /** {@code txn}'s outcome decided through the log, or null. */
    public Outcome outcome(long txn) {
        return outcomes.get(txn);
    }

    /** The members the log counts lost, ascending. */
    public Set<Integer> lost() {
        return new TreeSet<>(lost);
    }

    /** How many entries were applied (changing the state or not). */
    public long applied() {
        return applied;
    }

    @Override
    public String toString() {
        return "lost=" + lost + " generations=" + generations + " outcomes=" + outcomes.size() + " applied=" + applied;
    }
}
