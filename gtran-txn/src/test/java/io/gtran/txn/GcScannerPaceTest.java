package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.agent.IdlePause;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The GC scanner of an idle node backs off (doubling its pause up to a cap) and returns to its
 * interval at the first pass that finds work: an idle node reads its peers' watermarks a few
 * times a second, not fifty.
 */
@Timeout(60)
class GcScannerPaceTest {
    @Test
    void anIdlePassDoublesThePauseUpToTheCap() {
        assertEquals(40, IdlePause.next(20, true, 20, 320));
        assertEquals(320, IdlePause.next(160, true, 20, 320));
        assertEquals(320, IdlePause.next(320, true, 20, 320));
    }

    @Test
    void aPassThatFindsWorkGoesBackToTheInterval() {
        assertEquals(20, IdlePause.next(320, false, 20, 320));
        assertEquals(20, IdlePause.next(20, false, 20, 320));
    }

    /**
     * With a 1 ms interval and nothing to do, a node runs about ten passes in a second (1, 2, 4,
     * ... 320 ms), not a thousand; then a transaction's garbage brings the interval back and is
     * recycled within a few passes.
     */
    @Test
    void anIdleNodeRunsFewPassesAndStillRecyclesWhatComes() throws Exception {
        try (TxnFixture node = new TxnFixture(Map.of(TxnConfig.GC, true, TxnConfig.GC_INTERVAL_MS, 1))) {
            long before = passes(node);
            Thread.sleep(1_000);
            long idlePasses = passes(node) - before;
            assertTrue(idlePasses < 40, "an idle scanner ran " + idlePasses + " passes in a second");

            Transaction txn = node.begin(io.gtran.txn.common.Isolation.SERIALIZABLE);
            txn.addVertex(node.label("v"));
            txn.rollback(); // what it wrote is garbage at once
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (recycled(node) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(recycled(node) > 0, "the rolled-back vertex was not recycled: " + node.engine.gc().stats());
        }
    }

    private static long recycled(TxnFixture node) {
        return node.engine.gc().stats().entrySet().stream()
                .filter(e -> e.getKey().startsWith("recycled.")).mapToLong(Map.Entry::getValue).sum();
    }

    private static long passes(TxnFixture node) {
        return node.engine.gc().stats().get("passes");
    }
}
