package io.gtran.txn.membership;

import io.gtran.txn.protocol.Outcome;

/**
 * Whether a node may act on a peer's loss that its fabric reported (abort the rounds waiting for
 * the peer, recover the transactions it coordinated): the one decision both ends of a cut must
 * not take each for itself. Two rules, one class each: {@link MemberGroup} (the group's log
 * decides, the default) and {@link HeardMajority} (this node heard a majority lately: the rule
 * before the group, kept for the simulator's control run).
 */
@FunctionalInterface
public interface LossQuorum {
    /**
     * Whether this node may act on {@code peer}'s loss now. False: it asks again at its next tick
     * (a proposal may be under way).
     */
    boolean mayActOnLossOf(int peer);

    /**
     * Whether a loss acted on later than its first ask is still one every member acts on (true for
     * the group's log: its listeners, such as the clock master, are told of it too).
     */
    default boolean ordered() {
        return false;
    }

    /** Where a node's commit layer hears the outcomes decided through the quorum. */
    @FunctionalInterface
    interface OutcomeListener {
        void decided(long txn, Outcome outcome);
    }

    /** Registers the listener every outcome decided through the quorum goes to (once, by the commit layer). */
    default void onOutcome(OutcomeListener listener) {
    }

    /**
     * Proposes {@code outcome} for {@code txn}, whose decision a loss made contested (its coordinator
     * aborts it on a participant's loss; a recovery found every vote YES). The first outcome the
     * quorum orders for {@code txn} is its outcome on every member: the group's log tells the
     * listener of {@link #onOutcome}, on every member. By default the outcome is decided at once,
     * here only ({@code here} is told): each node for itself, the rule before the group.
     */
    default void proposeOutcome(long txn, Outcome outcome, OutcomeListener here) {
        here.decided(txn, outcome);
    }
}
