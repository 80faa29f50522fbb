package io.gtran.txn;

/** {@link DictionaryAgreementContract} over Netty TCP on 127.0.0.1. */
class DictionaryAgreementNettyTest extends DictionaryAgreementContract {
    @Override
    protected ClusterNodes.Transport transport() {
        return ClusterNodes.NETTY;
    }
}
