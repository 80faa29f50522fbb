package io.gtran.lbv.gtran;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.core.GtranGraph;
import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.LbvSystem;
import io.gtran.lbv.gremlin.GremlinSystemContract;
import io.gtran.lbv.gremlin.TinySocialDataset;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.TxnConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;

/** The Gremlin system contract over gtran embedded at SR (the default), plus gtran's own settings. */
class GtranLbvSystemTest extends GremlinSystemContract {
    @Override
    protected LbvSystem open() {
        return new GtranLbvSystem(Map.of());
    }

    @Test
    void indexesTheDatasetKeysAndLooksUpThroughThem() {
        GtranGraph graph = ((GtranLbvSystem) reads).graph();
        assertEquals(Map.of("firstName", "hash", "name", "hash", "ori_id", "hash"),
                graph.indexes().indexed(Vertex.class));
        assertEquals(Map.of("creationDate", "hash"), graph.indexes().indexed(Edge.class));
        GraphTraversalSource g = graph.traversal();
        try {
            String q11 = g.V().has("firstName", "F3").count().explain().toString();
            assertTrue(q11.contains("index=firstName(hash)"), q11);
            String q12 = g.E().has("creationDate", 5006L).count().explain().toString();
            assertTrue(q12.contains("index=creationDate(hash)"), q12);
            String lookup = g.V().has(TinySocialDataset.LOOKUP_KEY, 1002L).both().count().explain().toString();
            assertTrue(lookup.contains("index=ori_id(hash)"), lookup);
        } finally {
            graph.tx().rollback();
        }
    }

    @Test
    void optionsChooseIsolationAndOptimisations() {
        Map<String, Object> defaults = GtranLbvSystem.graphSettings(Map.of());
        assertEquals("SERIALIZABLE", defaults.get(GtranGraph.ISOLATION));
        assertEquals(true, defaults.get(TxnConfig.PRE_READ));
        assertEquals(true, defaults.get(TxnConfig.OPTIMISTIC_VALIDATION));

        Map<String, Object> noOpt = GtranLbvSystem.graphSettings(Map.of("isolation", "SI", "opt", "off", "gtran.txn.gc", "false"));
        assertEquals("SNAPSHOT", noOpt.get(GtranGraph.ISOLATION));
        assertEquals(false, noOpt.get(TxnConfig.PRE_READ));
        assertEquals(false, noOpt.get(TxnConfig.OPTIMISTIC_VALIDATION));
        assertEquals("false", noOpt.get("gtran.txn.gc"), "gtran.* options pass through");

        try (GtranLbvSystem system = new GtranLbvSystem(Map.of("isolation", "si", "opt", "off"))) {
            assertEquals("gtran-noopt", system.name());
            assertEquals("snapshot (MV-OCC optimisations off)", system.isolation());
        }
        assertEquals("serializable", reads.isolation());
        assertEquals("gtran", reads.name());

        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> new GtranLbvSystem(Map.of("isolation", "RC")));
        assertTrue(bad.getMessage().contains("isolation=RC"), bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new GtranLbvSystem(Map.of("opt", "maybe")));
        assertThrows(IllegalArgumentException.class, () -> new GtranLbvSystem(Map.of(TxnConfig.PRE_READ, "false")),
                "the switches go through opt=");
        assertThrows(IllegalArgumentException.class, () -> new GtranLbvSystem(Map.of("threads", "4")));
    }

    @Test
    void externalIdMapsAreSizedForTheDataset() {
        DatasetInfo big = new DatasetInfo("big", 3_000_000, 10_000_000, List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of(), "k");
        Map<String, Object> settings = new HashMap<>();
        GtranLbvSystem.sizeExternalIds(settings, big);
        assertEquals(12_501_024L, settings.get(StoreConfig.EXTERNAL_IDS_MAX));
        Map<String, Object> small = new HashMap<>();
        GtranLbvSystem.sizeExternalIds(small, new TinySocialDataset().info());
        assertEquals((long) StoreConfig.EXTERNAL_IDS_MAX_DEFAULT, small.get(StoreConfig.EXTERNAL_IDS_MAX));
        Map<String, Object> given = new HashMap<>(Map.of(StoreConfig.EXTERNAL_IDS_MAX, "42"));
        GtranLbvSystem.sizeExternalIds(given, big);
        assertEquals("42", given.get(StoreConfig.EXTERNAL_IDS_MAX), "an explicit gtran.storage option wins");
    }
}
