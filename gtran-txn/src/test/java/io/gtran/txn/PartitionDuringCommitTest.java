package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import io.gtran.check.fabric.FaultPlan;
import io.gtran.rdma.Fabric;
import io.gtran.txn.common.CommitOutcomeUnknownException;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.protocol.CommitMessage;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A partition during a commit, then healed. A transaction coordinated on node 0 writes z on node 0,
 * x on node 1 and y on node 2; at a step of its commit one node is cut from the other two. The
 * majority side settles the transaction (the minority decides nothing: it has not heard from a
 * majority), so the two sides never disagree; after the heal, a coordinator on the minority side
 * learns the majority's decision and applies it to its own part, and a participant on the minority
 * side gets the decision the majority owes it, applies it and rejoins. Each side's fabric tells its
 * listeners of the other side's loss at once (FaultPlan), which is where acting on a loss without
 * a majority would decide twice.
 */
@Timeout(120)
class PartitionDuringCommitTest {
    private static final CommitMessage.Type VALIDATE = CommitMessage.Type.VALIDATE;
    private static final CommitMessage.Type VOTE = CommitMessage.Type.VOTE;

    record Cut(String name, int node, CommitMessage.Type type, int nth, boolean afterSending) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cuts() {
        Cut[] cuts = {
            new Cut("coordinator cut off before VALIDATE leaves", 0, VALIDATE, 1, false),
            new Cut("coordinator cut off after both VALIDATEs", 0, VALIDATE, 2, true),
            new Cut("participant cut off after its vote", 2, VOTE, 1, true),
        };
        return Stream.of(ClusterNodes.IN_JVM, ClusterNodes.netty(java.time.Duration.ofSeconds(10))).flatMap(t -> Stream.of(cuts).map(c -> Arguments.of(t, c)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cuts")
    void bothSidesAgreeAndTheMinorityCoordinatorCatchesUp(ClusterNodes.Transport transport, Cut cut) throws Exception {
        long seed = 7;
        try (FaultPlan plan = new FaultPlan(seed)) {
            Fabric[] started = transport.start(3);
            CrashingFabric[] fabrics = new CrashingFabric[3];
            GtranNode[] nodes = new GtranNode[3];
            for (int i = 0; i < 3; i++) {
                fabrics[i] = new CrashingFabric(plan.wrap(started[i]));
                nodes[i] = GtranNode.open(fabrics[i], settings(i));
            }
            try {
                run(plan, cut, fabrics, nodes);
            } finally {
                plan.heal();
                for (GtranNode node : nodes) {
                    node.close();
                }
            }
        }
    }

    private void run(FaultPlan plan, Cut cut, CrashingFabric[] fabrics, GtranNode[] nodes) throws Exception {
        int label = nodes[0].store().labels().intern("item");
        int value = nodes[0].store().propertyKeys().intern("value");
        Transaction setup = nodes[0].engine().begin(Isolation.SERIALIZABLE);
        long z = setup.addVertex(0, label);
        long x = setup.addVertex(1, label);
        long y = setup.addVertex(2, label);
        for (long v : new long[] {x, y, z}) {
            setup.setVertexProperty(v, value, 0L);
        }
        setup.commit();

        Set<Integer> minority = Set.of(cut.node());
        Set<Integer> majority = cut.node() == 0 ? Set.of(1, 2) : Set.of(0, 1);
        int[] seen = {0};
        fabrics[cut.node()].at((mailbox, to, payload) -> CrashingFabric.isCommit(mailbox, payload, cut.type())
                && ++seen[0] == cut.nth(), cut.afterSending(), () -> plan.partition(minority, majority));
        Transaction t = nodes[0].engine().begin(Isolation.SERIALIZABLE);
        for (long v : new long[] {x, y, z}) {
            t.setVertexProperty(v, value, 1L);
        }
        String told = CompletableFuture.supplyAsync(() -> {
            try {
                t.commit();
                return "committed";
            } catch (TransactionConflictException e) {
                return "aborted";
            } catch (CommitOutcomeUnknownException e) {
                return "unknown";
            }
        }).get(30, TimeUnit.SECONDS);

        // The majority settles it: both of its nodes agree, and agree with the client if it was told.
        int reader = majority.contains(1) && majority.contains(2) ? 1 : 0;
        awaitNothingLeft(nodes, majority);
        Long[] majorityView = read(nodes[reader], majority.contains(0) ? new long[] {z, x} : new long[] {x, y});
        assertEquals(majorityView[0], majorityView[1], "the majority's nodes disagree; told=" + told);
        if (!told.equals("unknown")) {
            assertEquals(told.equals("committed") ? 1L : 0L, majorityView[0], "the client was told " + told);
        }
        if (cut.node() != 0) {
            // A participant cut off after its vote learns the majority's decision (owed to it) and rejoins.
            plan.heal();
            awaitNothingLeft(nodes, Set.of(0, 1, 2));
            awaitInContact(nodes);
            Long[] own = read(nodes[cut.node()], new long[] {y});
            assertEquals(majorityView[0], own[0], "the rejoined participant's part disagrees with the majority; told=" + told);
            return;
        }
        // The coordinator, cut off, decided nothing; after the heal it learns the outcome and applies it.
        plan.heal();
        awaitNothingLeft(nodes, Set.of(0, 1, 2));
        awaitInContact(nodes);
        Transaction check = nodes[0].engine().begin(Isolation.SERIALIZABLE);
        Object own = check.vertexProperty(z, value);
        check.commit();
        assertNotNull(own);
        assertEquals(majorityView[0], own, "the coordinator's own part disagrees with the majority; told=" + told);
    }

    /** Waits until every node is in contact with the other two again (docs: rejoining after a partition heals). */
    private static void awaitInContact(GtranNode[] nodes) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (true) {
            boolean all = true;
            for (GtranNode node : nodes) {
                all &= node.engine().membersInContact().size() == 2;
            }
            if (all) {
                return;
            }
            if (System.nanoTime() > deadline) {
                StringBuilder contact = new StringBuilder();
                for (GtranNode node : nodes) {
                    contact.append(" node ").append(node.id()).append(": ").append(node.engine().membersInContact());
                }
                fail("not all back in contact:" + contact);
            }
            Thread.sleep(20);
        }
    }

    private static Long[] read(GtranNode node, long[] ids) {
        Transaction t = node.engine().begin(Isolation.SERIALIZABLE);
        int value = node.store().propertyKeys().intern("value");
        Long[] values = new Long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            values[i] = (Long) t.vertexProperty(ids[i], value);
        }
        t.commit();
        return values;
    }

    private static void awaitNothingLeft(GtranNode[] nodes, Set<Integer> which) throws InterruptedException {
        String left = ClusterNodes.awaitNothingHeld(nodes, node -> which.contains(node.id()), 20_000);
        if (!left.isEmpty()) {
            fail("left:" + left);
        }
    }

    private static Map<String, Object> settings(int node) {
        return ClusterNodes.settings(node, "0,1,2", TxnConfig.REMOTE_TIMEOUT_MS, 1000, TxnConfig.DEPENDENCY_WAIT_MS, 2000,
                TxnConfig.LEASE_MS, 200);
    }
}
