package io.gtran.txn.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.txn.agent.AgentHost;
import io.gtran.txn.agent.TimeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A node's one mailbox: each message to the role its first byte names, every sender to the listener first. */
class NodeMailboxTest {
    private final InJvmCluster cluster = new InJvmCluster();
    private final Fabric sender = cluster.join(0);
    private final NodeMailbox from = TestMailboxes.started(sender);
    private final NodeMailbox to = TestMailboxes.started(cluster.join(1));
    private final LinkedBlockingQueue<String> arrived = new LinkedBlockingQueue<>();

    @AfterEach
    void close() {
        cluster.close();
    }

    private void record(Family family) {
        to.on(family, (node, payload, now) -> arrived.add(family + " from " + node + " " + Family.of(payload)));
    }

    private String next() throws InterruptedException {
        String got = arrived.poll(10, TimeUnit.SECONDS);
        assertTrue(got != null, "nothing arrived in 10 s");
        return got;
    }

    @Test
    void everyMessageGoesToTheRoleItsFamilyNamesAfterItsSenderIsHeard() throws Exception {
        to.onHeard((node, now) -> arrived.add("heard " + node));
        for (Family family : Family.values()) {
            record(family);
        }
        List<byte[]> messages = List.of(
                OpsMessage.encode(new OpsMessage.Name(1L, 0, false, "person")),
                MemberMessage.encode(new MemberMessage.Ping(7)),
                CommitMessage.encode(new CommitMessage.Ack(9L)),
                ClockMessage.encode(new ClockMessage.Request(3)));
        List<String> got = new ArrayList<>();
        for (byte[] message : messages) {
            from.send(1, message).get(10, TimeUnit.SECONDS);
            got.add(next());
            got.add(next());
        }
        assertEquals(List.of("heard 0", "OPS from 0 OPS", "heard 0", "MEMBER from 0 MEMBER", "heard 0", "COMMIT from 0 COMMIT",
                "heard 0", "CLOCK from 0 CLOCK"), got);
    }

    @Test
    void aMessageOfNoFamilyOrOfNoRoleYetIsDroppedAndTheNextArrives() throws Exception {
        record(Family.MEMBER);
        from.send(1, new byte[] {(byte) 200, 1, 2}).get(10, TimeUnit.SECONDS);
        from.send(1, CommitMessage.encode(new CommitMessage.Ack(9L))).get(10, TimeUnit.SECONDS); // no role takes COMMIT yet
        from.send(1, MemberMessage.encode(new MemberMessage.Ping(7))).get(10, TimeUnit.SECONDS);
        assertEquals("MEMBER from 0 MEMBER", next());
        record(Family.COMMIT);
        from.send(1, CommitMessage.encode(new CommitMessage.Ack(9L))).get(10, TimeUnit.SECONDS);
        assertEquals("COMMIT from 0 COMMIT", next(), "a role that takes its family later gets what comes after");
        assertEquals(0, arrived.size());
    }

    @Test
    void aRoleTakesAnswersOnArrivalPastABusyReceivePathAndIsToldWhatFromTheSenderIsStillQueued() throws Exception {
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        to.onHeard((node, now) -> arrived.add("heard " + node));
        to.on(Family.COMMIT, (node, payload, now) -> {
            busy.countDown();
            try {
                release.await(10, TimeUnit.SECONDS); // the receive path stays here meanwhile
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        to.on(Family.OPS, (node, payload, now) -> arrived.add("OPS type " + payload[0] + " on the receive path"));
        // As operations do: an answer is taken at once, a request only if nothing of its sender is still queued.
        to.onArrival(Family.OPS, (node, payload, now, afterQueued) -> (payload[0] == OpsMessage.REPLY || !afterQueued)
                && arrived.add("OPS type " + payload[0] + " on arrival from " + node + (afterQueued ? " after queued ones" : "")));
        byte[] request = OpsMessage.encode(new OpsMessage.Name(1L, 0, false, "person"));
        from.send(1, CommitMessage.encode(new CommitMessage.Ack(9L))).get(10, TimeUnit.SECONDS);
        assertEquals("heard 0", next());
        assertTrue(busy.await(10, TimeUnit.SECONDS), "the receive path never took the COMMIT message");
        from.send(1, request).get(10, TimeUnit.SECONDS); // left: the COMMIT message is still in the agent's hands
        from.send(1, new byte[] {(byte) OpsMessage.REPLY, 1}).get(10, TimeUnit.SECONDS);
        assertEquals(List.of("heard 0", "heard 0", "OPS type " + OpsMessage.REPLY + " on arrival from 0 after queued ones"),
                List.of(next(), next(), next()), "the answer is taken on arrival, past the busy receive path");
        release.countDown();
        assertEquals(List.of("heard 0", "OPS type " + OpsMessage.NAME + " on the receive path"), List.of(next(), next()),
                "the request waited for what came before it");
        // The agent counts the request handled just after its handler returns: a request sent at
        // once may still find it queued, and goes the agent's way; one of the next is taken.
        String got = null;
        for (int tries = 0; tries < 100 && !("OPS type " + OpsMessage.NAME + " on arrival from 0").equals(got); tries++) {
            from.send(1, request).get(10, TimeUnit.SECONDS);
            assertEquals("heard 0", next());
            got = next();
            if (got.equals("heard 0")) {
                got = next(); // left to the agent, which hears the sender again
            }
        }
        assertEquals("OPS type " + OpsMessage.NAME + " on arrival from 0", got,
                "with nothing of its sender queued, a request is taken on arrival");
        assertEquals(0, arrived.size());
    }

    @Test
    void nothingIsTakenOnArrivalBeforeTheMailboxStartsAndWhatCameBeforeIsHandledFirst() throws Exception {
        NodeMailbox starting = new NodeMailbox(cluster.join(2), AgentHost.threads(TimeSource.SYSTEM));
        starting.on(Family.OPS, (node, payload, now) -> arrived.add("OPS type " + payload[0] + " on the receive path"));
        starting.onArrival(Family.OPS, (node, payload, now, afterQueued) -> !afterQueued
                && arrived.add("OPS type " + payload[0] + " on arrival"));
        byte[] request = OpsMessage.encode(new OpsMessage.Name(1L, 0, false, "person"));
        from.send(2, request).get(10, TimeUnit.SECONDS); // a role may still be setting up: kept for the agent
        assertEquals(null, arrived.poll(200, TimeUnit.MILLISECONDS), "nothing handled before start");
        starting.start();
        assertEquals("OPS type " + OpsMessage.NAME + " on the receive path", next());
        starting.close();
    }

    @Test
    void aFamilyHasOneRole() {
        record(Family.CLOCK);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> record(Family.CLOCK));
        assertEquals("node=1 already hands CLOCK messages to a role", e.getMessage());
        to.onArrival(Family.OPS, (node, payload, now, afterQueued) -> false);
        e = assertThrows(IllegalStateException.class, () -> to.onArrival(Family.OPS, (node, payload, now, afterQueued) -> false));
        assertEquals("node=1 already hands OPS messages to a role on arrival", e.getMessage());
    }

    @Test
    void everyTypeByteBelongsToOneFamilyAtMost() {
        for (int type = 0; type < 256; type++) {
            Family family = Family.of(type);
            if (type < 64) {
                assertEquals(Family.values()[type / 16], family, "type " + type);
            } else {
                assertEquals(null, family, "type " + type);
            }
        }
        assertEquals(null, Family.of(new byte[0]));
    }
}
