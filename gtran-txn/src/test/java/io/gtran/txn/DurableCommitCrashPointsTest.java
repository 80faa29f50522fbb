package io.gtran.txn;

import static io.gtran.txn.protocol.CommitMessage.Type.ACK;
import static io.gtran.txn.protocol.CommitMessage.Type.DECIDE;
import static io.gtran.txn.protocol.CommitMessage.Type.VALIDATE;
import static io.gtran.txn.protocol.CommitMessage.Type.VOTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.txn.common.CommitOutcomeUnknownException;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.CommitCrashPointsTest.Expect;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.durable.Durability;
import io.gtran.txn.protocol.CommitMessage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The crash points of docs/durability.md, "Nodes of a cluster", on three members with a log each:
 * a transaction coordinated on node 0 writes z there, x on node 1 and y on node 2; one node crashes at a
 * step of the commit (its fabric drops everything from that message on and its log closes, so
 * nothing it does afterwards reaches its disk); the survivors settle; then every member, the
 * crashed one too, is closed and opened again on its directory. Afterwards x, y and z agree, with
 * each other and with what the client was told, on every member, and new writers of both commit.
 * Recovery that presumes a vote, or a restart that forgets one, fails here.
 */
@Timeout(180)
class DurableCommitCrashPointsTest {

    /** Where the crash happens: the victim, the message (null: during execution), whether it is sent first. */
    record Crash(int victim, CrashingFabric.Trigger trigger, boolean afterSending, Expect expect) {
    }

    @TempDir
    Path dir;

    static Stream<Arguments> crashes() {
        return Stream.of(
                crash("coordinator during execution", 0, null, false, Expect.OLD),
                crash("coordinator before any VALIDATE leaves", 0, commit(VALIDATE), false, Expect.OLD),
                crash("coordinator after one VALIDATE", 0, commit(VALIDATE), true, Expect.OLD),
                crash("coordinator after both VALIDATEs", 0, nth(commit(VALIDATE), 2), true, Expect.NEW),
                crash("coordinator before any DECIDE leaves", 0, commit(DECIDE), false, Expect.NEW),
                crash("coordinator after one DECIDE", 0, commit(DECIDE), true, Expect.NEW),
                crash("participant during execution", 2, null, false, Expect.OLD),
                crash("participant before its vote leaves", 2, commit(VOTE), false, Expect.OLD),
                crash("participant after its vote", 2, commit(VOTE), true, Expect.AS_TOLD),
                crash("participant before its acknowledgement", 2, commit(ACK), false, Expect.NEW));
    }

    private static Arguments crash(String name, int victim, CrashingFabric.Trigger trigger, boolean after, Expect expect) {
        return Arguments.of(Named.of(name, new Crash(victim, trigger, after, expect)));
    }

    private static CrashingFabric.Trigger commit(CommitMessage.Type type) {
        return CommitCrashPointsTest.commit(type);
    }

    private static CrashingFabric.Trigger nth(CrashingFabric.Trigger trigger, int n) {
        return CommitCrashPointsTest.nth(trigger, n);
    }

    private Map<String, Object> settings(int node) {
        return ClusterNodes.settings(node, "0,1,2", TxnConfig.REMOTE_TIMEOUT_MS, 1000, TxnConfig.DEPENDENCY_WAIT_MS, 2000,
                Durability.DIRECTORY, dir.resolve("node-" + node).toString(), Durability.SNAPSHOT_RECORDS, 0);
    }

    /** The values a crashed transaction wrote, where they live, and what its client was told. */
    private record Crashed(long x, long y, long z, String told) {
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("crashes")
    void aCrashThenARestartOfEveryMemberLeavesTheTransactionAllOrNothing(Crash crash) throws Exception {
        CrashingFabric[] fabrics = new CrashingFabric[3];
        GtranNode[] nodes = new GtranNode[3];
        InJvmCluster cluster = new InJvmCluster();
        Crashed crashed;
        try {
            crashed = crashAndSettle(crash, cluster, fabrics, nodes);
        } finally {
            closeAtOnce(nodes);
        }
        GtranNode[] again = openAll();
        try {
            assertAllOrNothing(crash, crashed, again);
        } finally {
            closeAtOnce(again);
        }
    }

