package io.gtran.lbv.gtran;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.lbv.LbvSystem;
import io.gtran.lbv.gremlin.GremlinSystemContract;
import java.util.Map;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;

/** The Gremlin system contract over TinkerTransactionGraph. */
class TinkerTxLbvSystemTest extends GremlinSystemContract {
    @Override
    protected LbvSystem open() {
        return new TinkerTxLbvSystem(Map.of());
    }

    @Test
    void describesItselfAsReadCommittedAndIndexesTheDatasetKeys() {
        TinkerTxLbvSystem system = (TinkerTxLbvSystem) reads;
        assertEquals("tinkertx", system.name());
        assertTrue(system.isolation().startsWith("read committed"), system.isolation());
        assertEquals(java.util.Set.of("firstName", "name", "ori_id"), system.graph().getIndexedKeys(Vertex.class));
        assertEquals(java.util.Set.of("creationDate"), system.graph().getIndexedKeys(Edge.class));
        assertThrows(IllegalArgumentException.class, () -> new TinkerTxLbvSystem(Map.of("isolation", "SR")),
                "it has one isolation level and no options");
    }
}
