package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.ClusterNodes.Transport;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SR validation at a participant node: against writers that other nodes coordinate and that have
 * not entered its recent committed table (CommitProtocol's unentered writers), and of reads by a
 * name the node has never seen; over each transport.
 */
@Timeout(60)
class ClusterValidationTest {
    static Stream<Transport> transports() {
        return Stream.of(ClusterNodes.IN_JVM, ClusterNodes.NETTY);
    }

    /**
     * T1 (coordinated by node 0) reads and writes vertex a on node 2 while T2 (coordinated by node
     * 1) has written vertex b on node 2 and is still executing. T1's commit must not wait for T2
     * or abort because of it: an executing writer takes a later commit time, outside T1's window.
     * Its status word is 0 (EXECUTING, no commit time), which the participant's validation once
     * took for "status not read yet", re-reading it until gtran.txn.dependency-wait-ms passed and
     * then voting NO: T1 aborted (PARTICIPANT_VOTED_NO) after the whole wait.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void aWriterStillExecutingElsewhereNeitherDelaysNorAbortsACommit(Transport transport) {
        int waitMs = 2_000;
        try (ClusterNodes c = new ClusterNodes(transport, 3, TxnConfig.GC, false, TxnConfig.DEPENDENCY_WAIT_MS, waitMs)) {
            long[] rows = twoRows(c, 10L, 20L);
            long a = rows[0];
            long b = rows[1];

            int value0 = c.engine(0).store().propertyKeys().intern("value");
            int value1 = c.engine(1).store().propertyKeys().intern("value");
            Transaction t1 = c.begin(0, Isolation.SERIALIZABLE);
            Transaction t2 = c.begin(1, Isolation.SERIALIZABLE);
            assertEquals(10L, t1.vertexProperty(a, value0));
            t1.setVertexProperty(a, value0, 11L);
            t2.setVertexProperty(b, value1, 21L); // T2 stays EXECUTING at node 1 while T1 commits

            long start = System.nanoTime();
            t1.commit(); // threw PARTICIPANT_VOTED_NO after the dependency wait
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue(tookMs < waitMs / 2, "T1's commit took " + tookMs + " ms");
            t2.commit();

            Transaction check = c.begin(0, Isolation.SERIALIZABLE);
            assertEquals(11L, check.vertexProperty(a, value0));
            assertEquals(21L, check.vertexProperty(b, value0));
            check.commit();
        }
    }

    /**
     * Write skew through a property key the owner of the element has never seen: T1 (node 0)
     * reads v.p, absent, and writes w.a; T2 (node 1) reads w.a and sets v.p, and commits first.
     * At SR, T1 must abort. Node 2 used to answer the read of an unknown key without recording it
     * (no id to record it under), so its validation found nothing and both committed.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void aReadOfAPropertyKeyTheOwnerNeverSawIsValidated(Transport transport) {
        try (ClusterNodes c = new ClusterNodes(transport, 3, TxnConfig.GC, false)) {
            int a2 = c.engine(2).store().propertyKeys().intern("a");
            int row2 = c.engine(2).store().labels().intern("row");
            Transaction setup = c.begin(2, Isolation.SERIALIZABLE);
            long v = setup.addVertex(row2);
            long w = setup.addVertex(row2);
            setup.setVertexProperty(v, a2, 1L);
            setup.setVertexProperty(w, a2, 1L);
            setup.commit();

            int p0 = c.engine(0).store().propertyKeys().intern("p"); // node 2 has no key "p"
            int a0 = c.engine(0).store().propertyKeys().intern("a");
            int p1 = c.engine(1).store().propertyKeys().intern("p");
            int a1 = c.engine(1).store().propertyKeys().intern("a");
            Transaction t1 = c.begin(0, Isolation.SERIALIZABLE);
            Transaction t2 = c.begin(1, Isolation.SERIALIZABLE);
            assertNull(t1.vertexProperty(v, p0));
            assertEquals(1L, t2.vertexProperty(w, a1));
            t2.setVertexProperty(v, p1, 7L);
            t2.commit();
            t1.setVertexProperty(w, a0, 2L);
            assertThrows(TransactionConflictException.class, t1::commit, "write skew committed at SR");
        }
    }

    /**
     * Write skew through a label some members have never seen: T1 (node 0) scans label x, finds
     * nothing, and writes w.a on node 2; T2 (node 1) reads w.a and adds a vertex with label x on
     * node 1, and commits first. At SR, T1 must abort. Node 1 used to answer the scan of an unknown
     * label without recording it, so both committed.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void aScanOfALabelAMemberNeverSawIsValidated(Transport transport) {
        try (ClusterNodes c = new ClusterNodes(transport, 3, TxnConfig.GC, false)) {
            int a2 = c.engine(2).store().propertyKeys().intern("a");
            Transaction setup = c.begin(2, Isolation.SERIALIZABLE);
            long w = setup.addVertex(c.engine(2).store().labels().intern("row"));
            setup.setVertexProperty(w, a2, 1L);
            setup.commit();

            int x0 = c.engine(0).store().labels().intern("x"); // nodes 1 and 2 have no label "x"
            int a0 = c.engine(0).store().propertyKeys().intern("a");
            int a1 = c.engine(1).store().propertyKeys().intern("a");
            Transaction t1 = c.begin(0, Isolation.SERIALIZABLE);
            Transaction t2 = c.begin(1, Isolation.SERIALIZABLE);
            assertEquals(0, t1.vertices(x0).length);
            assertEquals(1L, t2.vertexProperty(w, a1));
            t2.addVertex(c.engine(1).store().labels().intern("x"));
            t2.commit();
            t1.setVertexProperty(w, a0, 2L);
            assertThrows(TransactionConflictException.class, t1::commit, "write skew committed at SR");
        }
    }

    /**
     * What a coordinator reads ahead ({@link Transaction#readMany}) is recorded at the owner as
     * its single reads are: T1 (node 0) reads ahead vertex a's "value" (or all of a's properties,
     * "p" absent) on node 2 and answers its later reads from that; T2 (node 1) changes a.value
     * (adds a.p) and commits first; T1 writes w on node 2 and must abort at SR. A transaction's own
     * write is seen over what it read ahead.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void readsAheadAreValidatedAtTheOwner(Transport transport) {
        for (boolean all : new boolean[] {false, true}) {
            try (ClusterNodes c = new ClusterNodes(transport, 3, TxnConfig.GC, false)) {
                int value0 = c.engine(0).store().propertyKeys().intern("value");
                int p0 = c.engine(0).store().propertyKeys().intern("p");
                long[] rows = twoRows(c, 10L, 1L); // a, then w
                long a = rows[0];
                Transaction t1 = c.begin(0, Isolation.SERIALIZABLE);
                t1.readMany(ElementKind.VERTEX, new long[] {a}, true, all ? null : new int[] {value0});
                Transaction t2 = c.begin(1, Isolation.SERIALIZABLE);
                if (all) {
                    t2.setVertexProperty(a, c.engine(1).store().propertyKeys().intern("p"), 7L);
                } else {
                    t2.setVertexProperty(a, c.engine(1).store().propertyKeys().intern("value"), 11L);
                }
                t2.commit();
                assertEquals(10L, t1.vertexProperty(a, value0), "all=" + all);
                assertEquals(c.engine(0).store().labels().intern("row"), t1.vertexLabel(a));
                if (all) {
                    assertNull(t1.vertexProperty(a, p0));
                    assertEquals(java.util.Map.of(value0, 10L), t1.vertexProperties(a));
                }
                t1.setVertexProperty(rows[1], value0, 2L);
                assertThrows(TransactionConflictException.class, t1::commit, "all=" + all + ": a change to what was read ahead committed at SR");

                Transaction t3 = c.begin(0, Isolation.SERIALIZABLE);
                t3.readMany(ElementKind.VERTEX, new long[] {a}, false, all ? null : new int[] {value0});
                t3.setVertexProperty(a, value0, 99L);
                assertEquals(99L, t3.vertexProperty(a, value0), "all=" + all + ": its own write, not what it read ahead");
                t3.commit();
            }
        }
    }

    /** Two vertices labelled "row" on node 2 with "value" {@code first} and {@code second}, committed. */
    private static long[] twoRows(ClusterNodes c, long first, long second) {
        int value2 = c.engine(2).store().propertyKeys().intern("value");
        int row2 = c.engine(2).store().labels().intern("row");
        Transaction setup = c.begin(2, Isolation.SERIALIZABLE);
        long[] rows = {setup.addVertex(row2), setup.addVertex(row2)};
        setup.setVertexProperty(rows[0], value2, first);
        setup.setVertexProperty(rows[1], value2, second);
        setup.commit();
        return rows;
    }
}
