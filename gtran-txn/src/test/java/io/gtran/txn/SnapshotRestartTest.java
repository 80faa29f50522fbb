package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.ElementIds;
import io.gtran.storage.ElementTable;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.durable.Durability;
import io.gtran.txn.durable.LogWriteException;
import io.gtran.txn.durable.SnapshotTaker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots (docs/durability.md, "Snapshots"): a node opened again on a directory with a snapshot
 * has exactly the graph it had, also when writers ran while the snapshot was taken; no id is
 * handed out twice; a snapshot cut short is ignored and a corrupt one refused by name.
 */
@Timeout(120)
class SnapshotRestartTest {
    @TempDir
    Path dir;

    /** A node on {@code dir} that takes snapshots only when asked, unless {@code more} says otherwise. */
    private GtranNode open(Object... more) {
        Object[] all = java.util.Arrays.copyOf(new Object[] {Durability.SNAPSHOT_RECORDS, 0}, 2 + more.length);
        System.arraycopy(more, 0, all, 2, more.length);
        return NodeRestartTest.openOn(dir, all);
    }

    /** Every element a transaction sees, with its label, endpoints and properties, by id. */
    private static Map<Long, String> dump(GtranNode node) {
        Map<Long, String> out = new TreeMap<>();
        Transaction t = node.engine().begin(Isolation.SNAPSHOT);
        for (ElementKind kind : ElementKind.values()) {
            ElementTable table = kind.table(node.store());
            for (int slot = 1; slot < table.slotLimit(); slot++) {
                long id = table.idAtSlot(slot);
                if (id == ElementIds.NONE || !t.exists(kind, id)) {
                    continue;
                }
                out.put(id, kind == ElementKind.VERTEX
                        ? "v " + t.vertexLabel(id) + " " + new TreeMap<>(t.vertexProperties(id))
                        : "e " + t.edgeLabel(id) + " " + t.edgeOutVertex(id) + "->" + t.edgeInVertex(id) + " "
                                + new TreeMap<>(t.edgeProperties(id)));
            }
        }
        t.commit();
        return out;
    }

