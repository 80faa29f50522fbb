package io.gtran.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The contract on {@link InJvmCluster}, plus what only the in-JVM fabric promises. */
class InJvmFabricTest extends FabricContractTest {
    private InJvmCluster inJvm;

    /** Operations, their dependent stages and peer listeners run on the calling thread: nothing to stall. */
    @Override
    protected OwnThreadCalls ownThreadCalls() {
        return OwnThreadCalls.SERVED;
    }

    @Override
    protected TestCluster startCluster(int nodes) {
        inJvm = new InJvmCluster();
        return inJvmCluster(inJvm, nodes, fabric -> fabric, () -> { }, null);
    }

    @Test
    void joiningATakenOrInvalidIdIsRefused() {
        assertMessageHas(assertThrows(IllegalStateException.class, () -> inJvm.join(0)), "node=0");
        assertMessageHas(assertThrows(IllegalArgumentException.class, () -> inJvm.join(-1)), "node=-1", "max=1023");
        assertMessageHas(assertThrows(IllegalArgumentException.class, () -> inJvm.join(1024)), "node=1024");
        assertEquals(1023, inJvm.join(1023).localNode());
    }

    @Test
    void rejoiningAClosedIdIsARestartWithNothingRegistered() {
        n1.register("r", 8).writeLong(0, 5);
        Region old = n0.connect(1, "r");
        n1.close();
        Fabric restarted = inJvm.join(1);
        assertThrows(RegionAccessException.class, () -> old.readLong(0), "handles to the old incarnation stay dead");
        assertMessageHas(assertThrows(UnknownRegionException.class, () -> n0.connect(1, "r")), "node=1", "name=r");
        restarted.register("r", 8);
        assertEquals(0, n0.connect(1, "r").readLong(0));
    }

    @Test
    void closingTheClusterClosesEveryNodeAndStopsJoins() {
        inJvm.close();
        for (Fabric node : List.of(n0, n1, n2)) {
            assertThrows(IllegalStateException.class, () -> node.register("x", 8));
        }
        assertMessageHas(assertThrows(IllegalStateException.class, () -> inJvm.join(5)), "cluster is closed");
    }

    @Test
    void regionsLargerThanABufferAreRefusedBeforeAllocating() {
        long max = Integer.MAX_VALUE & ~7L;
        assertMessageHas(assertThrows(IllegalArgumentException.class, () -> n0.register("big", max + 8)),
                "name=big", "bytes=" + (max + 8), "max=" + max);
        assertThrows(IllegalArgumentException.class, () -> n0.register("huge", 1L << 40));
    }

    @Test
    void asynchronousOperationsCompleteBeforeTheyReturn() {
        n1.register("now", 8);
        Region region = n0.connect(1, "now");
        assertTrue(region.fetchAddAsync(0, 1).isDone(), "no thread hop in one JVM");
        assertTrue(region.readAsync(0, 8).isDone());
    }

    @Test
    void toStringShowsNodeState() {
        n0.register("b", 8);
        n0.register("a", 8);
        n0.openMailbox("m");
        assertEquals("InJvmFabric[node=0, closed=false, regions=[a, b], mailboxes=[m]]", n0.toString());
    }
}