    static Stream<Arguments> loneRestarts() {
        return crashes().filter(arguments -> Set.of("coordinator during execution", "coordinator after both VALIDATEs",
                "coordinator before any DECIDE leaves", "participant during execution", "participant after its vote")
                .contains(((Named<?>) arguments.get()[0]).getName()));
    }

    /**
     * The crashed member alone is opened again on its directory while the others run: it settles
     * what it held in doubt with them, they take it back through the rejoin handshake
     * (docs/durability.md, "A member restarted alone"), and the transaction is all or nothing.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("loneRestarts")
    void aCrashedMemberRestartedAloneIsTakenBackWithItsData(Crash crash) throws Exception {
        CrashingFabric[] fabrics = new CrashingFabric[3];
        GtranNode[] nodes = new GtranNode[3];
        InJvmCluster cluster = new InJvmCluster();
        try {
            Crashed crashed = crashAndSettle(crash, cluster, fabrics, nodes);
            int victim = crash.victim();
            nodes[victim].close();
            nodes[victim] = GtranNode.open(cluster.join(victim), settings(victim));
            for (GtranNode node : nodes) {
                node.awaitMembers(30_000); // every member back in every member's view
            }
            // The restarted member's first transaction writes on the others: its id is above every id of its
            // old process they saw (C5'), or they would refuse its operations as finished.
            Transaction first = nodes[victim].engine().begin(Isolation.SERIALIZABLE);
            int item = nodes[victim].store().labels().intern("item");
            long[] made = {first.addVertex(0, item), first.addVertex(1, item), first.addVertex(2, item)};
            first.commit();
            assertAllOrNothing(crash, crashed, nodes);
            Transaction next = nodes[victim].engine().begin(Isolation.SERIALIZABLE);
            int value = nodes[victim].store().propertyKeys().intern("value");
            for (long element : new long[] {crashed.x(), crashed.y(), crashed.z()}) {
                next.setVertexProperty(element, value, 3L);
            }
            next.commit();
            for (GtranNode reader : nodes) {
                Transaction read = reader.engine().begin(Isolation.SERIALIZABLE);
                int key = reader.store().propertyKeys().intern("value");
                assertEquals(List.of(3L, 3L, 3L), List.of(read.vertexProperty(crashed.x(), key),
                        read.vertexProperty(crashed.y(), key), read.vertexProperty(crashed.z(), key)), "node " + reader.id());
                for (long vertex : made) {
                    assertEquals(item, read.vertexLabel(vertex), "node " + reader.id() + ", vertex " + vertex);
                }
                read.commit();
            }
        } finally {
            closeAtOnce(nodes);
            cluster.close();
        }
    }

    /**
     * Runs the crash: a transaction on node 0 writes x (node 1), y (node 2) and z (node 0), the
     * victim crashes where {@code crash} says, and the survivors settle what they held.
     */
    private Crashed crashAndSettle(Crash crash, InJvmCluster cluster, CrashingFabric[] fabrics, GtranNode[] nodes)
            throws Exception {
        for (int i = 0; i < 3; i++) {
            fabrics[i] = new CrashingFabric(cluster.join(i));
            nodes[i] = GtranNode.open(fabrics[i], settings(i));
        }
        int label = nodes[0].store().labels().intern("item");
        int value = nodes[0].store().propertyKeys().intern("value");
        Transaction setup = nodes[0].engine().begin(Isolation.SERIALIZABLE);
        long x = setup.addVertex(1, label);
        long y = setup.addVertex(2, label);
        long z = setup.addVertex(0, label);
        setup.setVertexProperty(x, value, 0L);
        setup.setVertexProperty(y, value, 0L);
        setup.setVertexProperty(z, value, 0L);
        setup.commit();
        // Reaches the others and logs nothing: a restarted node 0 must still give ids above its (C5').
        Transaction abandoned = nodes[0].engine().begin(Isolation.SERIALIZABLE);
        abandoned.addVertex(1, label);
        abandoned.addVertex(2, label);
        abandoned.rollback();

        Transaction t = nodes[0].engine().begin(Isolation.SERIALIZABLE);
        t.setVertexProperty(x, value, 1L);
        t.setVertexProperty(y, value, 1L);
        t.setVertexProperty(z, value, 1L);
        CrashingFabric victim = fabrics[crash.victim()];
        GtranNode victimNode = nodes[crash.victim()];
        Runnable down = () -> {
            victim.crash();
            victimNode.engine().commitLog().close(); // nothing it does from now on reaches its disk
        };
        victim.onlyFor(t.id()); // not the setup's late acknowledgements
        if (crash.trigger() == null) {
            down.run();
        } else {
            victim.at(crash.trigger(), crash.afterSending(), down);
        }
        CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> {
            try {
                t.commit();
                return "committed";
            } catch (TransactionConflictException e) {
                return "aborted";
            } catch (CommitOutcomeUnknownException | IllegalStateException e) {
                return "unknown"; // the coordinator crashed, or could not log its decision
            }
        });
        String told = answer.get(30, TimeUnit.SECONDS);
        String left = ClusterNodes.awaitNothingHeld(nodes, node -> !fabrics[node.id()].isDead(), 15_000);
        if (!left.isEmpty()) {
            fail("left on the survivors after the crash:" + left);
        }
        return new Crashed(x, y, z, told);
    }

