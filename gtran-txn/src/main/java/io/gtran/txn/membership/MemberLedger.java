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
 *       lost. And a majority of the members stays up: a node cut off from all the others
 *       proposes each one's loss, and those proposals may be ordered after the heal; the second
 *       would leave it alone up, the one member that could re-admit the rest.</li>
 *   <li>{@code Back(n, g, by, bg)}: {@code n} is lost in generation {@code g} and {@code by} is up
 *       in generation {@code bg}; {@code n}'s generation moves on by one.</li>
 * </ul>
 * <ul>
 *   <li>{@code Decided(t, o)}: no outcome of {@code t} was applied before. The first proposed
 *       outcome the log orders is {@code t}'s, for its coordinator and its recoveries alike.</li>
 *   <li>{@code Lease(n, e, u)}: {@code n} is the clock master of epoch {@code e}, the current one,
 *       and {@code u} extends its lease.</li>
 * </ul>
 * The clock master is part of the state: the smallest member at first, in epoch 0; a {@code Lost}
 * of the master moves the role to the smallest member up, in the next epoch, and the new master
 * has no lease until its own {@code Lease} is applied. {@link #handover()} is the end of every
 * earlier master's lease: no timestamp of an earlier epoch reached it, and the new master starts
 * above it. A member that comes back never takes the role back.
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
    private int master;
    private long epoch;
    /** The current master's lease end, on its timescale; MIN_VALUE before its first lease. */
    private long leaseEnd = Long.MIN_VALUE;
    /** The largest lease end of any earlier epoch; MIN_VALUE if none. */
    private long handover = Long.MIN_VALUE;

    public MemberLedger(Iterable<Integer> members) {
        TreeSet<Integer> all = new TreeSet<>();
        members.forEach(all::add);
        this.members = all;
        this.master = all.first();
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
        if (entry instanceof MemberEntry.Lease l) {
            if (l.node() != master || l.epoch() != epoch || l.untilMicros() <= Math.max(leaseEnd, handover)) {
                return false; // an old master's, a stale epoch's, or no extension
            }
            leaseEnd = l.untilMicros();
            return true;
        }
        MemberEntry.Change change = (MemberEntry.Change) entry;
        int node = change.node();
        int by = change.by();
        if (!members.contains(node) || !members.contains(by) || node == by || !upIn(by, change.byGeneration())) {
            return false;
        }
        if (change instanceof MemberEntry.Lost) {
            if (!upIn(node, change.generation()) || !majorityUpAfterOneMoreLoss()) {
                return false;
            }
            lost.add(node);
            if (node == master) {
                handover = Math.max(handover, leaseEnd);
                leaseEnd = Long.MIN_VALUE;
                epoch++;
                master = members.stream().filter(m -> !lost.contains(m)).findFirst().orElseThrow(); // the proposer is up
            }
            return true;
        }
        if (!lost.contains(node) || generation(node) != change.generation()) {
            return false;
        }
        lost.remove(node);
        generations.merge(node, 1, Integer::sum);
        return true;
    }

    /** Whether more than half the members stay up once one more of them is counted lost. */
    private boolean majorityUpAfterOneMoreLoss() {
        return members.size() - lost.size() - 1 > members.size() / 2;
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

    /** The clock master of the current epoch. */
    public int master() {
        return master;
    }

    /** How many times the clock master changed. */
    public long epoch() {
        return epoch;
    }

    /** The current master's lease end on its timescale, in microseconds; MIN_VALUE before its first lease. */
    public long leaseEnd() {
        return leaseEnd;
    }

    /** The end of every earlier master's lease, in microseconds: the new master starts above it; MIN_VALUE if none. */
    public long handover() {
        return handover;
    }

    /** How many entries were applied (changing the state or not). */
    public long applied() {
        return applied;
    }

    @Override
    public String toString() {
        return "lost=" + lost + " generations=" + generations + " outcomes=" + outcomes.size() + " master=" + master
                + " epoch=" + epoch + " applied=" + applied;
    }
}
