package io.gtran.lbv.gtran;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.lbv.LbvSystem;
import io.gtran.lbv.gremlin.GremlinSystemContract;
import io.gtran.lbv.gremlin.TinySocialDataset;
import java.util.Map;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The Gremlin system contract over gtran behind Gremlin Server, queried through the Java driver. */
@Timeout(120)
class GtranRemoteLbvSystemTest extends GremlinSystemContract {
    @Override
    protected LbvSystem open() {
        return new GtranRemoteLbvSystem(Map.of(GtranRemoteLbvSystem.GREMLIN_POOL, "4"));
    }

    @Test
    void loadsIntoTheNodesGraphAndNamesItself() {
        GtranRemoteLbvSystem system = (GtranRemoteLbvSystem) reads;
        assertEquals(TinySocialDataset.VERTICES, system.graph().traversal().V().count().next());
        system.graph().tx().rollback();
        assertEquals(java.util.Set.of("firstName", "name", "ori_id"),
                system.graph().indexes().indexed(org.apache.tinkerpop.gremlin.structure.Vertex.class).keySet(),
                "the node's graph has the indexes");
        assertEquals("gtran-remote", system.name());
        assertEquals("serializable", system.isolation());
    }

    @Test
    void onlyTheConflictStatusIsRetryable() {
        assertTrue(reads.isRetryable(new RuntimeException(new ResponseException(ResponseStatusCode.SERVER_ERROR_TEMPORARY,
                "transaction aborted, retry it: transaction aborted: conflict=WRITE_WRITE txn=1 other=2"))));
        assertFalse(reads.isRetryable(new ResponseException(ResponseStatusCode.SERVER_ERROR, "conflict in the script")));
        assertFalse(reads.isRetryable(new ResponseException(ResponseStatusCode.SERVER_ERROR_TIMEOUT, "timed out")));
    }

    @Test
    void closingStopsTheNode() {
        GtranRemoteLbvSystem system = new GtranRemoteLbvSystem(Map.of());
        system.load(new TinySocialDataset(), (v, e) -> { });
        assertEquals(1, system.execute(io.gtran.lbv.LbvQuery.Q14, vertex(3)));
        system.close();
        assertThrows(IllegalStateException.class, () -> system.execute(io.gtran.lbv.LbvQuery.Q14, vertex(3)));
        system.close(); // twice is fine
    }
}
