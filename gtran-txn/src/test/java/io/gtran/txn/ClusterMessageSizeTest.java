package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.ForwardingFabric;
import io.gtran.rdma.ForwardingMailbox;
import io.gtran.rdma.InJvmCluster;
import io.gtran.rdma.Mailbox;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.protocol.OpsMessage;
import io.gtran.txn.protocol.Wire;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What crosses between members fits in one message (the fabric's 16 MiB), or is refused before it leaves. */
@Timeout(60)
class ClusterMessageSizeTest {
    @Test
    void messagesWhereOneIsTooLargeAreRefusedBeforeAnyIsSent() throws Exception {
        // A reply nobody waits for (its request number is never used), recognised when it is sent.
        byte[] harmless = new Wire.Writer().putByte(OpsMessage.REPLY).putLong(Long.MAX_VALUE).bytes();
        AtomicInteger sentHarmless = new AtomicInteger();
        try (ClusterNodes c = new ClusterNodes(ClusterNodes.IN_JVM, 2, fabric -> new ForwardingFabric(fabric) {
            @Override
            public Mailbox openMailbox(String name, int capacity) {
                return new ForwardingMailbox(super.openMailbox(name, capacity)) {
                    @Override
                    public CompletableFuture<Void> send(int node, String mailbox, byte[] payload) {
                        if (Arrays.equals(payload, harmless)) {
                            sentHarmless.incrementAndGet();
                        }
                        return super.send(node, mailbox, payload);
                    }
                };
            }
        })) {
            ClusterParts parts = c.engine(0).clusterParts();
            byte[] tooLarge = new byte[Fabric.MAX_TRANSFER_BYTES + 1];
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parts.exchange(new int[] {1, 1},
                    new long[] {parts.newRequest(), parts.newRequest()}, new byte[][] {harmless, tooLarge}));
            assertTrue(e.getMessage().contains("node 1") && e.getMessage().contains("nothing was sent"), e.getMessage());
            assertEquals(0, sentHarmless.get(), "not even the small one before it");
        }
    }

    @Test
    void aClusterMemberRefusesAValueLimitItCouldNotSendButANodeAloneTakesIt() {
        int beyond = StoreConfig.from(Map.of()).valueMaxBytes() + 1;
        try (InJvmCluster cluster = new InJvmCluster()) {
            Fabric fabric = cluster.join(0);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> GtranNode.open(fabric, ClusterNodes.settings(0, "0,1", StoreConfig.VALUE_MAX_BYTES, beyond)));
            assertTrue(e.getMessage().contains(StoreConfig.VALUE_MAX_BYTES + "=" + beyond), e.getMessage());
        }
        try (GtranNode alone = GtranNode.open(Map.of(StoreConfig.VALUE_MAX_BYTES, beyond))) {
            assertEquals(beyond, alone.engine().store().config().valueMaxBytes());
        }
    }
}
