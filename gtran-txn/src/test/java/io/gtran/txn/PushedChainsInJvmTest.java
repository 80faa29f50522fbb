package io.gtran.txn;

/** {@link PushedChainsContract} over the in-JVM fabric. */
class PushedChainsInJvmTest extends PushedChainsContract {
    @Override
    protected ClusterNodes.Transport transport() {
        return ClusterNodes.IN_JVM;
    }
}
