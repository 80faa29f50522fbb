package io.gtran.txn;

/** {@link ClusterTransactionsContract} over Netty TCP on 127.0.0.1. */
class ClusterTransactionsNettyTest extends ClusterTransactionsContract {
    @Override
    protected ClusterNodes.Transport transport() {
        return ClusterNodes.NETTY;
    }

    @Override
    protected long bankMillis() {
        return 1_500;
    }
}
