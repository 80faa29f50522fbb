package io.gtran.lbv.janusgraph;

import io.gtran.lbv.LbvQuery;
import io.gtran.lbv.testkit.LbvContract;
import io.gtran.lbv.testkit.TinySocial;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One JanusGraph server for the class: reads, then writes, then a concurrent mix, all through the driver. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(120)
class JanusGraphServerLbvSystemTest {
    private JanusGraphServerLbvSystem system;
    private final List<long[]> progress = new ArrayList<>();

    @BeforeAll
    void load() {
        system = new JanusGraphServerLbvSystem(Map.of(io.gtran.lbv.gremlin.GremlinSystem.BATCH, "3"));
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
    void loadsIntoTheServersGraphAndNamesItself() {
        long[] last = progress.get(progress.size() - 1);
        assertEquals(8, last[0]);
        assertEquals(12, last[1]);
        assertEquals(8L, system.graph().traversal().V().count().next());
        system.graph().tx().rollback();
        assertEquals("janusgraph-server", system.name());
        assertEquals(JanusGraphLbvSystem.ISOLATION, system.isolation());
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
        System.err.println("janusgraph-server mix: " + result);
        assertEquals(600, result.committed() + result.gaveUp());
    }

    @Test
    @Order(5)
    void lockingFailuresNamedByTheServerAreRetryableOthersNot() {
        assertTrue(system.isRetryable(new RuntimeException(new ResponseException(ResponseStatusCode.SERVER_ERROR,
                "Local lock contention", List.of("org.janusgraph.core.JanusGraphException",
                        "org.janusgraph.diskstorage.locking.PermanentLockingException"), null))));
        assertFalse(system.isRetryable(new ResponseException(ResponseStatusCode.SERVER_ERROR, "schema",
                List.of("org.janusgraph.core.SchemaViolationException"), null)));
        assertFalse(system.isRetryable(new ResponseException(ResponseStatusCode.SERVER_ERROR_TIMEOUT, "timed out")));
    }

    @Test
    @Order(6)
    void closingStopsTheServerAndFreesItsPort() throws Exception {
        JanusGraphServerLbvSystem other = new JanusGraphServerLbvSystem(Map.of());
        other.load(new TinySocial(), (v, e) -> { });
        assertEquals(1, other.execute(LbvQuery.Q14, LbvContract.params(0, -1, -1, null, null, null, Map.of(), 0, null)));
        int port = other.port();
        other.close();
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            assertEquals(port, socket.getLocalPort());
        }
        assertThrows(IllegalStateException.class,
                () -> other.execute(LbvQuery.Q14, LbvContract.params(0, -1, -1, null, null, null, Map.of(), 0, null)));
        other.close(); // twice is fine
    }
}
