package io.gtran.txn;

/** {@link PushedChainsContract} over Netty (loopback TCP). */
class PushedChainsNettyTest extends PushedChainsContract {
    @Override
    protected ClusterNodes.Transport transport() {
        return ClusterNodes.NETTY;
    }
}
