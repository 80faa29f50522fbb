package io.gtran.txn.membership;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The membership group's log (docs/cluster-transactions.md, "Membership decided by consensus"):
 * entries proposed by any member, committed by a majority of the group, and applied in one order
 * on every member. Across processes it is an Apache Ratis group ({@link RatisMembershipLog}); the
 * members of one JVM share one list ({@link SharedMembershipLog}); the simulator has its own.
 */
public interface MembershipLog extends AutoCloseable {
    /**
     * Starts applying: {@code applier} is handed every committed entry, in log order, once each,
     * one at a time, from the first entry on.
     */
    void start(Consumer<MemberEntry> applier);

    /**
     * Proposes {@code entry}. The future completes once the group committed it, and fails if it
     * could not be committed in time (no leader reachable): it may still be committed later. What
     * a member acts on is the entry applied, never this future.
     */
    CompletableFuture<Void> propose(MemberEntry entry);

    /** What a log message shows of the group: its leader, term and members, or why it has none. */
    String describe();

    /** The group's leader, term and this member's role, as {@code status} prints them. */
    GroupState state();

    /** The group as one member sees it: the leader's node id (-1: none known), the term, this member's role. */
    record GroupState(int leader, long term, String role) {
        public static final GroupState UNKNOWN = new GroupState(-1, 0, "unknown");
    }

    /** Stops the group's part on this node. */
    @Override
    void close();
}