    @Test
    void theGraphIsAsItWasWhenWritersRanWhileSnapshotsWereTaken() throws Exception {
        Map<Long, String> before;
        long snapshots = 0;
        try (GtranNode node = open()) {
            int label = node.store().labels().intern("v");
            int key = node.store().propertyKeys().intern("k");
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong commits = new AtomicLong();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                Random random = new Random(w);
                Thread writer = new Thread(() -> write(node, label, key, random, stop, commits));
                writer.start();
                writers.add(writer);
            }
            for (int i = 0; i < 4; i++) {
                long target = commits.get() + 300;
                while (commits.get() < target) {
                    Thread.sleep(5);
                }
                snapshots += takeAgain(node.engine()).isPresent() ? 1 : 0;
            }
            long target = commits.get() + 300;
            while (commits.get() < target) {
                Thread.sleep(5);
            }
            stop.set(true);
            for (Thread writer : writers) {
                writer.join();
            }
            before = dump(node);
            assertTrue(node.engine().commitLog().snapshotIndex() > 0);
        }
        assertEquals(4, snapshots);
        assertTrue(before.size() > 100, "writers made " + before.size() + " elements");
        try (GtranNode node = open()) {
            assertEquals(before, dump(node));
        }
        try (Stream<Path> files = Files.list(dir.resolve("snapshots"))) {
            assertEquals(1, files.count(), "older snapshots are deleted");
        }
    }

    /** A snapshot whose read met a writer that then aborted fails; it is taken again. */
    private static java.util.Optional<SnapshotTaker.Taken> takeAgain(TransactionEngine engine) {
        while (true) {
            try {
                return engine.snapshot();
            } catch (TransactionConflictException e) {
                // again
            }
        }
    }

    /** Creates, updates, links and removes vertices of its own until told to stop. */
    private static void write(GtranNode node, int label, int key, Random random, AtomicBoolean stop, AtomicLong commits) {
        List<Long> mine = new ArrayList<>();
        while (!stop.get()) {
            Transaction t = node.engine().begin(random.nextBoolean() ? Isolation.SERIALIZABLE : Isolation.SNAPSHOT);
            List<Long> added = new ArrayList<>();
            Long removed = null;
            try {
                int op = random.nextInt(5);
                if (op <= 1 || mine.size() < 4) {
                    long v = t.addVertex(label);
                    t.setVertexProperty(v, key, random.nextInt(1000));
                    added.add(v);
                } else if (op == 2) {
                    t.setVertexProperty(mine.get(random.nextInt(mine.size())), key, "s" + random.nextInt(1000));
                } else if (op == 3) {
                    long e = t.addEdge(mine.get(random.nextInt(mine.size())), mine.get(random.nextInt(mine.size())), label);
                    t.setEdgeProperty(e, key, random.nextLong());
                } else {
                    removed = mine.get(random.nextInt(mine.size()));
                    t.removeVertex(removed);
                }
                t.commit();
                mine.addAll(added);
                if (removed != null) {
                    mine.remove(removed);
                }
                commits.incrementAndGet();
            } catch (TransactionConflictException e) {
                // another writer's: try something else
            }
        }
    }

    @Test
    void anIdRemovedBeforeASnapshotIsNotHandedOutAfterTheRestart() {
        long removed;
        try (GtranNode node = open()) {
            int label = node.store().labels().intern("v");
            Transaction t = node.engine().begin(Isolation.SERIALIZABLE);
            removed = t.addVertex(label);
            t.commit();
            Transaction u = node.engine().begin(Isolation.SERIALIZABLE);
            u.removeVertex(removed);
            u.commit();
            assertTrue(node.engine().snapshot().isPresent());
        }
        try (GtranNode node = open()) {
            Transaction t = node.engine().begin(Isolation.SERIALIZABLE);
            long next = t.addVertex(node.store().labels().find("v"));
            t.commit();
            assertNotEquals(removed, next);
            assertEquals(ElementIds.slot(removed), ElementIds.slot(next), "the slot is reused, at a later generation");
        }
    }

    @Test
    void aSnapshotCutShortLeavesTheLastWholeStateAndIsDeletedAtTheNextStart() throws IOException {
        Map<Long, String> before;
        try (GtranNode node = open()) {
            int label = node.store().labels().intern("v");
            Transaction t = node.engine().begin(Isolation.SERIALIZABLE);
            t.addVertex(label);
            t.commit();
            assertTrue(node.engine().snapshot().isPresent());
            Transaction u = node.engine().begin(Isolation.SERIALIZABLE);
            u.addVertex(label);
            u.commit();
            LogWriteException e = assertThrows(LogWriteException.class, () -> node.engine().commitLog().snapshot((sink, indexes) -> {
                sink.record(new byte[] {1, 2, 3});
                throw new IOException("the disk went away");
            }));
            assertTrue(e.getMessage().contains("the disk went away"), e.getMessage());
            before = dump(node);
        }
        Path leftOver = dir.resolve("snapshots").resolve("snapshot-999999.gts.tmp"); // as a kill mid-write leaves it
        Files.write(leftOver, new byte[] {7, 7, 7});
        try (GtranNode node = open()) {
            assertEquals(before, dump(node));
            assertEquals(2, dump(node).size());
        }
        assertFalse(Files.exists(leftOver));
    }

    @Test
    void aCorruptSnapshotStopsTheStartNamingTheFile() throws IOException {
        try (GtranNode node = open()) {
            int label = node.store().labels().intern("v");
            for (int i = 0; i < 20; i++) {
                Transaction t = node.engine().begin(Isolation.SERIALIZABLE);
                t.addVertex(label);
                t.commit();
            }
            assertTrue(node.engine().snapshot().isPresent());
        }
        Path snapshot;
        try (Stream<Path> files = Files.list(dir.resolve("snapshots"))) {
            snapshot = files.findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(snapshot);
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(snapshot, bytes);
        RuntimeException e = assertThrows(RuntimeException.class, this::open);
        assertTrue(String.valueOf(e.getMessage()).contains(snapshot.getFileName().toString()), e.getMessage());
    }

    @Test
    void aSnapshotOfANodeWithoutALogIsRefused() {
        Map<String, Object> settings = new HashMap<>();
        settings.put(StoreConfig.CHUNK_BYTES, 1 << 16);
        try (GtranNode node = GtranNode.open(settings)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> node.engine().snapshot());
            assertTrue(e.getMessage().contains("nothing is logged"), e.getMessage());
        }
    }

    @Test
    void enoughRecordsStartASnapshotByThemselves() throws InterruptedException {
        try (GtranNode node = open(Durability.SNAPSHOT_RECORDS, 50)) {
            int label = node.store().labels().intern("v");
            for (int i = 0; i < 60; i++) {
                Transaction t = node.engine().begin(Isolation.SERIALIZABLE);
                t.addVertex(label);
                t.commit();
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (node.engine().commitLog().snapshotIndex() < 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(node.engine().commitLog().snapshotIndex() > 0, "a snapshot was taken");
        }
    }
}
