package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.GraphStore;
import io.gtran.txn.common.Isolation;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Element counters while a transaction is being born (its status entry announcing, so no fold cuts can be taken). */
@Timeout(60)
class ElementCountsBirthRaceTest {
    /**
     * While one transaction is being born (its status entry announcing), foldCuts returns null and
     * fold(null) returns without resetting sinceFold: from then on every append by every committer
     * calls foldCuts again (a clock tick, a scan of all status-table entries, up to 1,000 spins on
     * the announcing one) instead of once per FOLD_AFTER appends.
     */
    @Test
    void aTransactionBeingBornDoesNotMakeEveryAppendRescanTheStatusTable() throws Exception {
        try (GatedClockEngine node = new GatedClockEngine()) {
            GatedClockEngine.CountingGatedClock clock = node.clock;
            TransactionEngine engine = node.engine;
            GraphStore store = node.store;
            int knows = store.labels().intern("knows");
            Transaction setup = engine.begin(Isolation.SERIALIZABLE);
            long a = setup.addVertex(store.labels().intern("person"));
            setup.commit();
            int n = 1_280;
            long before = clock.calls.get();
            commitEdges(engine, a, knows, n);
            long baselineCalls = clock.calls.get() - before;

            Future<Transaction> born = node.beginHeld(); // its entry stays announcing
            before = clock.calls.get();
            commitEdges(engine, a, knows, n);
            long stuckCalls = clock.calls.get() - before;
            node.release();
            born.get(10, TimeUnit.SECONDS).commit();
            Transaction r = engine.begin(Isolation.SERIALIZABLE);
            assertEquals(2L * n, r.countEdges(knows));
            r.commit();
            assertTrue(stuckCalls <= baselineCalls + n / 8,
                    "every append re-took the fold cuts while a transaction was being born: " + stuckCalls
                            + " clock calls vs " + baselineCalls + " for the same " + n + " commits");
        }
    }

    private static void commitEdges(TransactionEngine engine, long a, int label, int n) {
        for (int i = 0; i < n; i++) {
            Transaction t = engine.begin(Isolation.SERIALIZABLE);
            t.addEdge(a, a, label);
            t.commit();
        }
    }
}
