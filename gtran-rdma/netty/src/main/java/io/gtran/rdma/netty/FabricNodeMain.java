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
 * hand ({@code bin/gtran fabric node --conf node.properties}): {@code java -cp ...
 * io.gtran.rdma.netty.FabricNodeMain [--exit-on-stdin-close] node.properties}, the file in
 * {@link ClusterConfig#fromProperties} form. It starts a {@link NettyFabric}, registers a
 * {@value #REGION_BYTES}-byte region {@value #REGION}, opens mailbox {@value #ECHO} (which sends
 * every message back to its sender's mailbox), prints {@code FABRIC_NODE ready node=N address=...}
 * on standard output, and runs until SIGTERM (or any normal JVM shutdown), then closes the fabric.
 * With {@value #EXIT_ON_STDIN_CLOSE} it also stops when its standard input ends, so that a parent
 * process that dies takes it along (without it, a node started in the background of a script,
 * whose input is empty, keeps running). A configuration it cannot use is reported on standard
 * error naming the problem, with exit status 2.
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
    /** The option that stops the node when its standard input ends. */
    public static final String EXIT_ON_STDIN_CLOSE = "--exit-on-stdin-close";

    private static final Logger LOG = LoggerFactory.getLogger(FabricNodeMain.class);

    private FabricNodeMain() {
    }

    public static void main(String[] args) throws Exception {
        boolean exitOnStdinClose = args.length == 2 && args[0].equals(EXIT_ON_STDIN_CLOSE);
        if (args.length != (exitOnStdinClose ? 2 : 1)) {
            System.err.println("usage: FabricNodeMain [" + EXIT_ON_STDIN_CLOSE + "] <node.properties>  (keys: "
                    + ClusterConfig.NODE + ", " + ClusterConfig.NODES + ", ...)");
            System.exit(2);
        }
        NettyFabric fabric;
        ClusterConfig config;
        try {
            config = ClusterConfig.fromProperties(load(Path.of(args[args.length - 1])));
            if (!NettyFabricProvider.NAME.equals(config.transport())) {
                throw new IllegalArgumentException("FabricNodeMain runs the netty transport only: "
                        + ClusterConfig.TRANSPORT + "=" + config.transport());
            }
            fabric = NettyFabric.start(config);
        } catch (IOException | RuntimeException e) {
            System.err.println("gtran fabric node: " + e.getMessage());
            System.exit(2);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(fabric::close, "gtran-fabric-node-shutdown"));
        fabric.register(REGION, REGION_BYTES);
        Mailbox echo = fabric.openMailbox(ECHO);
        CountDownLatch stop = new CountDownLatch(1);
        daemon("gtran-fabric-node-echo", () -> echo(echo)).start();
        if (exitOnStdinClose) {
            daemon("gtran-fabric-node-stdin", () -> {
                drain(System.in);
                stop.countDown();
            }).start();
        }
        System.out.println(READY + " node=" + config.localNode() + " address=" + config.localAddress().getHostString() + ":"
                + config.localAddress().getPort() + " transport=" + fabric.transportName());
        System.out.flush();
        stop.await(); // without the option, only the shutdown hook ends the process
        LOG.info("node={}: standard input ended, closing", config.localNode());
        fabric.close();
    }

    /** Reads {@code file} as properties. */
    static Properties load(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException("no such configuration file: " + file, e);
        }
        return properties;
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
