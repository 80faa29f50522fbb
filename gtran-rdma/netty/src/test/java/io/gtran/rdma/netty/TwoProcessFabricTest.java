package io.gtran.rdma.netty;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Batch;
import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.DeliveryException;
import io.gtran.rdma.LoopbackPorts;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import io.gtran.rdma.Region;
import io.gtran.rdma.RegionAccessException;
import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two processes over 127.0.0.1: node 0 is this JVM, node 1 a child JVM running
 * {@link FabricNodeMain}. Node 0 uses the child's region and echo mailbox, then the child goes
 * away (killed, terminated, or its standard input closed) and node 0 must hear of it and fail
 * fast instead of hanging. The child is always killed at the end.
 */
@Timeout(value = 120, unit = SECONDS)
class TwoProcessFabricTest {
    private static final Logger LOG = LoggerFactory.getLogger(TwoProcessFabricTest.class);
    private static final long SEED = 0x7477_6f70L;
    private static final int START_ATTEMPTS = 3;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private final ExecutorService pool = Executors.newFixedThreadPool(4);
    private final List<PeerLoss> losses = new CopyOnWriteArrayList<>();
    private Process child;
    private Path childOutput;
    private NettyFabric local;

    private record PeerLoss(int node, String reason) {
    }

    @BeforeEach
    void start() throws Exception {
        for (int attempt = 1; ; attempt++) {
            List<InetSocketAddress> addresses = LoopbackPorts.free(2);
            try {
                child = startChild(addresses);
                local = NettyFabric.start(config(0, addresses));
                break;
            } catch (IllegalStateException e) { // a port was taken meanwhile: try others
                if (child != null) {
                    child.destroyForcibly().waitFor(10, SECONDS);
                    child = null;
                }
                if (attempt == START_ATTEMPTS) {
                    throw e;
                }
                LOG.info("starting the two nodes failed, trying other ports: {}", e.getMessage());
            }
        }
        local.onPeerLost((node, reason) -> losses.add(new PeerLoss(node, reason)));
    }

