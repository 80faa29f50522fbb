package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.ForwardingFabric;
import io.gtran.rdma.ForwardingRegion;
import io.gtran.rdma.Region;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.local.StatusTable;
import io.gtran.txn.local.StatusTableDescriptor;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A fabric that pauses one thread when it reads another transaction's status: the window between
 * reading a version word that holds a transaction id and reading that transaction's status, in
 * which the transaction may finish, rewrite its words and release its status entry (so the reader's
 * {@code inspect} answers RETRY). {@link #pauseAt} arms it; {@link #reached} opens once the thread
 * is paused; {@link #release} lets it go on.
 */
final class PausingStatusFabric extends ForwardingFabric {
    private final AtomicReference<Thread> pauseThread = new AtomicReference<>();
    private final AtomicLong offset = new AtomicLong(-1);
    final CountDownLatch reached = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    PausingStatusFabric(Fabric delegate) {
        super(delegate);
    }

    /** Pauses {@code thread} once, at its next read of {@code txnId}'s status entry. */
    void pauseAt(Thread thread, long txnId) {
        offset.set(StatusTableDescriptor.offset(TxnWords.slot(txnId)) + StatusTableDescriptor.TXN_ID_OFFSET);
        pauseThread.set(thread);
    }

    @Override
    public Region register(String name, long bytes) {
        Region region = delegate().register(name, bytes);
        if (!StatusTable.REGION_NAME.equals(name)) {
            return region;
        }
        return new ForwardingRegion(region) {
            @Override
            public long readLong(long at) {
                if (at == offset.get() && pauseThread.compareAndSet(Thread.currentThread(), null)) {
                    reached.countDown();
                    await(release);
                }
                return super.readLong(at);
            }
        };
    }

    static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(20, TimeUnit.SECONDS), "latch timed out");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
