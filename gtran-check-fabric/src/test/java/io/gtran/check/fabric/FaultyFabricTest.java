package io.gtran.check.fabric;

import static io.gtran.check.fabric.FaultInjectionHarness.assertMessageHas;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.FabricContractTest;
import io.gtran.rdma.InJvmCluster;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Region;
import io.gtran.rdma.RegionAccessException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

/**
 * {@link FaultyFabric} and {@link FaultPlan} beyond the transport contract
 * ({@link InJvmFaultInjectionTest} runs that): rules are checked, misuse is reported before any
 * fault, a closed decorator or plan behaves, listeners hear real losses too, and with no fault
 * switched on a decorated cluster passes the whole {@link FabricContractTest}. Nodes 0, 1 and 2
 * of an {@link InJvmCluster}, wrapped with one plan.
 */
@Timeout(value = 60, unit = SECONDS)
class FaultyFabricTest {
    private static final long SEED = 0x6661_756c_7479L;

    private InJvmCluster cluster;
    private FaultPlan plan;
    private FaultyFabric n0;
    private FaultyFabric n1;
    private FaultyFabric n2;

    @BeforeEach
    void start() {
        cluster = new InJvmCluster();
        plan = new FaultPlan(SEED);
        n0 = plan.wrap(cluster.join(0));
        n1 = plan.wrap(cluster.join(1));
        n2 = plan.wrap(cluster.join(2));
    }

    @AfterEach
    void stop() {
        plan.close();
        cluster.close();
    }

    @Test
    void badRulesAreRejectedNamingTheValue() {
        FaultPlan.Links link = plan.links(0, 1);
        rejected(() -> plan.links(5000, 0), "node=5000");
        rejected(() -> plan.links(0, -1), "node=-1");
        rejected(() -> plan.links(Set.of(0), Set.of(1, 1024)), "node=1024");
        rejected(() -> plan.links(Set.of(), Set.of(1)), "from=[]");
        rejected(() -> plan.between(2, 2), "a=2", "b=2");
        rejected(() -> link.dropNext(-1), "count=-1");
        rejected(() -> link.dropWithProbability(1.5), "probability=1.5");
        rejected(() -> link.dropWithProbability(-0.1), "probability=-0.1");
        rejected(() -> link.dropWithProbability(Double.NaN), "probability=NaN");
        rejected(() -> link.delay(Duration.ofMillis(-1)), "min=PT-0.001S");
        rejected(() -> link.delay(Duration.ofMillis(5), Duration.ofMillis(4)), "min=PT0.005S", "max=PT0.004S");
        rejected(() -> link.delay(Duration.ofHours(2)), "min=PT2H", "max=PT1H");
        rejected(() -> link.reorder(1, Duration.ofSeconds(1)), "window=1");
        rejected(() -> link.reorder(4, Duration.ZERO), "hold=PT0S");
        rejected(() -> plan.partition(Set.of(0, 1), Set.of(1, 2)), "node=1", "a=[0, 1]", "b=[1, 2]");
        rejected(() -> plan.partition(Set.of(0), Set.of()), "b=[]");
        rejected(() -> plan.partition(Set.of(0), Set.of(2000)), "node=2000");
        rejected(() -> plan.isolate(-1), "node=-1");
        assertThrows(NullPointerException.class, () -> link.delay(null));
        assertThrows(NullPointerException.class, () -> new FaultyFabric(null, plan));
        assertThrows(NullPointerException.class, () -> new FaultyFabric(cluster.join(3), null));
        assertEquals("FaultPlan[seed=" + SEED + ", cuts=[], links={}]", plan.toString(), "a rejected rule set nothing");
    }

    private static void rejected(Executable rule, String... parts) {
        assertMessageHas(assertThrows(IllegalArgumentException.class, rule), parts);
    }

    @Test
    void misuseIsReportedBeforeAnyFault() {
        Region own = n1.register("r", 16);
        Region remote = n0.connect(1, "r");
        Mailbox mailbox = n0.openMailbox("m");
        plan.isolate(0);
        plan.links(0, 1).dropNext(10).failRegionAccess();
        assertMessageHas(assertThrows(IllegalArgumentException.class, () -> remote.readLong(4)), "offset=4", "size=16");
        assertMessageHas(assertThrows(IllegalArgumentException.class, () -> remote.fetchAddAsync(16, 1)), "offset=16");
        assertMessageHas(assertThrows(IllegalArgumentException.class, () -> remote.read(8, new byte[16], 0, 16)),
                "length=16");
        assertThrows(IndexOutOfBoundsException.class, () -> remote.writeAsync(0, new byte[4], 0, 8));
        assertThrows(IllegalArgumentException.class, () -> n0.batch().readLong(own, 0), "a handle of another fabric");
        assertThrows(IllegalArgumentException.class, () -> mailbox.send(1, "", new byte[1]));
        assertThrows(IllegalArgumentException.class, () -> mailbox.send(1, "m", new byte[Fabric.MAX_TRANSFER_BYTES + 1]));
        mailbox.close();
        assertMessageHas(assertThrows(IllegalStateException.class, () -> mailbox.send(1, "m", new byte[1])),
                "mailbox is closed: node=0, mailbox=m");
    }

