package io.gtran.txn;

import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One node (GC off) whose fabric can pause a thread at its read of another transaction's status
 * ({@link PausingStatusFabric}), and a worker thread to run the transaction that is paused; all
 * closed together, the pause released first.
 */
final class PausingNode implements AutoCloseable {
    final InJvmCluster cluster = new InJvmCluster();
    final PausingStatusFabric fabric = new PausingStatusFabric(cluster.join(0));
    final GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.CHUNK_BYTES, 1 << 16)));
    final TransactionEngine engine = TransactionEngine.open(store, fabric, TxnConfig.from(Map.of(TxnConfig.GC, false)));
    final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "paused-worker");
        t.setDaemon(true);
        return t;
    });

    @Override
    public void close() {
        fabric.release.countDown();
        worker.shutdownNow();
        engine.close();
        store.close();
        fabric.close();
        cluster.close();
    }
}
