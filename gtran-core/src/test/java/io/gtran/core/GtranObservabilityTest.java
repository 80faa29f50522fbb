package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.common.ConflictKind;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What an operator sees of a graph: {@code stats()} and the words of a conflict. */
class GtranObservabilityTest {
    private final TestGraphs opened = new TestGraphs();

    @AfterEach
    void cleanUp() {
        opened.close();
    }

    /** Another thread's transaction writes {@code key} of {@code id} and stays open. */
    private void holdWrite(GtranGraph graph, Object id, String key) throws Exception {
        opened.thread().submit(() -> graph.vertices(id).next().property(key, -1)).get(30, TimeUnit.SECONDS);
    }

    @Test
    @Timeout(60)
    void aConflictNamesThePropertyKeyByItsName() throws Exception {
        GtranGraph graph = opened.open("SERIALIZABLE");
        graph.addVertex("padding", 0); // so that 'balance' is not the first property key, id 0
        Vertex account = graph.addVertex("person");
        account.property("balance", 100);
        graph.tx().commit();
        holdWrite(graph, account.id(), "balance");
        TransactionAbortedException e = assertThrows(TransactionAbortedException.class,
                () -> graph.vertices(account.id()).next().property("balance", 50));
        assertEquals(ConflictKind.WRITE_WRITE, e.conflict().kind());
        assertTrue(e.getMessage().contains("on=PROPERTY(") && e.getMessage().contains("key=balance)"), e.getMessage());
        assertFalse(e.getMessage().matches(".*key=\\d.*"), e.getMessage());
    }

    @Test
    @Timeout(60)
    void aScanConflictNamesTheLabelByItsName() throws Exception {
        GtranGraph graph = opened.open("SERIALIZABLE");
        graph.addVertex("padding"); // so that 'person' is not the first label, id 0
        graph.addVertex("person");
        graph.tx().commit();
        assertEquals(1L, (long) graph.traversal().V().hasLabel("person").count().next()); // scans the label
        graph.addVertex("note");
        opened.thread().submit(() -> {
            graph.addVertex("person");
            graph.tx().commit();
        }).get(30, TimeUnit.SECONDS);
        TransactionAbortedException e = assertThrows(TransactionAbortedException.class, () -> graph.tx().commit());
        assertEquals(ConflictKind.READ_WRITE, e.conflict().kind(), e.getMessage());
        assertTrue(e.getMessage().contains("label=person"), e.getMessage());
    }

    @Test
    @Timeout(60)
    void statsCountCommitsAbortsByKindAndShowGcAndPools() throws Exception {
        GtranGraph graph = opened.open("SERIALIZABLE");
        Map<String, Long> before = graph.stats();
        for (String key : new String[] {"commits", "rollbacks", "running", "rct.entries", "orphans.rolledBack",
                "gc.backlog", "gc.passes", "gc.versions.freed", "store.vertices", "store.edges",
                "store.liveSlots.vertex-header", "store.liveSlots.mv-tuple", "store.reservedBytes.total"}) {
            assertNotNull(before.get(key), () -> key + " missing from " + before);
        }
        for (ConflictKind kind : ConflictKind.values()) {
            assertEquals(0L, before.get("aborts." + kind), () -> "aborts." + kind + " in " + before);
        }

        Vertex v = graph.addVertex("name", "a");
        graph.tx().commit();
        holdWrite(graph, v.id(), "name");
        assertThrows(TransactionAbortedException.class, () -> graph.vertices(v.id()).next().property("name", "b"));

        Map<String, Long> after = graph.stats();
        assertEquals(before.get("commits") + 1, after.get("commits"), after::toString);
        assertEquals(1L, after.get("aborts.WRITE_WRITE"), after::toString);
        assertEquals(1L, after.get("store.vertices"), after::toString);
        assertTrue(after.get("store.liveSlots.vertex-header") >= 1, after::toString);
        assertEquals(before.keySet(), after.keySet(), "the same keys for the life of the graph");
    }
}
