package io.gtran.txn;

/** {@link CrossNodeEdgesContract} over Netty (loopback TCP). */
class CrossNodeEdgesNettyTest extends CrossNodeEdgesContract {
    @Override
    protected ClusterNodes.Transport transport() {
        return ClusterNodes.NETTY;
    }
}
