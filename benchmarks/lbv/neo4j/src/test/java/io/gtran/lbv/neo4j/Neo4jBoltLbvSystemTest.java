package io.gtran.lbv.neo4j;

import io.gtran.lbv.LatencyQuery;
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
import org.neo4j.driver.exceptions.ClientException;
import org.neo4j.driver.exceptions.TransientException;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One Neo4j database with Bolt on for the class: reads, then writes, then a concurrent mix, all through the driver, then its close. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(120)
class Neo4jBoltLbvSystemTest {
    private Neo4jBoltLbvSystem system;
    private final List<long[]> progress = new ArrayList<>();

    @BeforeAll
    void load() {
        system = new Neo4jBoltLbvSystem(Map.of(Neo4jLbvSystem.OPT_PAGECACHE, "32m", Neo4jLbvSystem.OPT_BATCH, "3"));
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
    void loadReportsProgressAndNamesItself() {
        long[] last = progress.get(progress.size() - 1);
        assertEquals(8, last[0]);
        assertEquals(12, last[1]);
        assertEquals("neo4j-bolt", system.name());
        assertEquals("read committed (Neo4j's default)", system.isolation());
        assertTrue(system.port() > 0, "port=" + system.port());
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
        System.err.println("neo4j-bolt mix: " + result);
        assertEquals(600, result.committed() + result.gaveUp());
    }

    @Test
    @Order(5)
    void transientErrorsAreRetryableOthersNot() {
        assertTrue(system.isRetryable(new TransientException("Neo.TransientError.Transaction.DeadlockDetected", "deadlock")));
        assertTrue(system.isRetryable(new RuntimeException(new ClientException(
                "Neo.ClientError.Statement.EntityNotFound", "Unable to load NODE 4:x:12"))));
        assertFalse(system.isRetryable(new ClientException("Neo.ClientError.Statement.SyntaxError", "bad")));
        assertFalse(system.isRetryable(new IllegalStateException("x")));
    }

    /** Last: closes the class's database (the @AfterAll then has nothing to close). */
    @Test
    @Order(6)
    void closingStopsBoltAndFreesItsPort() throws Exception {
        system.latency(LatencyQuery.KHOP1, LbvContract.params(0, -1, -1, null, null, null, Map.of(), 0, null));
        int port = system.port();
        Neo4jBoltLbvSystem closing = system;
        system = null;
        closing.close();
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            assertEquals(port, socket.getLocalPort());
        }
    }
}
