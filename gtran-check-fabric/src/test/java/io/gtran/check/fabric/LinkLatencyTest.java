package io.gtran.check.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Batch;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.FabricContractTest;
import io.gtran.rdma.InJvmCluster;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import io.gtran.rdma.Region;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What LinkLatency promises: a message to another node is handed over no sooner than the latency
 * after its send, in order; a one-sided operation or a flush reaching other nodes waits a round
 * trip; a node's own traffic waits for nothing. Only lower bounds are asserted, never speed.
 */
class LinkLatencyTest {
    private static final Duration LATENCY = Duration.ofMillis(2);

    @Test
    @Timeout(30)
    void everyMessageToAnotherNodeWaitsAtLeastTheLatencyAndKeepsItsOrder() throws Exception {
        LinkLatency latency = new LinkLatency(LATENCY);
        try (InJvmCluster cluster = new InJvmCluster()) {
            Fabric n0 = latency.wrap(cluster.join(0));
            Fabric n1 = latency.wrap(cluster.join(1));
            Mailbox out = n0.openMailbox("out");
            Mailbox in = n1.openMailbox("in");
            int count = 20;
            long[] sentAt = new long[count];
            for (int i = 0; i < count; i++) {
                sentAt[i] = System.nanoTime();
                out.send(1, "in", new byte[] {(byte) i}).join();
            }
            for (int i = 0; i < count; i++) {
                Message message = in.receive(10, TimeUnit.SECONDS);
                long handedOver = System.nanoTime();
                assertNotNull(message, "message " + i);
                assertArrayEquals(new byte[] {(byte) i}, message.payload(), "in send order");
                assertTrue(handedOver - sentAt[i] >= LATENCY.toNanos(),
                        "message " + i + " handed over after " + (handedOver - sentAt[i]) + " ns, asked " + LATENCY);
            }
            LinkLatency.Stats stats = latency.stats();
            assertEquals(count, stats.messages());
            assertTrue(stats.meanMessageNanos() >= LATENCY.toNanos(), stats.toString());
            assertTrue(stats.maxMessageNanos() >= LATENCY.toNanos(), stats.toString());
        }
    }

    @Test
    @Timeout(30)
    void aNodesOwnMessagesAndRegionsWaitForNothing() throws Exception {
        LinkLatency latency = new LinkLatency(LATENCY);
        try (InJvmCluster cluster = new InJvmCluster()) {
            Fabric n0 = latency.wrap(cluster.join(0));
            Mailbox self = n0.openMailbox("self");
            self.send(0, "self", new byte[3]).join();
            assertEquals(3, self.receive(1, TimeUnit.SECONDS).payload().length);
            Region own = n0.register("r", 64);
            own.writeLong(0, 7);
            assertEquals(7, own.readLong(0));
            assertEquals(new LinkLatency.Stats(0, 0, 0, 0), latency.stats());
        }
    }

    @Test
    @Timeout(30)
    void oneSidedOperationsAndFlushesToOtherNodesWaitARoundTrip() throws Exception {
        LinkLatency latency = new LinkLatency(LATENCY);
        try (InJvmCluster cluster = new InJvmCluster()) {
            Fabric n0 = latency.wrap(cluster.join(0));
            Fabric n1 = latency.wrap(cluster.join(1));
            Fabric n2 = latency.wrap(cluster.join(2));
            n1.register("r", 64).writeLong(0, 11);
            n2.register("r", 64).writeLong(0, 22);
            Region one = n0.connect(1, "r");
            Region two = n0.connect(2, "r");

            long start = System.nanoTime();
            assertEquals(11, one.readLong(0));
            assertTrue(System.nanoTime() - start >= 2 * LATENCY.toNanos(), "a read is a round trip");
            assertEquals(1, latency.stats().roundTrips());

            Batch batch = n0.batch();
            var a = batch.readLong(one, 0);
            var b = batch.readLong(two, 0);
            start = System.nanoTime();
            batch.flushAndWait();
            assertTrue(System.nanoTime() - start >= 2 * LATENCY.toNanos(), "a flush to other nodes is a round trip");
            assertEquals(11, a.join());
            assertEquals(22, b.join());
            assertEquals(2, latency.stats().roundTrips(), "one round trip for the whole flush");

            Region foreign = n1.connect(2, "r");
            assertThrows(IllegalArgumentException.class, () -> n0.batch().readLong(foreign, 0));
        }
    }

    @Test
    @Timeout(30)
    void latencyCanBeSwitchedOnLaterWithoutLosingStepWithMessagesSentBefore() throws Exception {
        LinkLatency latency = new LinkLatency(Duration.ZERO);
        try (InJvmCluster cluster = new InJvmCluster()) {
            Fabric n0 = latency.wrap(cluster.join(0));
            Fabric n1 = latency.wrap(cluster.join(1));
            Mailbox out = n0.openMailbox("out");
            Mailbox in = n1.openMailbox("in");
            out.send(1, "in", new byte[1]).join(); // stamped at zero latency
            assertNotNull(in.receive(1, TimeUnit.SECONDS));
            assertEquals(1, latency.stats().messages(), "at zero latency the bare hand-off is measured");

            latency.latency(LATENCY);
            long sentAt = System.nanoTime();
            out.send(1, "in", new byte[2]).join();
            Message message = in.receive(10, TimeUnit.SECONDS);
            assertEquals(2, message.payload().length);
            assertTrue(System.nanoTime() - sentAt >= LATENCY.toNanos());
            assertEquals(1, latency.stats().messages());
        }
    }

    @Test
    void refusesANegativeLatencyNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new LinkLatency(Duration.ofNanos(-1)));
        assertTrue(e.getMessage().contains("latency"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new LinkLatency(Duration.ZERO).latency(Duration.ofDays(2)));
    }

    /** A cluster whose every link has 20 µs passes the whole fabric contract. */
    @Nested
    class UnderTheFabricContract extends FabricContractTest {
        @Override
        protected OwnThreadCalls ownThreadCalls() {
            return OwnThreadCalls.SERVED; // in-JVM underneath; the decorator adds no thread of its own
        }

        @Override
        protected boolean handsOnArrival() {
            return false; // a message's latency passes in receive
        }

        @Override
        protected TestCluster startCluster(int nodes) {
            LinkLatency latency = new LinkLatency(Duration.ofNanos(20_000));
            return inJvmCluster(nodes, latency::wrap, () -> { }, "latency=" + latency.latency());
        }
    }
}
