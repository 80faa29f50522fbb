package io.gtran.txn;

/** {@link DictionaryAgreementContract} over the in-JVM fabric. */
class DictionaryAgreementInJvmTest extends DictionaryAgreementContract {
    @Override
    protected ClusterNodes.Transport transport() {
        return ClusterNodes.IN_JVM;
    }
}
