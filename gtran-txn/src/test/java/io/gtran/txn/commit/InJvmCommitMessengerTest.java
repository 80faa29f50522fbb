package io.gtran.txn.commit;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;

/** {@link CommitMessengerContract} over the in-JVM fabric. */
class InJvmCommitMessengerTest extends CommitMessengerContract {
    @Override
    protected Fabric[] startNodes(int n) {
        InJvmCluster cluster = closeLater(new InJvmCluster());
        Fabric[] fabrics = new Fabric[n];
        for (int i = 0; i < n; i++) {
            fabrics[i] = cluster.join(i);
        }
        return fabrics;
    }
}