    @Test
    void aClosedDecoratorRefusesEverythingEvenWhileFaulting() {
        Region remote = n0.connect(1, n1.register("r", 8).name());
        Mailbox mailbox = n0.openMailbox("m");
        plan.links(0, 1).dropNext(1).failRegionAccess();
        n0.close();
        for (Executable operation : List.<Executable>of(() -> mailbox.send(1, "m", new byte[1]),
                () -> remote.readLong(0), () -> remote.readLongAsync(0), () -> n0.connect(1, "r"), n0::batch,
                () -> n0.register("x", 8), () -> n0.openMailbox("n"), () -> n0.onPeerLost((peer, reason) -> { }))) {
            assertEquals("fabric is closed: node=0", assertThrows(IllegalStateException.class, operation).getMessage());
        }
        assertThrows(RegionAccessException.class, () -> n1.connect(0, "x"), "the wrapped node is closed");
        plan.isolate(1); // a closed decorator is no longer told anything, and telling the others works
    }

    @Test
    void aClosedPlanTakesNoRulesAndLetsEverythingThrough() throws Exception {
        Mailbox from = n0.openMailbox("m");
        Mailbox to = n1.openMailbox("m");
        plan.links(0, 1).dropNext(5);
        plan.isolate(1);
        plan.close();
        plan.close();
        assertMessageHas(assertThrows(IllegalStateException.class, () -> plan.links(0, 1).dropNext(1)),
                "fault plan is closed");
        assertThrows(IllegalStateException.class, () -> plan.isolate(0));
        from.send(1, "m", new byte[] {3}).get(10, SECONDS);
        assertEquals(3, to.receive(10, SECONDS).payload()[0]);
    }

    @Test
    void listenersHearRealLossesAndPartitionsAndOneThatThrowsStopsNoOther() throws Exception {
        List<String> told = new CopyOnWriteArrayList<>();
        n0.onPeerLost((peer, reason) -> {
            throw new IllegalStateException("listener failure for the test");
        });
        n0.onPeerLost((peer, reason) -> told.add(peer + ": " + reason));
        Fabric unwrapped = cluster.join(3);
        unwrapped.openMailbox("m");
        n0.openMailbox("m").send(3, "m", new byte[1]).get(10, SECONDS);
        plan.isolate(0);
        assertEquals(List.of("1: partitioned by fault injection", "2: partitioned by fault injection",
                "3: partitioned by fault injection"), sorted(told), "the decorated nodes and the one it sent to");
        plan.heal();
        told.clear();
        n2.close();
        assertEquals(List.of("2: node closed"), told);
    }

    @Test
    void rulesAreShownByToString() {
        plan.links(0, 1).delay(Duration.ofMillis(5), Duration.ofMillis(9)).dropNext(2);
        plan.links(2, 0).failRegionAccess().dropWithProbability(0.5).reorder(3, Duration.ofSeconds(1));
        plan.partition(Set.of(0), Set.of(2));
        plan.isolate(1);
        assertEquals("FaultPlan[seed=" + SEED + ", cuts=[[0]|[2], [1]|rest], links={0->1: delay=PT0.005S..PT0.009S"
                + " dropNext=2, 2->0: reorder=3/PT1S holding 0 dropProbability=0.5 regionsFailing}]", plan.toString());
        plan.heal();
        assertEquals("FaultPlan[seed=" + SEED + ", cuts=[], links={}]", plan.toString());
        assertEquals("Links[0->1, 1->0]", plan.between(0, 1).toString());
    }

    @Test
    void theSameSeedDropsTheSameMessagesWhateverOtherPairsDo() throws Exception {
        assertEquals(dropPattern(false), dropPattern(true));
    }

    /** Which of 200 messages 0 → 1 a p=0.5 rule drops, with or without other pairs drawing too. */
    private static List<Integer> dropPattern(boolean otherTraffic) throws Exception {
        try (InJvmCluster other = new InJvmCluster(); FaultPlan again = new FaultPlan(SEED)) {
            Mailbox from0 = again.wrap(other.join(0)).openMailbox("m");
            Mailbox from2 = again.wrap(other.join(2)).openMailbox("m");
            Mailbox at1 = again.wrap(other.join(1)).openMailbox("m");
            again.links(Set.of(0, 2), Set.of(1)).dropWithProbability(0.5).delay(Duration.ZERO, Duration.ofNanos(10));
            List<Integer> dropped = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                if (otherTraffic) {
                    from2.send(1, "m", new byte[1]);
                }
                if (from0.send(1, "m", new byte[1]).handle((ok, failure) -> failure != null).get(10, SECONDS)) {
                    dropped.add(i);
                }
            }
            assertNotNull(at1);
            assertTrue(dropped.size() > 60 && dropped.size() < 140, () -> "dropped " + dropped.size() + " of 200");
            return dropped;
        }
    }

    private static List<String> sorted(List<String> list) {
        List<String> copy = new ArrayList<>(list);
        copy.sort(null);
        return copy;
    }

    /** With no fault switched on, a cluster of decorated nodes passes the whole contract. */
    @Nested
    class WithoutFaults extends FabricContractTest {
        /** In-JVM underneath, and with no delay the decorator issues on the calling thread too. */
        @Override
        protected OwnThreadCalls ownThreadCalls() {
            return OwnThreadCalls.SERVED;
        }

        @Override
        protected TestCluster startCluster(int nodes) {
            FaultPlan idle = new FaultPlan(SEED);
            return inJvmCluster(nodes, idle::wrap, idle::close, idle);
        }
    }
}
