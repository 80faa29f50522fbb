package io.gtran.rdma.spi;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.ForwardingRegion;
import io.gtran.rdma.InJvmCluster;
import io.gtran.rdma.Region;
import io.gtran.rdma.RegionAccessException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A decorator's batch over handles whose operations complete later, as over a network. */
@Timeout(value = 30, unit = SECONDS)
class OpBatchTest {
    private final InJvmCluster cluster = new InJvmCluster();
    private final Region memory = cluster.join(0).register("words", 16);
    private final List<String> issued = new ArrayList<>();
    private final List<CompletableFuture<Long>> pending = new ArrayList<>();

    /** Reads are issued (recorded) at once and complete only when the test says so. */
    private final Region later = new ForwardingRegion(memory) {
        @Override
        public CompletableFuture<Long> readLongAsync(long offset) {
            issued.add("read " + offset);
            CompletableFuture<Long> result = new CompletableFuture<>();
            pending.add(result);
            return result;
        }
    };
    private final OpBatch batch = new OpBatch(region -> true, () -> { });

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void withoutAFenceEverythingIsIssuedAtOnce() {
        batch.readLong(later, 0);
        batch.readLong(later, 8);
        batch.flush();
        assertEquals(List.of("read 0", "read 8"), issued);
    }

    @Test
    void whatFollowsAFenceIsIssuedOnceWhatPrecedesItHasCompleted() throws Exception {
        CompletableFuture<Long> id = batch.readLong(later, 0);
        CompletableFuture<Long> status = batch.fence().readLong(later, 8);
        CompletableFuture<Long> idAgain = batch.fence().readLong(later, 0);
        assertEquals(3, batch.size());
        CompletableFuture<Void> flushed = batch.flush();
        assertEquals(List.of("read 0"), issued);
        pending.get(0).complete(1L);
        assertEquals(List.of("read 0", "read 8"), issued);
        pending.get(1).completeExceptionally(new RegionAccessException("lost"));
        assertEquals(List.of("read 0", "read 8", "read 0"), issued, "a failure still releases what follows");
        assertFalse(flushed.isDone());
        pending.get(2).complete(1L);
        assertTrue(flushed.isCompletedExceptionally());
        assertEquals(1L, id.get(1, SECONDS));
        assertTrue(status.isCompletedExceptionally());
        assertEquals(1L, idAgain.get(1, SECONDS));
    }
}
