package io.gtran.txn;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.common.Isolation;
import java.util.HashMap;
import java.util.Map;

/**
 * One node for tests: an in-JVM fabric, a small store and a transaction engine, closed together.
 * Settings may carry {@code gtran.txn.*} and {@code gtran.storage.*} keys.
 */
public final class TxnFixture implements AutoCloseable {
    public final InJvmCluster cluster = new InJvmCluster();
    public final Fabric fabric;
    public final GraphStore store;
    public final TransactionEngine engine;

    public TxnFixture() {
        this(Map.of());
    }

    public TxnFixture(Map<String, ?> settings) {
        Map<String, Object> all = new HashMap<>();
        all.put(StoreConfig.CHUNK_BYTES, 1 << 16);
        all.put(StoreConfig.EDGE_ROW_CHUNK_BYTES, 1 << 16);
        all.putAll(settings);
        fabric = cluster.join(0);
        store = GraphStore.open(StoreConfig.from(all));
        engine = TransactionEngine.open(store, fabric, TxnConfig.from(all));
    }

    public Transaction begin(Isolation isolation) {
        return engine.begin(isolation);
    }

    public int label(String name) {
        return store.labels().intern(name);
    }

    public int key(String name) {
        return store.propertyKeys().intern(name);
    }

    @Override
    public void close() {
        engine.close();
        store.close();
        fabric.close();
        cluster.close();
    }
}
