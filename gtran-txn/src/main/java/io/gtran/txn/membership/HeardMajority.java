package io.gtran.txn.membership;

/**
 * The rule before the membership group: a node acts on a loss if it heard from a majority of the
 * members within the lease ({@link MemberView#hasMajority}). Each end of a one-link cut can hear
 * a majority, so both may act: the simulator runs it to show what the group's log prevents.
 */
public final class HeardMajority implements LossQuorum {
    private final MemberView view;

    public HeardMajority(MemberView view) {
        this.view = view;
    }

    @Override
    public boolean mayActOnLossOf(int peer) {
        return view.hasMajority();
    }

    @Override
    public boolean ordered() {
        return false;
    }

    @Override
    public String toString() {
        return "it has not heard from a majority of the members lately";
    }
}
