package io.gtran.rdma.disni;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The guard that keeps a DiSNI fabric's own threads from waiting for a reply; no device needed. */
@Timeout(value = 30, unit = SECONDS)
class FabricThreadsTest {
    @Test
    void everyRoleIsRefusedNamingTheOperationAndTheWayOut() throws Exception {
        for (String role : new String[] {FabricThreads.COMPLETION_QUEUE, FabricThreads.CONNECTION_MANAGER,
                FabricThreads.FRAME}) {
            ExecutorService thread = Executors.newSingleThreadExecutor(FabricThreads.daemon("test-" + role, role));
            try {
                ExecutionException e = assertThrows(ExecutionException.class, () -> thread.submit(() -> {
                    FabricThreads.checkMayBlock("node=1, region=r");
                    return null;
                }).get(10, SECONDS));
                IllegalStateException refused = assertInstanceOf(IllegalStateException.class, e.getCause());
                for (String part : new String[] {role + " thread", "node=1, region=r", "asynchronous form"}) {
                    assertTrue(refused.getMessage().contains(part), "lacks " + part + ": " + refused.getMessage());
                }
                boolean disni = !role.equals(FabricThreads.FRAME);
                assertEquals(disni, thread.submit(FabricThreads::onDisniThread).get(10, SECONDS),
                        "only DiSNI's own threads must never wait for send-queue room: " + role);
            } finally {
                thread.shutdownNow();
            }
        }
    }

    @Test
    void otherThreadsMayBlock() throws Exception {
        FabricThreads.checkMayBlock("node=1, region=r");
        assertNull(FabricThreads.role());
        ExecutorService closer = Executors.newSingleThreadExecutor(FabricThreads.daemon("test-closer", null));
        try {
            assertNull(closer.submit(() -> {
                FabricThreads.checkMayBlock("node=1, region=r");
                return FabricThreads.role();
            }).get(10, SECONDS));
        } finally {
            closer.shutdownNow();
        }
    }
}
