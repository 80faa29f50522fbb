package io.gtran.rdma.disni;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** How a long write is made atomic, decided from what {@code ibv_devinfo -v} reports; no device needed. */
class AtomicCapabilityTest {
    private static final String GLOB_DEVICE = """
            hca_id:\tmlx5_0
            \ttransport:\t\t\tInfiniBand (0)
            \tmax_qp:\t\t\t\t131072
            \tatomic_cap:\t\t\tATOMIC_GLOB (2)
            """;
    private static final String HCA_DEVICE = """
            hca_id:\trxe0
            \tatomic_cap:\t\t\tATOMIC_HCA (1)
            """;

    @Test
    void onlyAGlobalDeviceMakesAPlainWriteALongWrite() {
        assertTrue(AtomicCapability.GLOB.plainWritesAreAtomic());
        assertFalse(AtomicCapability.HCA.plainWritesAreAtomic());
        assertFalse(AtomicCapability.NONE.plainWritesAreAtomic());
        assertFalse(AtomicCapability.UNKNOWN.plainWritesAreAtomic());
    }

    @Test
    void theWeakestDeviceCounts() {
        assertEquals(AtomicCapability.GLOB, AtomicCapability.parse(GLOB_DEVICE));
        assertEquals(AtomicCapability.HCA, AtomicCapability.parse(HCA_DEVICE));
        assertEquals(AtomicCapability.HCA, AtomicCapability.parse(GLOB_DEVICE + HCA_DEVICE));
        assertEquals(AtomicCapability.NONE, AtomicCapability.parse(HCA_DEVICE + "\tatomic_cap:\tATOMIC_NONE (0)\n"));
    }

    @Test
    void whatCannotBeReadIsUnknownAndWeakest() {
        assertEquals(AtomicCapability.UNKNOWN, AtomicCapability.parse(""));
        assertEquals(AtomicCapability.UNKNOWN, AtomicCapability.parse("No IB devices found\n"));
        assertEquals(AtomicCapability.UNKNOWN, AtomicCapability.parse("\tatomic_cap:\tATOMIC_NEW (7)\n"));
        assertEquals(AtomicCapability.UNKNOWN, AtomicCapability.parse(GLOB_DEVICE + "\tatomic_cap:\tATOMIC_NEW (7)\n"));
    }

    @Test
    @Timeout(value = 20, unit = SECONDS)
    void aHungCommandIsKilledAfterTheTimeOutAndCountsAsUnknown() {
        long start = System.nanoTime();
        assertEquals(AtomicCapability.UNKNOWN, AtomicCapability.query(List.of("sleep", "30"), Duration.ofMillis(300)));
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(tookMillis < 10_000, "returned after " + tookMillis + " ms, not when the command ended");
    }

    @Test
    @Timeout(value = 20, unit = SECONDS)
    void aCommandsOutputIsParsedAndAFailedOrMissingOneIsUnknown() {
        assertEquals(AtomicCapability.GLOB, AtomicCapability.query(List.of("printf", "%s", GLOB_DEVICE), Duration.ofSeconds(10)));
        assertEquals(AtomicCapability.UNKNOWN, AtomicCapability.query(List.of("sh", "-c", "printf '%s' \"$0\"; exit 3",
                GLOB_DEVICE), Duration.ofSeconds(10)));
        assertEquals(AtomicCapability.UNKNOWN, AtomicCapability.query(List.of("/nonexistent/ibv_devinfo"), Duration.ofSeconds(10)));
    }
}