    @AfterEach
    void stop() throws Exception {
        try {
            if (child != null) {
                child.destroyForcibly();
                assertTrue(child.waitFor(30, SECONDS), "child did not die");
                logChildOutput();
            }
        } finally {
            if (local != null) {
                local.close();
            }
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, SECONDS), "test threads did not stop");
        }
    }

    @Test
    void regionsBatchesAndMessagesWorkAcrossProcessesAndAKilledProcessIsLostNotWaitedFor() throws Exception {
        Region counters = local.connect(1, FabricNodeMain.REGION);
        assertEquals(FabricNodeMain.REGION_BYTES, counters.size());
        for (int i = 0; i < 1000; i++) {
            assertEquals(i, counters.fetchAdd(0, 1));
        }
        assertTrue(counters.compareAndSwap(8, 0, 42));
        assertFalse(counters.compareAndSwap(8, 0, 43));
        assertEquals(42, counters.readLong(8));

        List<Future<Long>> adders = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            adders.add(pool.submit(() -> {
                long sum = 0;
                List<CompletableFuture<Long>> previous = new ArrayList<>();
                for (int i = 0; i < 2_000; i++) {
                    previous.add(counters.fetchAddAsync(16, 1));
                }
                for (CompletableFuture<Long> value : previous) {
                    sum += value.get(WAIT.toSeconds(), SECONDS);
                }
                return sum;
            }));
        }
        long sum = 0;
        for (Future<Long> adder : adders) {
            sum += adder.get(WAIT.toSeconds(), SECONDS);
        }
        assertEquals(8_000, counters.readLong(16));
        assertEquals(8_000L * 7_999 / 2, sum, "each previous value handed out once");

        Batch batch = local.batch();
        List<CompletableFuture<Long>> reads = new ArrayList<>();
        for (int word = 0; word < 64; word++) {
            batch.writeLong(counters, 1024 + word * 8L, word * 3L);
            reads.add(batch.readLong(counters, 1024 + word * 8L));
        }
        batch.flush().get(WAIT.toSeconds(), SECONDS);
        for (int word = 0; word < 64; word++) {
            assertEquals(word * 3L, reads.get(word).get());
        }

        Mailbox client = local.openMailbox("client");
        Random random = new Random(SEED);
        for (int i = 0; i < 200; i++) {
            byte[] payload = new byte[random.nextInt(i == 199 ? 1 << 20 : 512)];
            random.nextBytes(payload);
            client.send(1, FabricNodeMain.ECHO, payload).get(WAIT.toSeconds(), SECONDS);
            Message echoed = client.receive(WAIT.toSeconds(), SECONDS);
            assertTrue(echoed != null, "echo " + i + " came back");
            assertEquals(1, echoed.fromNode());
            assertEquals(FabricNodeMain.ECHO, echoed.fromMailbox());
            assertArrayEquals(payload, echoed.payload());
        }
        assertTrue(losses.isEmpty(), "no loss while the child runs: " + losses);

        child.destroyForcibly();
        assertTrue(child.waitFor(WAIT.toSeconds(), SECONDS));
        awaitTrue(() -> !losses.isEmpty(), "node 0 hears that node 1 is lost");
        assertEquals(1, losses.get(0).node());
        assertTimeoutPreemptively(WAIT, () -> {
            assertMessageHas(assertThrows(RegionAccessException.class, () -> counters.readLong(0)), "node=1",
                    "region=" + FabricNodeMain.REGION);
            assertMessageHas(failure(RegionAccessException.class, counters.fetchAddAsync(0, 1)), "node=1");
            CompletableFuture<Long> batched = batch.readLong(counters, 0);
            assertThrows(ExecutionException.class, () -> batch.flush().get(WAIT.toSeconds(), SECONDS));
            failure(RegionAccessException.class, batched);
            assertMessageHas(failure(DeliveryException.class, client.send(1, FabricNodeMain.ECHO, new byte[1])), "node=1",
                    "mailbox=" + FabricNodeMain.ECHO);
            assertMessageHas(assertThrows(RegionAccessException.class, () -> local.connect(1, FabricNodeMain.REGION)),
                    "node=1", "address=");
        });
        Thread.sleep(200); // real time: a second report would come from another thread, if at all
        assertEquals(1, losses.size(), "told once: " + losses);
    }

    @Test
    void aTerminatedProcessSaysGoodbye() throws Exception {
        assertEquals(0, local.connect(1, FabricNodeMain.REGION).readLong(0));
        // SIGTERM alone (Process.destroy() would also close the child's input): the shutdown hook closes the fabric.
        assertTrue(child.toHandle().destroy());
        assertTrue(child.waitFor(WAIT.toSeconds(), SECONDS));
        assertEquals(143, child.exitValue(), "ended by SIGTERM, after the shutdown hook");
        awaitTrue(() -> !losses.isEmpty(), "node 0 hears that node 1 is lost");
        assertEquals(new PeerLoss(1, "node is closed"), losses.get(0), "node 1 said GOODBYE");
    }

    @Test
    void aProcessWhoseInputEndsClosesAndExits() throws Exception {
        Mailbox client = local.openMailbox("client");
        client.send(1, FabricNodeMain.ECHO, "hi".getBytes(UTF_8)).get(WAIT.toSeconds(), SECONDS);
        assertEquals("hi", new String(client.receive(WAIT.toSeconds(), SECONDS).payload(), UTF_8));
        child.getOutputStream().close();
        assertTrue(child.waitFor(WAIT.toSeconds(), SECONDS), "the child exits when its input ends");
        assertEquals(0, child.exitValue());
        awaitTrue(() -> !losses.isEmpty(), "node 0 hears that node 1 is lost");
        assertEquals(1, losses.get(0).node());
    }

    // ---- helpers ----------------------------------------------------------------------------

    private static ClusterConfig config(int node, List<InetSocketAddress> addresses) {
        return NettyTestCluster.TEST_LIMITS.apply(ClusterConfig.builder(node).nodes(addresses)).build();
    }

    /**
     * Starts node 1 in a child JVM and waits for its ready line.
     *
     * @throws IllegalStateException if it exits first (its port was taken, say)
     */
    private Process startChild(List<InetSocketAddress> addresses) throws Exception {
        ClusterConfig config = config(1, addresses);
        Path file = dir.resolve("node-1.properties");
        try (Writer writer = Files.newBufferedWriter(file, UTF_8)) {
            writer.write(ClusterConfig.NODE + "=1\n");
            writer.write(ClusterConfig.NODES + "=" + addresses.get(0).getHostString() + ":" + addresses.get(0).getPort() + ","
                    + addresses.get(1).getHostString() + ":" + addresses.get(1).getPort() + "\n");
            writer.write(ClusterConfig.CONNECT_TIMEOUT_MS + "=" + config.connectTimeout().toMillis() + "\n");
            writer.write(ClusterConfig.OPERATION_TIMEOUT_MS + "=" + config.operationTimeout().toMillis() + "\n");
            writer.write(ClusterConfig.HEARTBEAT_INTERVAL_MS + "=" + config.heartbeatInterval().toMillis() + "\n");
            writer.write(ClusterConfig.PEER_LOST_AFTER_MS + "=" + config.peerLostAfter().toMillis() + "\n");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(childJvmFlags());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), FabricNodeMain.class.getName(),
                FabricNodeMain.EXIT_ON_STDIN_CLOSE, file.toString()));
        // To a file, not a pipe: Process.destroy() closes the pipes at once, and the child's last words would be lost.
        childOutput = dir.resolve("node-1.out");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(childOutput.toFile()).start();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (Files.readAllLines(childOutput, UTF_8).stream().noneMatch(line -> line.startsWith(FabricNodeMain.READY
                + " node=1"))) {
            if (!process.isAlive()) {
                logChildOutput();
                throw new IllegalStateException("node 1 exited before it was ready: exit=" + process.exitValue());
            }
            if (System.nanoTime() > deadline) {
                process.destroyForcibly();
                logChildOutput();
                throw new AssertionError("node 1 did not print its ready line within " + WAIT);
            }
            Thread.sleep(10);
        }
        return process;
    }

    private void logChildOutput() throws IOException {
        if (childOutput != null && Files.exists(childOutput)) {
            for (String line : Files.readAllLines(childOutput, UTF_8)) {
                LOG.info("[node 1] {}", line);
            }
        }
    }

    /** This JVM's module flags (--add-opens and the like), a small heap, and quick start-up. */
    private static List<String> childJvmFlags() {
        List<String> flags = new ArrayList<>();
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (flag.startsWith("--add-opens") || flag.startsWith("--add-exports") || flag.startsWith("-Dio.netty.")) {
                flags.add(flag);
            }
        }
        flags.addAll(List.of("-Xmx256m", "-XX:MaxDirectMemorySize=256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Xshare:auto"));
        return flags;
    }

    private static <T extends Throwable> T failure(Class<T> type, CompletableFuture<?> future) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(WAIT.toSeconds(), SECONDS));
        return assertInstanceOf(type, e.getCause());
    }

    private static void assertMessageHas(Throwable t, String... parts) {
        for (String part : parts) {
            assertTrue(t.getMessage() != null && t.getMessage().contains(part), "message lacks \"" + part + "\": " + t);
        }
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting: " + what);
            Thread.sleep(5);
        }
    }
}
