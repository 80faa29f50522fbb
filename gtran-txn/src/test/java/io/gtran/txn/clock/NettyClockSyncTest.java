package io.gtran.txn.clock;

import io.gtran.rdma.Fabric;
import io.gtran.txn.NettyNodes;

/** {@link ClockSyncContract} over the Netty TCP transport on 127.0.0.1. */
class NettyClockSyncTest extends ClockSyncContract {
    @Override
    protected Fabric[] startNodes(int n) {
        return NettyNodes.start(n);
    }
}