    /** x, y and z agree on every member of {@code nodes}, with what the client was told; new writers of all three commit. */
    private static void assertAllOrNothing(Crash crash, Crashed crashed, GtranNode[] nodes) {
        for (GtranNode reader : nodes) {
            Transaction read = reader.engine().begin(Isolation.SERIALIZABLE);
            int value = reader.store().propertyKeys().intern("value");
            Long seenX = (Long) read.vertexProperty(crashed.x(), value);
            Long seenY = (Long) read.vertexProperty(crashed.y(), value);
            Long seenZ = (Long) read.vertexProperty(crashed.z(), value);
            read.commit();
            String state = "node " + reader.id() + " after the restart: told=" + crashed.told() + " x=" + seenX + " y=" + seenY
                    + " z=" + seenZ;
            assertEquals(seenX, seenY, "half committed: " + state);
            assertEquals(seenX, seenZ, "half committed: " + state);
            switch (crash.expect()) {
                case OLD -> assertEquals(0L, seenX, state);
                case NEW -> assertEquals(1L, seenX, state);
                case AS_TOLD -> {
                }
            }
            if (crashed.told().equals("committed")) {
                assertEquals(1L, seenX, "the client was told committed: " + state);
            } else if (crashed.told().equals("aborted")) {
                assertEquals(0L, seenX, "the client was told aborted: " + state);
            }
        }
        Transaction after = nodes[0].engine().begin(Isolation.SERIALIZABLE);
        int value = nodes[0].store().propertyKeys().intern("value");
        after.setVertexProperty(crashed.x(), value, 2L);
        after.setVertexProperty(crashed.y(), value, 2L);
        after.setVertexProperty(crashed.z(), value, 2L);
        after.commit(); // no word keeps the transaction's id on any member
    }

    /** Closes the members on threads of their own: each log's close takes about a second (Ratis' log worker). */
    private static void closeAtOnce(GtranNode[] nodes) throws InterruptedException {
        List<Thread> closing = new ArrayList<>();
        for (GtranNode node : nodes) {
            Thread t = new Thread(node::close, "close-node-" + node.id());
            t.start();
            closing.add(t);
        }
        for (Thread t : closing) {
            t.join();
        }
    }

    /** Opens the three members again on their directories, at once: each may wait for the others to settle what it holds in doubt. */
    private GtranNode[] openAll() throws Exception {
        InJvmCluster cluster = new InJvmCluster();
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(3);
        try {
            List<java.util.concurrent.Future<GtranNode>> opening = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Fabric fabric = cluster.join(i);
                int node = i;
                opening.add(threads.submit(() -> GtranNode.open(fabric, settings(node))));
            }
            GtranNode[] nodes = new GtranNode[3];
            for (int i = 0; i < 3; i++) {
                nodes[i] = opening.get(i).get(60, TimeUnit.SECONDS);
            }
            for (GtranNode node : nodes) {
                node.awaitMembers(30_000); // each restarted on its data takes the others back through the handshake
            }
            return nodes;
        } finally {
            threads.shutdown();
        }
    }
}
