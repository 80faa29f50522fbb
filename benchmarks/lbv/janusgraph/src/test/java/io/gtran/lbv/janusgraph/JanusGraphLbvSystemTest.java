package io.gtran.lbv.janusgraph;

import io.gtran.lbv.testkit.LbvContract;
import io.gtran.lbv.testkit.TinySocial;
import org.janusgraph.core.JanusGraphException;
import org.janusgraph.diskstorage.TemporaryBackendException;
import org.janusgraph.diskstorage.locking.PermanentLockingException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One in-memory JanusGraph for the class: reads, then writes, then a concurrent mix. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(120)
class JanusGraphLbvSystemTest {
    private JanusGraphLbvSystem system;
    private final List<long[]> progress = new ArrayList<>();

    @BeforeAll
    void load() {
        system = new JanusGraphLbvSystem(Map.of(io.gtran.lbv.gremlin.GremlinSystem.BATCH, "3"));
        system.load(new TinySocial(), (v, e) -> progress.add(new long[] {v, e}));
    }

    @AfterAll
    void close() {
        if (system != null) {
            system.close();
        }
    }

    @Test
    @Order(1)
    void loadReportsProgressInBatches() {
        long[] last = progress.get(progress.size() - 1);
        assertEquals(8, last[0]);
        assertEquals(12, last[1]);
        assertTrue(progress.size() > 4, "batch=3 commits several times: " + progress.size());
        assertEquals("janusgraph", system.name());
    }

    @Test
    @Order(2)
    void readsOnTheLoadedGraph() {
        LbvContract.checkReads(system);
    }

    @Test
    @Order(3)
    void writesAndTheirEffects() {
        LbvContract.checkWrites(system, 4);
    }

    @Test
    @Order(4)
    void concurrentWriteHeavyMix() throws Exception {
        LbvContract.MixResult result = LbvContract.concurrentMix(system, 2, 300, 42L);
        System.err.println("janusgraph mix: " + result);
        assertEquals(600, result.committed() + result.gaveUp());
    }

    @Test
    @Order(5)
    void lockingAndTemporaryFailuresAreRetryableOthersNot() {
        assertTrue(system.isRetryable(new JanusGraphException("commit failed",
                new PermanentLockingException("Local lock contention"))));
        assertTrue(system.isRetryable(new JanusGraphException(new TemporaryBackendException("timeout"))));
        assertFalse(system.isRetryable(new JanusGraphException("schema")));
        assertFalse(system.isRetryable(new IllegalArgumentException("x")));
    }

    @Test
    @Order(6)
    void badOptionsAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new JanusGraphLbvSystem(Map.of("batch", "-1")));
        assertTrue(e.getMessage().contains("batch=-1"), e.getMessage());
    }
}
