package io.gtran.lbv.neo4j;

import io.gtran.lbv.LbvQuery;
import io.gtran.lbv.testkit.LbvContract;
import io.gtran.lbv.testkit.TinySocial;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.neo4j.graphdb.QueryExecutionException;
import org.neo4j.graphdb.TransientTransactionFailureException;
import org.neo4j.kernel.api.exceptions.Status;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One Neo4j database for the class (start-up is slow): reads, then writes, then a concurrent mix. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(120)
class Neo4jLbvSystemTest {
    private Neo4jLbvSystem system;
    private final List<long[]> progress = new ArrayList<>();

    @BeforeAll
    void load() {
        system = new Neo4jLbvSystem(Map.of(Neo4jLbvSystem.OPT_PAGECACHE, "32m", Neo4jLbvSystem.OPT_BATCH, "3"));
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
        assertTrue(progress.size() > 4, "batch=3 flushes several times: " + progress.size());
        assertEquals("neo4j", system.name());
        assertEquals("read committed (Neo4j's default)", system.isolation());
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
        System.err.println("neo4j mix: " + result);
        assertEquals(600, result.committed() + result.gaveUp());
    }

    @Test
    @Order(5)
    void transientErrorsAreRetryableOthersNot() {
        assertTrue(system.isRetryable(new TransientTransactionFailureException(
                Status.Transaction.DeadlockDetected, "deadlock")));
        assertTrue(system.isRetryable(new RuntimeException(new QueryExecutionException("lock wait", null,
                "Neo.TransientError.Transaction.LockAcquisitionTimeout"))));
        assertFalse(system.isRetryable(new QueryExecutionException("bad", null, "Neo.ClientError.Statement.SyntaxError")));
        assertFalse(system.isRetryable(new IllegalStateException("x")));
    }

    @Test
    @Order(6)
    void badOptionsAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Neo4jLbvSystem(Map.of("pagecahce", "1g")));
        assertTrue(e.getMessage().contains("pagecahce=1g"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Neo4jLbvSystem(Map.of("pagecache", "lots")));
        assertTrue(e.getMessage().contains("pagecache=lots"), e.getMessage());
        assertEquals(512L << 20, Neo4jLbvSystem.bytes("pagecache", "512m"));
    }

    @Test
    @Order(7)
    void closeDeletesTheDatabaseDirectory() throws Exception {
        Path parent = Files.createTempDirectory("lbv-neo4j-test");
        Neo4jLbvSystem other = new Neo4jLbvSystem(Map.of(Neo4jLbvSystem.OPT_DIR, parent.toString(),
                Neo4jLbvSystem.OPT_PAGECACHE, "16m", Neo4jLbvSystem.OPT_PREPARE, "false"));
        other.load(new TinySocial(), (v, e) -> { });
        assertEquals(1, other.execute(LbvQuery.Q14, LbvContract.params(0, -1, -1, null, null, null, Map.of(), 0, null)));
        try (var children = Files.list(parent)) {
            assertEquals(1, children.count());
        }
        other.close();
        try (var children = Files.list(parent)) {
            assertEquals(0, children.count());
        }
        Files.delete(parent);
    }
}
