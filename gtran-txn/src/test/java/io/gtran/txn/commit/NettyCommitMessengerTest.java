package io.gtran.txn.commit;

import io.gtran.rdma.Fabric;
import io.gtran.txn.NettyNodes;

/** {@link CommitMessengerContract} over the Netty TCP transport on 127.0.0.1, started by name. */
class NettyCommitMessengerTest extends CommitMessengerContract {
    @Override
    protected Fabric[] startNodes(int n) {
        return NettyNodes.start(n);
    }
}
