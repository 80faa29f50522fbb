package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.StoreConfig;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.durable.Durability;
import io.gtran.txn.durable.LogWriteException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node with a data directory (docs/durability.md): its commits are there after it is opened
 * again, as the transaction left them (created, updated, removed in one go or in several); a
 * commit whose record cannot be logged is not a commit; bad settings are refused.
 */
@Timeout(60)
class NodeRestartTest {
    @TempDir
    Path dir;

    private GtranNode open(Object... more) {
        return openOn(dir, more);
    }

    /** A node with small chunks on {@code dir}, with {@code more} settings (key, value, ...). */
    static GtranNode openOn(Path dir, Object... more) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(StoreConfig.CHUNK_BYTES, 1 << 16);
        settings.put(StoreConfig.EDGE_ROW_CHUNK_BYTES, 1 << 16);
        settings.put(Durability.DIRECTORY, dir.toString());
        for (int i = 0; i < more.length; i += 2) {
            settings.put((String) more[i], more[i + 1]);
        }
        return GtranNode.open(settings);
    }

    @Test
    void whatATransactionCreatedUpdatedAndRemovedIsAsItLeftItAfterTheNodeOpensAgain() {
        long a;
        long b;
        long gone;
        long ab;
        long goneEdge;
        int person;
        int name;
        int age;
        try (GtranNode node = open()) {
            person = node.store().labels().intern("person");
            name = node.store().propertyKeys().intern("name");
            age = node.store().propertyKeys().intern("age");
            Transaction t = node.engine().begin(Isolation.SERIALIZABLE);
            a = t.addVertex(person);
            b = t.addVertex(person);
            gone = t.addVertex(person);
            t.setVertexProperty(a, name, "ann");
            t.setVertexProperty(b, name, "bob");
            t.setVertexProperty(b, age, 40);
            ab = t.addEdge(a, b, person);
            goneEdge = t.addEdge(b, a, person);
            t.setEdgeProperty(ab, age, 3L);
            long temp = t.addVertex(person); // made and removed in one transaction: leaves nothing
            t.removeVertex(temp);
            t.commit();
            Transaction u = node.engine().begin(Isolation.SERIALIZABLE);
            u.setVertexProperty(a, name, "anne");
            u.removeVertexProperty(b, age);
            u.removeVertex(gone);
            u.removeEdge(goneEdge);
            u.commit();
            Transaction rolledBack = node.engine().begin(Isolation.SERIALIZABLE);
            rolledBack.setVertexProperty(a, name, "never");
            rolledBack.addVertex(person);
            rolledBack.rollback();
        }
        try (GtranNode node = open()) {
            assertEquals(person, node.store().labels().find("person"));
            assertEquals(age, node.store().propertyKeys().find("age"));
            Transaction r = node.engine().begin(Isolation.SNAPSHOT);
            assertTrue(r.vertexExists(a));
            assertTrue(r.vertexExists(b));
            assertFalse(r.vertexExists(gone));
            assertEquals("anne", r.vertexProperty(a, name));
            assertEquals("bob", r.vertexProperty(b, name));
            assertEquals(null, r.vertexProperty(b, age));
            assertTrue(r.edgeExists(ab));
            assertFalse(r.edgeExists(goneEdge));
            assertEquals(3L, r.edgeProperty(ab, age));
            assertEquals(a, r.edgeOutVertex(ab));
            assertEquals(2, r.countVertices(person));
            assertEquals(1, r.countEdges(person));
            r.commit();
        }
    }

    @Test
    void aCommitWhoseRecordCannotBeLoggedAbortsAndLeavesNothingVisible() {
        try (GtranNode node = open()) {
            int label = node.store().labels().intern("v");
            Transaction t = node.engine().begin(Isolation.SERIALIZABLE);
            long v = t.addVertex(label);
            node.engine().commitLog().close(); // the log is gone under the engine
            LogWriteException e = assertThrows(LogWriteException.class, t::commit);
            assertTrue(e.getMessage().contains("did not commit"), e.getMessage());
            assertFalse(t.isActive());
            assertFalse(t.isCommitted());
            Transaction r = node.engine().begin(Isolation.SNAPSHOT);
            assertFalse(r.vertexExists(v));
            assertEquals(0, r.countVertices(label));
            r.commit();
        }
    }

    @Test
    void badDurabilitySettingsAreRefusedNamingTheKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Durability.from(Map.of("gtran.durability.mode", "sync")), "an unknown key under gtran.durability");
        assertTrue(e.getMessage().contains("gtran.durability.mode"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Durability.from(Map.of(Durability.SNAPSHOT_RECORDS, "-1")));
        assertTrue(e.getMessage().contains(Durability.SNAPSHOT_RECORDS), e.getMessage());
    }
}
