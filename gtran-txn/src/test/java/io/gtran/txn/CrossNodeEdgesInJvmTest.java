package io.gtran.txn;

/** {@link CrossNodeEdgesContract} over the in-JVM fabric. */
class CrossNodeEdgesInJvmTest extends CrossNodeEdgesContract {
    @Override
    protected ClusterNodes.Transport transport() {
        return ClusterNodes.IN_JVM;
    }
}
