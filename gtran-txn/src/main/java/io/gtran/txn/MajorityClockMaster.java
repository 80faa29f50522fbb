package io.gtran.txn;

import io.gtran.txn.clock.ClockSync;
import io.gtran.txn.membership.MemberView;

/**
 * The clock master where no membership group decides (a cluster in one JVM; the simulator's
 * control run): the smallest member the node counts live, moved when the node acts on a loss
 * (with a majority), agreed pairwise at the rejoin handshake; no lease (docs/cluster-transactions.md,
 * "Time"). Where the group decides, {@link LeasedClockMaster} takes its place.
 */
public final class MajorityClockMaster {
    private MajorityClockMaster() {
    }

    /** Links {@code sync} to {@code view}; call before the view has lost or re-admitted anyone. */
    public static void attach(MemberView view, ClockSync sync) {
        view.onLossActedOn(sync::lost); // the master changes with a majority only
        view.attach(new MemberView.RejoinClock() {
            @Override
            public int master() {
                return sync.master();
            }

            @Override
            public long epoch() {
                return sync.epoch();
            }

            @Override
            public boolean agree(int member, int master, long epoch) {
                return sync.agree(member, master, epoch);
            }

            @Override
            public void readmitted(int member, long fence) {
                sync.readmitted(member, fence);
            }
        });
    }
}
