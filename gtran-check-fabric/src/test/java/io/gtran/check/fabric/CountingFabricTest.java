package io.gtran.check.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gtran.rdma.Batch;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Region;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What CountingFabric counts: traffic to other nodes only, a batch's flush as one round trip per node. */
class CountingFabricTest {

    @Test
    @Timeout(30)
    void countsRemoteMessagesOperationsAndRoundTrips() throws Exception {
        try (InJvmCluster cluster = new InJvmCluster()) {
            CountingFabric n0 = new CountingFabric(cluster.join(0));
            Fabric n1 = cluster.join(1);
            Fabric n2 = cluster.join(2);
            n1.register("r", 64);
            n2.register("r", 64);
            Region own = n0.register("r", 64);
            Region one = n0.connect(1, "r");
            Region two = n0.connect(2, "r");
            Mailbox inbox1 = n1.openMailbox("in");
            Mailbox self = n0.openMailbox("in");
            Mailbox out = n0.openMailbox("out");

            own.writeLong(0, 5); // local: not counted
            out.send(0, "in", new byte[3]).join();
            assertEquals(new CountingFabric.Counts(0, 0, 0, 0), n0.counts());

            one.readLong(0);
            two.compareAndSwapAsync(8, 0, 1).join();
            out.send(1, "in", new byte[10]).join();
            assertEquals(new CountingFabric.Counts(1, 10, 2, 2), n0.counts());
            assertEquals(1, n0.messagesTo("in"), "by mailbox: the local send is not counted");
            assertEquals(0, n0.messagesTo("out"));

            CountingFabric.Counts before = n0.counts();
            Batch batch = n0.batch();
            batch.readLong(one, 0);
            batch.readLong(one, 8);
            batch.fence();
            batch.readLong(two, 0);
            batch.readLong(own, 0);
            batch.flushAndWait();
            assertEquals(new CountingFabric.Counts(0, 0, 3, 2), n0.counts().minus(before), "one flush: one round trip per other node");
            assertEquals(3, self.receive(1, TimeUnit.SECONDS).payload().length);
            assertEquals(10, inbox1.receive(1, TimeUnit.SECONDS).payload().length);

            Region foreign = n1.connect(2, "r");
            assertThrows(IllegalArgumentException.class, () -> n0.batch().readLong(foreign, 0));
            n0.reset();
            assertEquals(new CountingFabric.Counts(0, 0, 0, 0), n0.counts());
            assertEquals(0, n0.messagesTo("in"));
        }
    }
}
