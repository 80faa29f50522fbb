package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.clock.Clock;
import io.gtran.txn.clock.ClockUnavailableException;
import io.gtran.txn.clock.LocalClock;
import io.gtran.txn.common.Isolation;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A synchronised clock can fail to give a timestamp ({@link ClockUnavailableException}: its master
 * unreachable past the wait limit). Where the engine takes one, a failure leaves nothing behind: a
 * begin gives its status entry back; a commit that cannot take its commit time aborts, undoing its
 * writes, and readers meeting it are not left waiting on a pending commit time.
 */
@Timeout(30)
class ClockFailureTest {
    /** A {@link LocalClock} that fails while {@link #failing}. */
    private static final class FailingClock implements Clock {
        private final LocalClock inner = new LocalClock();
        volatile boolean failing;

        @Override
        public long next() {
            if (failing) {
                throw new ClockUnavailableException("clock unavailable (test)");
            }
            return inner.next();
        }

        @Override
        public long current() {
            return inner.current();
        }
    }

    private final InJvmCluster cluster = new InJvmCluster();
    private final FailingClock clock = new FailingClock();
    private final GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.CHUNK_BYTES, 1 << 16,
            StoreConfig.EDGE_ROW_CHUNK_BYTES, 1 << 16)));
    private final TransactionEngine engine = TransactionEngine.open(store, cluster.join(0),
            TxnConfig.from(Map.of(TxnConfig.GC, false)), clock);

    @AfterEach
    void close() {
        engine.close();
        store.close();
        cluster.close();
    }

    private long running() {
        return engine.stats().get("running");
    }

    @Test
    void aBeginWithoutATimestampGivesItsEntryBack() {
        clock.failing = true;
        assertThrows(ClockUnavailableException.class, () -> engine.begin(Isolation.SERIALIZABLE));
        assertEquals(0, running());
        clock.failing = false;
        engine.begin(Isolation.SERIALIZABLE).rollback();
    }

    @Test
    void aCommitWithoutACommitTimeAbortsAndUndoesItsWrites() throws Exception {
        int label = store.labels().intern("v");
        int key = store.propertyKeys().intern("p");
        Transaction setup = engine.begin(Isolation.SERIALIZABLE);
        long v = setup.addVertex(label);
        setup.setVertexProperty(v, key, 1);
        setup.commit();

        Transaction t = engine.begin(Isolation.SERIALIZABLE);
        long created = t.addVertex(label);
        t.setVertexProperty(v, key, 2);
        clock.failing = true; // the commit time, and the abort's GC bookkeeping after it, fail
        assertThrows(ClockUnavailableException.class, t::commit);
        assertFalse(t.isActive() || t.isCommitted(), "aborted");
        assertEquals(0, running(), "its status entry is released");
        clock.failing = false;

        Transaction r = engine.begin(Isolation.SNAPSHOT);
        assertFalse(r.vertexExists(created), "the created vertex is gone");
        assertEquals(1, r.vertexProperty(v, key), "the update is undone");
        r.rollback();
        Transaction w = engine.begin(Isolation.SERIALIZABLE);
        w.setVertexProperty(v, key, 3); // the old version's end word is free again: no write-write conflict
        w.commit();
        assertTrue(w.isCommitted());
        engine.gc().runOnce(); // items the failed abort filed without a time stay, and harm nothing
    }
}
