package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * For {@link ClusterTransactionsContract}: a participant that votes NO undoes its writes while its
 * coordinator's status still says VALIDATING (with a commit time below the begin time of readers
 * that begin meanwhile). Rounds of: W, begun on node 0, reads a guard on node 2 and writes every
 * cell on node 2; a local transaction of node 2 writes the guard and commits; W's commit is voted
 * NO by node 2, whose part undoes the cells. Reader threads on node 2 read every cell all along:
 * each cell has a committed value in every snapshot, so a reader that finds none saw the undo
 * half done (the new version gone, the old one still ended by W). The race is timing-dependent:
 * each round is a chance to catch it, not a certainty.
 */
final class UndoRace {
    private static final int CELLS = 32;
    private static final int READERS = 3;

    private UndoRace() {
    }

    /** Runs rounds for {@code millis}; returns a summary. */
    static String run(ClusterNodes c, long millis) throws Exception {
        long[] cells = new long[CELLS];
        int n2 = c.engine(2).store().propertyKeys().intern("n");
        Transaction setup = c.begin(2, Isolation.SERIALIZABLE);
        for (int i = 0; i < CELLS; i++) {
            cells[i] = setup.addVertex(c.engine(2).store().labels().intern("cell"));
            setup.setVertexProperty(cells[i], n2, 0L);
        }
        long guard = setup.addVertex(c.engine(2).store().labels().intern("guard"));
        setup.setVertexProperty(guard, n2, 0L);
        setup.commit();
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<String> lost = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Throwable> failed = new ConcurrentLinkedQueue<>();
        AtomicInteger reads = new AtomicInteger();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < READERS; r++) {
            Thread reader = new Thread(() -> {
                try {
                    while (!stop.get() && lost.isEmpty()) {
                        Transaction t = c.begin(2, Isolation.SNAPSHOT);
                        try {
                            for (long cell : cells) {
                                if (t.vertexProperty(cell, n2) == null) {
                                    lost.add(t + " found no value of cell " + io.gtran.storage.ElementIds.toString(cell));
                                }
                            }
                            t.commit();
                            reads.incrementAndGet();
                        } catch (TransactionConflictException e) {
                            // it pre-read a part that then aborted: nothing seen counts
                        } finally {
                            t.rollback();
                        }
                    }
                } catch (Throwable e) {
                    failed.add(e);
                }
            }, "undo-race-reader-" + r);
            reader.start();
            readers.add(reader);
        }
        int n0 = c.engine(0).store().propertyKeys().intern("n");
        long deadline = System.nanoTime() + millis * 1_000_000L;
        int rounds = 0;
        try {
            while (System.nanoTime() < deadline && lost.isEmpty() && failed.isEmpty()) {
                rounds++;
                Transaction w = c.begin(0, Isolation.SERIALIZABLE);
                w.vertexProperty(guard, n0);
                for (long cell : cells) {
                    w.setVertexProperty(cell, n0, (long) rounds);
                }
                Transaction u = c.begin(2, Isolation.SERIALIZABLE);
                u.setVertexProperty(guard, n2, (long) rounds);
                u.commit();
                TransactionConflictException no = assertThrows(TransactionConflictException.class, w::commit,
                        "node 2 must vote NO: W read the guard, which committed since");
                assertTrue(no.kind() == ConflictKind.PARTICIPANT_VOTED_NO, no.getMessage());
            }
        } finally {
            stop.set(true);
            for (Thread reader : readers) {
                reader.join(30_000);
            }
        }
        String summary = "rounds=" + rounds + " reads=" + reads.get();
        assertEquals(List.of(), new ArrayList<>(failed), "a reader failed; " + summary);
        assertEquals(List.of(), new ArrayList<>(lost), "readers lost a committed value; " + summary);
        assertTrue(rounds > 0 && reads.get() > 0, summary);
        return summary;
    }
}
