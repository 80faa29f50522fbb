package io.gtran.bench.gc;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.TransactionEngine;
import io.gtran.txn.TxnConfig;
import java.util.Map;

/**
 * One node as the GC benchmark runs it: an in-JVM fabric, a graph store and a transaction engine,
 * opened from one settings map ({@code gtran.storage.*} and {@code gtran.txn.*} keys) and closed
 * together, engine first.
 */
final class GcNode implements AutoCloseable {
    final InJvmCluster cluster = new InJvmCluster();
    final Fabric fabric;
    final GraphStore store;
    final TransactionEngine engine;

    GcNode(Map<String, ?> settings) {
        fabric = cluster.join(0);
        store = GraphStore.open(StoreConfig.from(settings));
        engine = TransactionEngine.open(store, fabric, TxnConfig.from(settings));
    }

    @Override
    public void close() {
        engine.close();
        store.close();
        fabric.close();
        cluster.close();
    }
}
