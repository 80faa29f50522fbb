package io.gtran.rdma.netty;

import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bare fabric node in a process of its own, for multi-process tests and for trying a cluster by
 * hand: {@code java -cp ... io.gtran.rdma.netty.FabricNodeMain node.properties}, the file in
 * {@link ClusterConfig#fromProperties} form. It starts a {@link NettyFabric}, registers a
 * {@value #REGION_BYTES}-byte region {@value #REGION}, opens mailbox {@value #ECHO} (which sends
 * every message back to its sender's mailbox), prints {@code FABRIC_NODE ready node=N address=...}
 * on standard output, and runs until SIGTERM (or any normal JVM shutdown) or until its standard
 * input ends, then closes the fabric.
 */
public final class FabricNodeMain {
    /** What the ready line starts with. */
    public static final String READY = "FABRIC_NODE ready";
    /** The region every node registers. */
    public static final String REGION = "counters";
    /** The size of {@link #REGION}. */
    public static final long REGION_BYTES = 4096;
    /** The mailbox that answers every message with the same payload. */
    public static final String ECHO = "echo";

    private static final Logger LOG = LoggerFactory.getLogger(FabricNodeMain.class);

    private FabricNodeMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: FabricNodeMain <node.properties>  (keys: " + ClusterConfig.NODE + ", "
                    + ClusterConfig.NODES + ", ...)");
            System.exit(2);
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        ClusterConfig config = ClusterConfig.fromProperties(properties);
        if (!NettyFabricProvider.NAME.equals(config.transport())) {
            throw new IllegalArgumentException("FabricNodeMain runs the netty transport only: " + ClusterConfig.TRANSPORT
                    + "=" + config.transport());
        }
        NettyFabric fabric = NettyFabric.start(config);
        Runtime.getRuntime().addShutdownHook(new Thread(fabric::close, "gtran-fabric-node-shutdown"));
        fabric.register(REGION, REGION_BYTES);
        Mailbox echo = fabric.openMailbox(ECHO);
        CountDownLatch stdinEnded = new CountDownLatch(1);
        daemon("gtran-fabric-node-echo", () -> echo(echo)).start();
        daemon("gtran-fabric-node-stdin", () -> {
            drain(System.in);
            stdinEnded.countDown();
        }).start();
        System.out.println(READY + " node=" + config.localNode() + " address=" + config.localAddress().getHostString() + ":"
                + config.localAddress().getPort() + " transport=" + fabric.transportName());
        System.out.flush();
        stdinEnded.await();
        LOG.info("node={}: standard input ended, closing", config.localNode());
        fabric.close();
    }

    /** Answers every message with its own payload until the mailbox closes. */
    private static void echo(Mailbox echo) {
        try {
            while (true) {
                Message message = echo.receive(1, TimeUnit.SECONDS);
                if (message != null) {
                    echo.send(message.fromNode(), message.fromMailbox(), message.payload()).whenComplete((done, failure) -> {
                        if (failure != null) {
                            LOG.warn("echo to node={} mailbox={} failed: {}", message.fromNode(), message.fromMailbox(),
                                    failure.toString());
                        }
                    });
                }
            }
        } catch (IllegalStateException e) { // the fabric closed
            LOG.info("echo stopped: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void drain(InputStream in) {
        byte[] sink = new byte[256];
        try {
            while (in.read(sink) >= 0) {
                // input is ignored; only its end matters
            }
        } catch (IOException e) {
            LOG.info("standard input failed: {}", e.toString());
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }
}
