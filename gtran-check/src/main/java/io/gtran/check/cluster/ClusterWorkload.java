package io.gtran.check.cluster;

import java.io.PrintStream;
import java.util.List;
import java.util.Random;
import java.util.Set;

/** A workload of {@link ClusterCheck}: its keys, one random transaction, and its final phase. */
interface ClusterWorkload {
    /** Creates the keys through node 0 in one transaction; returns the storage id of each key's owner. */
    int[] setup();

    /** One random transaction on node {@code index} (hosts-file order); {@code killed} are storage ids of lost nodes. */
    RemoteNodes.Attempt<?> runOne(int thread, int index, Random random, Set<Integer> killed);

    /**
     * After the load: reads and rewrites every key whose owner (storage id) is in {@code live},
     * each within {@code lockBoundMillis}, and checks the history.
     */
    Report finish(Set<Integer> live, long lockBoundMillis, PrintStream out);

    /**
     * What the final phase found: isolation and bank anomalies, lost acknowledged writes, and
     * problems of the final phase itself (a live key unreadable, a write past the lock bound).
     */
    record Report(List<ClusterInvariants.Finding> anomalies, List<ClusterInvariants.Finding> lost,
            List<ClusterInvariants.Finding> problems, int unavailableKeys, long lockWaitMaxMillis, boolean lockBoundExceeded) {
    }
}
