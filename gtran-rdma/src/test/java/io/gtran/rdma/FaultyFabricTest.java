package io.gtran.rdma;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link FaultyFabric} injects what it is told to, where it is told to, and is otherwise invisible. */
@Timeout(value = 60, unit = SECONDS)
class FaultyFabricTest {
    private InJvmCluster cluster;
    private FaultyFabric faulty;
    private Fabric n1;
    private Fabric n2;

    @BeforeEach
    void start() {
        cluster = new InJvmCluster();
        faulty = new FaultyFabric(cluster.join(0));
        n1 = cluster.join(1);
        n2 = cluster.join(2);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void dropsTheNextMessagesToOneNodeOnly() throws Exception {
        Mailbox at1 = n1.openMailbox("in");
        Mailbox at2 = n2.openMailbox("in");
        Mailbox out = faulty.openMailbox("out");
        faulty.dropNextMessages(1, 2);
        FabricContractTest.assertMessageHas(FabricContractTest.failure(DeliveryException.class,
                out.send(1, "in", new byte[] {1})), "dropped", "node=1", "mailbox=in");
        out.send(2, "in", new byte[] {1}).get(10, SECONDS);
        FabricContractTest.failure(DeliveryException.class, out.send(1, "in", new byte[] {2}));
        out.send(1, "in", new byte[] {3}).get(10, SECONDS);
        out.send(1, "in", new byte[] {4}).get(10, SECONDS);
        assertEquals(List.of((byte) 3, (byte) 4), drain(at1));
        assertEquals(List.of((byte) 1), drain(at2));
    }

    private static List<Byte> drain(Mailbox mailbox) {
        List<Byte> firstBytes = new ArrayList<>();
        for (Message message = mailbox.poll(); message != null; message = mailbox.poll()) {
            firstBytes.add(message.payload()[0]);
        }
        return firstBytes;
    }

    @Test
    void regionFaultsSwitchOnAndOffAtRuntimeForEarlierHandlesToo() {
        n1.register("r", 16).writeLong(0, 42);
        n2.register("s", 8);
        Region r = faulty.connect(1, "r");
        Region s = faulty.connect(2, "s");
        assertEquals(42, r.readLong(0));
        faulty.failRegionAccess(1);
        List<Runnable> operations = new ArrayList<>(List.of(
                () -> r.readLong(0), () -> r.writeLong(0, 1), () -> r.compareAndSwap(0, 42, 1), () -> r.fetchAdd(0, 1),
                () -> r.read(0, new byte[8], 0, 8), () -> r.write(0, new byte[8], 0, 8), () -> faulty.connect(1, "r")));
        for (Runnable operation : operations) {
            FabricContractTest.assertMessageHas(assertThrows(RegionAccessException.class, operation::run),
                    "fault injection", "node=1", "region=r");
        }
        assertEquals(0, s.fetchAdd(0, 1), "other nodes are unaffected");
        assertEquals(42, n2.connect(1, "r").readLong(0), "other nodes' view of node 1 is unaffected");
        faulty.restoreRegionAccess(1);
        assertEquals(42, r.readLong(0), "failed operations did not touch the memory");
        assertEquals(42, faulty.connect(1, "r").readLong(0));
    }

    @Test
    void faultsApplyToThisNodesOwnRegionsToo() {
        Region own = faulty.register("own", 8);
        assertEquals(0, own.node());
        faulty.failRegionAccess(0);
        assertThrows(RegionAccessException.class, () -> own.readLong(0));
        n1.connect(0, "own").writeLong(0, 7);
        faulty.heal();
        assertEquals(7, own.readLong(0));
    }

    @Test
    void healSwitchesEveryFaultOff() throws Exception {
        n1.openMailbox("in");
        Mailbox out = faulty.openMailbox("out");
        n1.register("r", 8);
        faulty.dropNextMessages(1, 5);
        faulty.failRegionAccess(1);
        faulty.heal();
        out.send(1, "in", new byte[1]).get(10, SECONDS);
        assertEquals(0, faulty.connect(1, "r").readLong(0));
        faulty.dropNextMessages(1, 3);
        faulty.dropNextMessages(1, 0);
        out.send(1, "in", new byte[1]).get(10, SECONDS);
    }

    @Test
    void misconfigurationIsRejected() {
        FabricContractTest.assertMessageHas(assertThrows(IllegalArgumentException.class,
                () -> faulty.dropNextMessages(1, -1)), "count=-1");
        FabricContractTest.assertMessageHas(assertThrows(IllegalArgumentException.class,
                () -> faulty.failRegionAccess(5000)), "node=5000");
        assertThrows(IllegalArgumentException.class, () -> faulty.restoreRegionAccess(-1));
        assertThrows(NullPointerException.class, () -> new FaultyFabric(null));
    }

    @Test
    void aClosedDecoratorRefusesSendsEvenWhileDropping() {
        Mailbox out = faulty.openMailbox("out");
        faulty.dropNextMessages(1, 1);
        faulty.close();
        assertEquals("fabric is closed: node=0",
                assertThrows(IllegalStateException.class, () -> out.send(1, "in", new byte[1])).getMessage());
        assertThrows(IllegalStateException.class, () -> faulty.connect(1, "r"));
        assertThrows(RegionAccessException.class, () -> n1.connect(0, "x"), "the wrapped node is closed");
    }

    /** With no fault switched on, a cluster of decorated nodes passes the whole contract. */
    @Nested
    class WithoutFaults extends FabricContractTest {
        @Override
        protected TestCluster startCluster(int nodes) {
            InJvmCluster inJvm = new InJvmCluster();
            List<Fabric> fabrics = new ArrayList<>();
            for (int node = 0; node < nodes; node++) {
                fabrics.add(new FaultyFabric(inJvm.join(node)));
            }
            return new TestCluster() {
                @Override
                public Fabric node(int id) {
                    return fabrics.get(id);
                }

                @Override
                public void close() {
                    inJvm.close();
                }

                @Override
                public String toString() {
                    return inJvm.toString();
                }
            };
        }
    }
}
