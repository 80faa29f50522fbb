package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.check.fabric.CountingFabric;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.local.StatusTable;
import io.gtran.txn.local.StatusTableDescriptor;
import io.gtran.txn.local.TxnStatus;
import io.gtran.txn.protocol.Op;
import io.gtran.txn.protocol.OpsMessage;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A coordinator's commits ride on its next request to each participant (docs/cluster-transactions.md,
 * "Decisions carried"): the participant then answers a status read of such a transaction from
 * memory, and takes such news only from the node that coordinates the transaction.
 */
@Timeout(60)
class CarriedCommitsTest {
    private static final Isolation SR = Isolation.SERIALIZABLE;
    private final CountingFabric[] counting = new CountingFabric[3];

    private ClusterNodes cluster() {
        return new ClusterNodes(ClusterNodes.IN_JVM, 3, f -> counting[f.localNode()] = new CountingFabric(f));
    }

    /** A vertex of node 1, and node 0's transaction that wrote it, stamped there and released at node 0. */
    private record Written(long vertex, int value, Transaction writer) {
    }

    private static Written committedAcross(ClusterNodes c) throws InterruptedException {
        int label = c.engine(0).store().labels().intern("item");
        int value = c.engine(0).store().propertyKeys().intern("value");
        Transaction setup = c.begin(0, SR);
        long vertex = setup.addVertex(1, label);
        setup.commit();
        Transaction t = c.begin(0, SR);
        t.setVertexProperty(vertex, value, 1L);
        t.commit();
        String left = c.awaitQuiet(5_000);
        assertTrue(c.quiet(), "left behind: " + left);
        return new Written(vertex, value, t);
    }

    @Test
    void eachParticipantIsToldItsLatestCommitsOnceOldestFirst() {
        CarriedCommits carried = new CarriedCommits(0);
        for (long txn = 1; txn <= CarriedCommits.PER_PEER + 1; txn++) {
            carried.committed(txn, 100 + txn, new int[] {0, 1});
        }
        carried.committed(50, 150, new int[] {2});
        long[] toOne = carried.take(1);
        assertEquals(2 * CarriedCommits.PER_PEER, toOne.length, "the oldest dropped");
        assertEquals(List.of(2L, 102L, 3L, 103L), List.of(toOne[0], toOne[1], toOne[2], toOne[3]));
        assertEquals(List.of(33L, 133L), List.of(toOne[toOne.length - 2], toOne[toOne.length - 1]));
        assertEquals(0, carried.take(1).length, "each goes once");
        assertEquals(0, carried.take(0).length, "none for this node itself");
        assertArrayEquals(new long[] {50, 150}, carried.take(2));
    }

    @Test
    void aParticipantToldOfACommitOnTheNextRequestAnswersItsStatusWithoutARoundTrip() throws Exception {
        try (ClusterNodes c = cluster()) {
            Written written = committedAcross(c);
            Transaction t1 = written.writer();

            StatusTable atOne = c.engine(1).statusTable();
            counting[1].reset();
            assertEquals(StatusTable.GONE, atOne.read(t1.id()), "released at node 0: a read there finds another entry");
            assertEquals(1, counting[1].counts().roundTrips());

            Transaction t2 = c.begin(0, SR);
            assertEquals(1L, t2.vertexProperty(written.vertex(), written.value())); // node 0's next request to node 1
            counting[1].reset();
            assertEquals(StatusTableDescriptor.statusWord(TxnStatus.COMMITTED, t1.commitTime()), atOne.read(t1.id()),
                    "what node 0's status said between the commit point and the release");
            assertEquals(0, counting[1].counts().roundTrips(), "answered from what the request carried");
            t2.commit();
        }
    }

    @Test
    void aCommitCarriedByANodeThatDoesNotCoordinateItIsIgnored() throws Exception {
        try (ClusterNodes c = cluster()) {
            Written written = committedAcross(c);
            Transaction t1 = written.writer();

            // Node 2 runs an operation of its own transaction at node 1, carrying node 0's commit.
            Transaction t = c.begin(2, SR);
            ClusterParts from2 = c.engine(2).clusterParts();
            long request = from2.newRequest();
            byte[] op = Op.encode(new Op.Exists(ElementKind.VERTEX, written.vertex()));
            byte[] payload = OpsMessage.encode(new OpsMessage.Request(request, t.id(), t.beginTime(), SR, 1, op,
                    new long[] {t1.id(), t1.commitTime()}));
            OpsMessage.Answer answer = OpsMessage.answerOf(from2.exchange(new int[] {1}, new long[] {request}, new byte[][] {payload})[0]);
            assertTrue(answer instanceof OpsMessage.Done, "the operation ran: " + answer);

            counting[1].reset();
            assertEquals(StatusTable.GONE, c.engine(1).statusTable().read(t1.id()), "read at node 0, not taken from node 2");
            assertEquals(1, counting[1].counts().roundTrips());
        }
    }
}
