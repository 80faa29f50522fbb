package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.gtran.txn.common.CommitOutcomeUnknownException;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.protocol.CommitMessage;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The crash-point matrix of docs/cluster-transactions.md: a transaction coordinated on node 0
 * writes x on node 1 and y on node 2, and one node crashes at a step of the commit protocol (its
 * fabric drops everything from that message on and closes, so the others see it lost). On the
 * survivors, afterwards: the transaction is all or nothing (x and y agree, and agree with what the
 * client was told when it was told an outcome), no participant context or status entry is left,
 * and new writers of x and y commit (no word keeps the transaction's id).
 */
@Timeout(120)
class CommitCrashPointsTest {
    private static final CommitMessage.Type VALIDATE = CommitMessage.Type.VALIDATE;
    private static final CommitMessage.Type VOTE = CommitMessage.Type.VOTE;
    private static final CommitMessage.Type DECIDE = CommitMessage.Type.DECIDE;
    private static final CommitMessage.Type ACK = CommitMessage.Type.ACK;

    enum Expect { OLD, NEW, AS_TOLD }

    /** Where the crash happens: the victim and how its fabric is armed; {@code duringExecution}: crash before commit. */
    record Crash(int victim, Consumer<CrashingFabric> arm, boolean duringExecution, Expect expect) {
    }

    static Stream<Arguments> crashes() {
        return Stream.of(ClusterNodes.IN_JVM, ClusterNodes.netty(java.time.Duration.ofSeconds(3))).flatMap(transport -> points().map(point ->
                Arguments.of(transport, point.get()[0])));
    }

    private static Stream<Arguments> points() {
        return Stream.of(
                crash("coordinator during execution", 0, f -> { }, true, Expect.OLD),
                crash("coordinator before any VALIDATE leaves", 0, f -> f.crashBeforeSending(commit(VALIDATE)), false, Expect.OLD),
                crash("coordinator after one VALIDATE", 0, f -> f.crashAfterSending(commit(VALIDATE)), false, Expect.OLD),
                crash("coordinator after both VALIDATEs", 0, f -> f.crashAfterSending(nth(commit(VALIDATE), 2)), false, Expect.AS_TOLD),
                crash("coordinator before any DECIDE leaves", 0, f -> f.crashBeforeSending(commit(DECIDE)), false, Expect.NEW),
                crash("coordinator after one DECIDE", 0, f -> f.crashAfterSending(commit(DECIDE)), false, Expect.NEW),
                crash("participant during execution", 2, f -> { }, true, Expect.OLD),
                crash("participant before its vote", 2, f -> f.crashBeforeSending(commit(VOTE)), false, Expect.OLD),
                crash("participant after its vote", 2, f -> f.crashAfterSending(commit(VOTE)), false, Expect.AS_TOLD),
                crash("participant before its acknowledgement", 2, f -> f.crashBeforeSending(commit(ACK)), false, Expect.NEW));
    }

    private static Arguments crash(String name, int victim, Consumer<CrashingFabric> arm, boolean duringExecution, Expect expect) {
        return Arguments.of(Named.of(name, new Crash(victim, arm, duringExecution, expect)));
    }

    static CrashingFabric.Trigger commit(CommitMessage.Type type) {
        return (mailbox, to, payload) -> CrashingFabric.isCommit(mailbox, payload, type);
    }

    /** The {@code n}th message {@code trigger} picks. */
    static CrashingFabric.Trigger nth(CrashingFabric.Trigger trigger, int n) {
        int[] seen = {0};
        return (mailbox, to, payload) -> trigger.at(mailbox, to, payload) && ++seen[0] == n;
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("crashes")
    void aCrashLeavesTheTransactionAllOrNothing(ClusterNodes.Transport transport, Crash crash) throws Exception {
        CrashingFabric[] fabrics = new CrashingFabric[3];
        GtranNode[] nodes = new GtranNode[3];
        io.gtran.rdma.Fabric[] started = transport.start(3);
        for (int i = 0; i < 3; i++) {
            fabrics[i] = new CrashingFabric(started[i]);
            nodes[i] = GtranNode.open(fabrics[i], settings(i));
        }
        try {
            run(crash, fabrics, nodes);
        } finally {
            for (GtranNode node : nodes) {
                node.close();
            }
        }
    }

    private void run(Crash crash, CrashingFabric[] fabrics, GtranNode[] nodes) throws Exception {
        int label = nodes[0].store().labels().intern("item");
        int value = nodes[0].store().propertyKeys().intern("value");
        Transaction setup = nodes[0].engine().begin(Isolation.SERIALIZABLE);
        long x = setup.addVertex(1, label);
        long y = setup.addVertex(2, label);
        setup.setVertexProperty(x, value, 0L);
        setup.setVertexProperty(y, value, 0L);
        setup.commit();

        Transaction t = nodes[0].engine().begin(Isolation.SERIALIZABLE);
        t.setVertexProperty(x, value, 1L);
        t.setVertexProperty(y, value, 1L);
        fabrics[crash.victim()].onlyFor(t.id()); // not the setup's late acknowledgements
        crash.arm().accept(fabrics[crash.victim()]);
        if (crash.duringExecution()) {
            fabrics[crash.victim()].crash();
        }
        CompletableFuture<String> told = CompletableFuture.supplyAsync(() -> {
            try {
                t.commit();
                return "committed";
            } catch (TransactionConflictException e) {
                return "aborted";
            } catch (CommitOutcomeUnknownException e) {
                return "unknown";
            } catch (IllegalStateException e) {
                if (crash.victim() == 0) {
                    return "crashed"; // the coordinator's own memory is gone: its client hears nothing
                }
                throw e;
            }
        });
        String outcome = told.get(30, TimeUnit.SECONDS);
        int survivor = crash.victim() == 1 ? 0 : 1;
        int reader = survivor;
        awaitNothingLeft(nodes, fabrics);
        Transaction read = nodes[reader].engine().begin(Isolation.SERIALIZABLE);
        int readerValue = nodes[reader].store().propertyKeys().intern("value");
        Long seenX = fabrics[1].isDead() ? null : (Long) read.vertexProperty(x, readerValue);
        Long seenY = fabrics[2].isDead() ? null : (Long) read.vertexProperty(y, readerValue);
        read.commit();
        String state = "told=" + outcome + " x=" + seenX + " y=" + seenY;
        if (seenX != null && seenY != null) {
            assertEquals(seenX, seenY, "half committed: " + state);
        }
        long seen = seenX != null ? seenX : seenY;
        switch (crash.expect()) {
            case OLD -> assertEquals(0L, seen, state);
            case NEW -> assertEquals(1L, seen, state);
            case AS_TOLD -> {
                if (outcome.equals("committed")) {
                    assertEquals(1L, seen, state);
                } else if (outcome.equals("aborted")) {
                    assertEquals(0L, seen, state);
                }
            }
        }
        if (outcome.equals("committed")) {
            assertEquals(1L, seen, "the client was told committed: " + state);
        } else if (outcome.equals("aborted")) {
            assertEquals(0L, seen, "the client was told aborted: " + state);
        }
        // No word keeps the transaction's id: new writers of what survived commit.
        Transaction after = nodes[reader].engine().begin(Isolation.SERIALIZABLE);
        if (seenX != null) {
            after.setVertexProperty(x, readerValue, 2L);
        }
        if (seenY != null) {
            after.setVertexProperty(y, readerValue, 2L);
        }
        after.commit();
    }

    /** Waits until no survivor holds a participant context or a status entry. */
    private static void awaitNothingLeft(GtranNode[] nodes, CrashingFabric[] fabrics) throws InterruptedException {
        String left = ClusterNodes.awaitNothingHeld(nodes, node -> !fabrics[node.id()].isDead(), 15_000);
        if (!left.isEmpty()) {
            fail("left after the crash:" + left);
        }
    }

    private static Map<String, Object> settings(int node) {
        return ClusterNodes.settings(node, "0,1,2", TxnConfig.REMOTE_TIMEOUT_MS, 1000, TxnConfig.DEPENDENCY_WAIT_MS, 2000);
    }
}
