package io.gtran.txn.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.rpc.SupportedRpcType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Three {@link RatisMembershipLog}s of one group in one JVM, on 127.0.0.1. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RatisMembershipLogTest {
    private static final int MEMBERS = 3;
    private static final long PROPOSE_TIMEOUT_MILLIS = 2_000;
    /** Long enough for a first election (1-2 s timeouts, a pre-vote round) on a busy machine. */
    private static final long AWAIT_MILLIS = 15_000;

    @TempDir
    Path dir;

    private final Map<Integer, InetSocketAddress> members = new TreeMap<>();
    private final RatisMembershipLog[] logs = new RatisMembershipLog[MEMBERS];
    private final List<List<MemberEntry>> applied = new ArrayList<>();

    @BeforeEach
    void startGroup() throws IOException {
        for (int node = 0; node < MEMBERS; node++) {
            members.put(node, new InetSocketAddress("127.0.0.1", freePort()));
            applied.add(new CopyOnWriteArrayList<>());
        }
        for (int node = 0; node < MEMBERS; node++) {
            start(node);
        }
    }

    @AfterEach
    void closeGroup() {
        close(0, 1, 2);
    }

    @Test
    void entriesProposedOnEveryMemberAreAppliedOnEveryMemberOnceInOneOrder() throws Exception {
        awaitLeader();
        List<MemberEntry> proposed = new ArrayList<>();
        List<CompletableFuture<Void>> proposals = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            for (int node = 0; node < MEMBERS; node++) {
                MemberEntry entry = new MemberEntry.Lost(i, i, node, 0);
                proposed.add(entry);
                proposals.add(logs[node].propose(entry));
            }
        }
        CompletableFuture.allOf(proposals.toArray(new CompletableFuture<?>[0])).get(AWAIT_MILLIS, TimeUnit.MILLISECONDS);

        awaitApplied(proposed.size(), 0, 1, 2);
        assertEquals(applied.get(0), applied.get(1), "members 0 and 1 applied different logs");
        assertEquals(applied.get(0), applied.get(2), "members 0 and 2 applied different logs");
        assertEquals(new HashSet<>(proposed), new HashSet<>(applied.get(0)), "the entries applied are not those proposed");
        assertEquals(proposed.size(), new HashSet<>(applied.get(0)).size(), "an entry was applied twice: " + applied.get(0));
        for (int node = 0; node < MEMBERS; node++) {
            int by = node;
            assertEquals(proposed.stream().filter(e -> ((MemberEntry.Change) e).by() == by).toList(),
                    applied.get(0).stream().filter(e -> ((MemberEntry.Change) e).by() == by).toList(),
                    "member " + by + "'s proposals, sent one after the other, were applied in another order");
        }
    }

    @Test
    void proposalFailsWithinItsTimeoutWhenTwoOfThreeMembersAreClosedAndAtOnceOnAClosedLog() throws Exception {
        awaitLeader();
        logs[0].propose(new MemberEntry.Lost(1, 0, 0, 0)).get(AWAIT_MILLIS, TimeUnit.MILLISECONDS);
        awaitApplied(1, 0);
        close(1, 2);

        MemberEntry entry = new MemberEntry.Back(1, 1, 0, 0);
        long startNanos = System.nanoTime();
        CompletableFuture<Void> proposal = logs[0].propose(entry);
        ExecutionException failure = assertThrows(ExecutionException.class,
                () -> proposal.get(PROPOSE_TIMEOUT_MILLIS + 3_000, TimeUnit.MILLISECONDS));
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);

        assertTrue(tookMillis <= PROPOSE_TIMEOUT_MILLIS + 1_000, "the proposal failed after " + tookMillis + " ms");
        assertTrue(failure.getCause().getMessage().contains(entry.toString()),
                "the failure does not name the entry: " + failure.getCause());
        assertEquals(List.of(new MemberEntry.Lost(1, 0, 0, 0)), applied.get(0), "member 0 applied without a majority");

        CompletableFuture<Void> onClosed = logs[1].propose(entry);
        assertTrue(onClosed.isCompletedExceptionally(), "a closed log accepted a proposal");
        ExecutionException refused = assertThrows(ExecutionException.class, onClosed::get);
        assertTrue(refused.getCause().getMessage().contains(entry.toString()), refused.getCause().toString());
        assertTrue(logs[1].describe().contains("closed"), logs[1].describe());
    }

    @Test
    void restartedMemberCatchesUpOnEntriesCommittedWhileItWasDown() throws Exception {
        int leader = awaitLeader();
        int down = (leader + 1) % MEMBERS;
        int other = (leader + 2) % MEMBERS;
        List<MemberEntry> before = List.of(new MemberEntry.Lost(1, 0, 0, 0), new MemberEntry.Back(1, 1, 2, 0));
        for (MemberEntry entry : before) {
            logs[leader].propose(entry).get(AWAIT_MILLIS, TimeUnit.MILLISECONDS);
        }
        awaitApplied(before.size(), 0, 1, 2);

        close(down);
        List<MemberEntry> whileDown = List.of(new MemberEntry.Lost(down, 0, leader, 0),
                new MemberEntry.Lost(7, 3, other, 0), new MemberEntry.Back(down, 1, leader, 0));
        logs[other].propose(whileDown.get(0)).get(AWAIT_MILLIS, TimeUnit.MILLISECONDS);
        logs[leader].propose(whileDown.get(1)).get(AWAIT_MILLIS, TimeUnit.MILLISECONDS);
        logs[other].propose(whileDown.get(2)).get(AWAIT_MILLIS, TimeUnit.MILLISECONDS);
        awaitApplied(before.size() + whileDown.size(), leader, other);

        applied.set(down, new CopyOnWriteArrayList<>());
        start(down);
        awaitApplied(before.size() + whileDown.size(), down);
        assertEquals(applied.get(leader), applied.get(down), "the restarted member applied another log");
        List<MemberEntry> all = new ArrayList<>(before);
        all.addAll(whileDown);
        assertEquals(all, applied.get(down), "the restarted member applied other entries");
    }

    @Test
    void describeNamesTheLeaderOnceOneIsElected() {
        RatisMembershipLog unstarted = new RatisMembershipLog(0, members, dir.resolve("unstarted"), 1_000);
        assertTrue(unstarted.describe().contains("not started"), unstarted.describe());
        unstarted.close();
        assertTrue(unstarted.describe().contains("closed"), unstarted.describe());

        int leader = awaitLeader();
        String leaderName = "leader " + RatisMembershipLog.peerId(leader);
        for (int node = 0; node < MEMBERS; node++) {
            int member = node;
            await(() -> logs[member].describe().contains(leaderName), () -> "member " + member
                    + " does not name leader " + leader + ": " + logs[member].describe());
        }
        String described = logs[leader].describe();
        assertTrue(described.contains("is LEADER") && described.contains("term "), described);
        assertTrue(described.contains("n0=127.0.0.1:" + members.get(0).getPort()), described);
    }

    @Test
    void malformedEntryIsSkippedOnEveryMemberAndTheNextIsApplied() throws Exception {
        awaitLeader();
        try (RaftClient raw = rawClient()) {
            assertTrue(raw.io().send(Message.valueOf("not a membership entry")).isSuccess(), "the raw entry was refused");
        }
        MemberEntry entry = new MemberEntry.Lost(2, 0, 1, 0);
        logs[1].propose(entry).get(AWAIT_MILLIS, TimeUnit.MILLISECONDS);

        awaitApplied(1, 0, 1, 2);
        for (int node = 0; node < MEMBERS; node++) {
            assertEquals(List.of(entry), applied.get(node), "member " + node + " applied");
        }
    }

    /** Closes the members at once: each takes up to a second (Ratis' log worker polls its queue each second). */
    private void close(int... nodes) {
        CompletableFuture<?>[] closing = new CompletableFuture<?>[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            RatisMembershipLog log = logs[nodes[i]];
            closing[i] = log == null ? CompletableFuture.completedFuture(null) : CompletableFuture.runAsync(log::close);
        }
        CompletableFuture.allOf(closing).join();
    }

    private void start(int node) {
        logs[node] = new RatisMembershipLog(node, members, dir.resolve("n" + node), PROPOSE_TIMEOUT_MILLIS);
        List<MemberEntry> list = applied.get(node);
        logs[node].start(list::add);
    }

    /** Waits until every member names one leader; returns it. */
    private int awaitLeader() {
        int[] leader = {-1};
        await(() -> {
            leader[0] = -1;
            for (int node = 0; node < MEMBERS; node++) {
                String described = logs[node].describe();
                if (described.contains("leader none")) {
                    return false;
                }
                if (described.contains("is LEADER")) {
                    leader[0] = node;
                }
            }
            return leader[0] >= 0;
        }, () -> "no leader elected: " + describeAll());
        return leader[0];
    }

    private void awaitApplied(int count, int... nodes) {
        for (int node : nodes) {
            int member = node;
            await(() -> applied.get(member).size() >= count, () -> "member " + member + " applied "
                    + applied.get(member) + ", not " + count + " entries; " + describeAll());
            assertEquals(count, applied.get(member).size(), "member " + member + " applied " + applied.get(member));
        }
    }

    private String describeAll() {
        StringBuilder text = new StringBuilder();
        for (RatisMembershipLog log : logs) {
            text.append("\n  ").append(log.describe());
        }
        return text.toString();
    }

    private static void await(BooleanSupplier condition, Supplier<String> failure) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(AWAIT_MILLIS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail(failure.get());
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted");
            }
        }
    }

    private RaftClient rawClient() {
        List<RaftPeer> peers = new ArrayList<>();
        members.forEach((node, address) ->
                peers.add(RaftPeer.newBuilder().setId(RatisMembershipLog.peerId(node))
                        .setAddress(RatisMembershipLog.hostAndPort(address)).build()));
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.NETTY);
        return RaftClient.newBuilder().setRaftGroup(RaftGroup.valueOf(RatisMembershipLog.GROUP_ID, peers))
                .setProperties(properties).build();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
