package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.check.fabric.CountingFabric;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.protocol.OpsMessage;
import io.gtran.txn.protocol.Wire;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What crosses between members fits in one message (the fabric's 16 MiB), or is refused before it leaves. */
@Timeout(60)
class ClusterMessageSizeTest {
    @Test
    void messagesWhereOneIsTooLargeAreRefusedBeforeAnyIsSent() throws Exception {
        CountingFabric[] counting = new CountingFabric[2];
        try (ClusterNodes c = new ClusterNodes(ClusterNodes.IN_JVM, 2, fabric -> {
            CountingFabric wrapped = new CountingFabric(fabric);
            counting[fabric.localNode()] = wrapped;
            return wrapped;
        })) {
            ClusterParts parts = c.engine(0).clusterParts();
            byte[] harmless = new Wire.Writer().putByte(OpsMessage.REPLY).putLong(Long.MAX_VALUE).bytes(); // a reply nobody waits for
            byte[] tooLarge = new byte[Fabric.MAX_TRANSFER_BYTES + 1];
            long before = counting[0].counts().messages();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parts.exchange(new int[] {1, 1},
                    new long[] {parts.newRequest(), parts.newRequest()}, new byte[][] {harmless, tooLarge}));
            assertTrue(e.getMessage().contains("node 1") && e.getMessage().contains("nothing was sent"), e.getMessage());
            assertEquals(before, counting[0].counts().messages(), "not even the small one before it");
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
