package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.common.Isolation;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A begin that waits in the clock (a synchronised clock waits out its uncertainty, up to
 * gtran.clock.wait-limit-ms) holds the GC watermark at a floor below the begin time it will take,
 * not at 0: GC goes on freeing what every transaction, that one included, can no longer see.
 */
@Timeout(60)
class GcWhileABeginWaitsTest {
    @Test
    void aBeginWaitingOnTheClockHoldsTheWatermarkAtItsFloorNotAtZero() throws Exception {
        try (GatedClockEngine node = new GatedClockEngine()) {
            TransactionEngine engine = node.engine;
            Transaction setup = engine.begin(Isolation.SERIALIZABLE);
            setup.addVertex(node.store.labels().intern("person"));
            setup.commit();
            long floor = node.clock.current();
            assertTrue(floor > 0);

            Future<Transaction> waiting = node.beginHeld();
            long watermark = engine.localWatermark();
            assertTrue(watermark >= floor, "the watermark fell to " + watermark + " below the floor " + floor
                    + " while a begin waited in the clock");
            node.release();
            Transaction t = waiting.get(10, TimeUnit.SECONDS);
            assertTrue(t.beginTime() > watermark, "the begin time " + t.beginTime() + " is above what GC may have freed: "
                    + watermark);
            assertEquals(t.beginTime(), engine.localWatermark(), "its published begin time holds the watermark now");
            t.commit();
        }
    }
}
