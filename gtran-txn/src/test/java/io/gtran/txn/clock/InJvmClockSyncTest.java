package io.gtran.txn.clock;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;

/** {@link ClockSyncContract} over the in-JVM fabric. */
class InJvmClockSyncTest extends ClockSyncContract {
    @Override
    protected Fabric[] startNodes(int n) {
        InJvmCluster cluster = new InJvmCluster(); // holds nothing once the test has closed its members
        Fabric[] fabrics = new Fabric[n];
        for (int i = 0; i < n; i++) {
            fabrics[i] = cluster.join(i);
        }
        return fabrics;
    }
}
