package io.gtran.txn;

/** {@link ClusterTransactionsContract} over the in-JVM fabric. */
class ClusterTransactionsInJvmTest extends ClusterTransactionsContract {
    @Override
    protected ClusterNodes.Transport transport() {
        return ClusterNodes.IN_JVM;
    }

    @Override
    protected long bankMillis() {
        return 3_000;
    }
}
