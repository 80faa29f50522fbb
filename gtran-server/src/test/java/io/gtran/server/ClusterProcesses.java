package io.gtran.server;

import io.gtran.txn.membership.GroupConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;

/**
 * A gtran cluster of {@code n} separate processes on 127.0.0.1, started and stopped by {@code
 * deploy/gtran-cluster} as an operator would, serving TinkerPop's test graphs: every graph of the
 * test node ({@code graph}, {@code modern}, ...) is one cluster of its own over the n processes (a
 * node carries one graph), with a fabric port of its own; vertices spread over the members. Node 0
 * loads the data ({@code test-init.groovy}). The nodes run on this JVM's class path
 * ({@code GTRAN_CLASSPATH}), which holds the test data. Closing runs the script's {@code stop}.
 * Public, with what it needs of it, for gtran-check's {@code ClusterCheckTest} (gtran-server's test-jar).
 */
public final class ClusterProcesses implements AutoCloseable {
    private static final String[] GRAPHS = {"graph", "modern", "classic", "crew", "sink", "grateful"};
    /** The system property that sets the graphs' gtran.execution (batched, the default, or pushed, element). */
    static final String EXECUTION = "gtran.test.execution";
    /** The repository's root: the module's parent directory. */
    private static final Path HOME = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();

    private final int[] ports;
    private final Path dir;
    /** Started with deploy/conf's templates (one graph, no data) and fault control, or with the test graphs. */
    private final boolean oneGraph;

    private ClusterProcesses(int n, Path dir, boolean oneGraph) {
        this.ports = new int[n];
        this.dir = dir;
        this.oneGraph = oneGraph;
    }

    /** The test graphs over {@code n} processes. */
    static ClusterProcesses start(int n) {
        return start(n, false);
    }

    /**
     * {@code n} processes as {@code deploy/gtran-cluster --faults} starts them from deploy/conf: one
     * graph {@code graph} with source {@code g}, no data, and fault control for {@link #command}.
     */
    public static ClusterProcesses startOneGraph(int n) {
        return start(n, true);
    }

    private static ClusterProcesses start(int n, boolean oneGraph) {
        try {
            ClusterProcesses c = new ClusterProcesses(n, Files.createTempDirectory("gtran-cluster-"), oneGraph);
            c.launch();
            return c;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void launch() throws IOException {
        if (oneGraph) {
            writeHosts(1);
            script("start");
            return;
        }
        Path conf = Files.createDirectories(dir.resolve("conf"));
        for (String graph : GRAPHS) {
            Files.writeString(conf.resolve(graph + ".properties"), String.join("\n",
                    "gremlin.graph=io.gtran.core.GtranGraph",
                    "gtran.isolation=SERIALIZABLE",
                    "gtran.placement=spread",
                    "gtran.execution=" + System.getProperty(EXECUTION, "batched"),
                    graph.equals("crew") ? "gtran.vertex-property.cardinality=list" : "",
                    "gtran.storage.chunk-bytes=65536",
                    "gtran.storage.edge-row.chunk-bytes=65536",
                    "gtran.storage.external-ids.max=20000") + "\n");
        }
        try (InputStream in = ClusterProcesses.class.getResourceAsStream("test-init.groovy")) {
            Files.write(conf.resolve("test-init.groovy"), in.readAllBytes());
        }
        String yaml;
        try (InputStream in = ClusterProcesses.class.getResourceAsStream("test-server.yaml")) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        // Element-at-a-time reads over TCP make some grateful-dead scenarios take longer than one node's 30 s.
        yaml = yaml.replace("evaluationTimeout: 30000", "evaluationTimeout: 180000")
                .replace("host: 127.0.0.1", "host: @HOST@")
                .replace("PORT", "@PORT@")
                .replace("DIR/test-init.groovy", "@NODE_DIR@/test-init.groovy")
                .replaceAll("(?s)graphs: \\{.*?\\}\n", "graphs: {@GRAPHS@}\n");
        Files.writeString(conf.resolve("gremlin-server.yaml"), yaml);
        writeHosts(GRAPHS.length);
        script("start");
    }

    /** The hosts file: every node on 127.0.0.1, a free Gremlin port and {@code graphs} consecutive free fabric ports. */
    private void writeHosts(int graphs) throws IOException {
        StringBuilder hosts = new StringBuilder("# id host gremlin_port fabric_port\n");
        for (int k = 0; k < ports.length; k++) {
            ports[k] = freeGremlinPort(ports, k);
            hosts.append(k).append(" 127.0.0.1 ").append(ports[k]).append(' ').append(freePorts(graphs)).append('\n');
        }
        Files.writeString(dir.resolve("hosts"), hosts);
    }

    /**
     * A Gremlin port free now, from 10000-17999 (18000 up: the fixed ports of .ci/run and the fault
     * harness): below the fabric ports ({@link #freePorts}) and the
     * kernel's ephemeral range, where an outgoing connection of another process (a Ratis client's,
     * say) could take it before the node binds it (a CI run lost a start so); not one of the
     * {@code k} ports given already.
     */
    private static int freeGremlinPort(int[] given, int k) throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = 10000 + ThreadLocalRandom.current().nextInt(8000);
            boolean taken = false;
            for (int i = 0; i < k; i++) {
                taken |= given[i] == port;
            }
            if (!taken && isFree(port)) {
                return port;
            }
        }
        throw new IOException("no free Gremlin port found in 10000-17999");
    }

    /**
     * The first of {@code count} consecutive fabric ports free now, with the membership group's
     * ports above them ({@link GroupConfig#DEFAULT_PORT_OFFSET} higher) free too; all below the
     * kernel's ephemeral range (32768 up), where the Gremlin ports of {@link TestNode#freePort} and
     * every outgoing connection's port come from.
     */
    private static int freePorts(int count) throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int first = 20000 + ThreadLocalRandom.current().nextInt(10000);
            boolean free = true;
            for (int p = first; p < first + count && free; p++) {
                free = isFree(p) && isFree(p + GroupConfig.DEFAULT_PORT_OFFSET);
            }
            if (free) {
                return first;
            }
        }
        throw new IOException("no " + count + " consecutive free ports (and their group ports) found");
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port)) {
            socket.setReuseAddress(true);
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    /** The hosts file. */
    public Path hosts() {
        return dir.resolve("hosts");
    }

    /** {@code deploy/gtran-cluster} with this cluster's options: append a command to run it. */
    public List<String> command() {
        List<String> command = new ArrayList<>(List.of(HOME.resolve("deploy/gtran-cluster").toString(),
                "--hosts", hosts().toString(), "--dir", dir.resolve("run").toString()));
        if (oneGraph) {
            command.add("--faults");
        } else {
            command.addAll(List.of("--conf", dir.resolve("conf").toString()));
        }
        return command;
    }

    /**
     * Runs {@code deploy/gtran-cluster COMMAND} on this cluster as {@link #script} does (on this
     * JVM's class path: the script builds nothing) and returns its output, whatever its exit.
     */
    public String run(String command) throws IOException, InterruptedException {
        List<String> line = command();
        line.add(command);
        ProcessBuilder builder = environment(new ProcessBuilder(line).redirectErrorStream(true));
        Process p = builder.start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        return text;
    }

    /** The script's environment for this cluster: this JVM's class path, a small heap per node. */
    private static ProcessBuilder environment(ProcessBuilder builder) {
        builder.environment().put("GTRAN_CLASSPATH", System.getProperty("java.class.path"));
        builder.environment().put("GTRAN_NODE_HEAP", "-Xmx768m");
        return builder;
    }

    /** Runs {@code deploy/gtran-cluster COMMAND} on this cluster; throws with its output if it fails. */
    private void script(String command) throws IOException {
        Path log = dir.resolve(command + ".log");
        List<String> line = command();
        line.add(command);
        ProcessBuilder builder = environment(new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(log.toFile()));
        Process p = builder.start();
        try {
            if (!p.waitFor(400, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("deploy/gtran-cluster " + command + " did not end in 400 s: " + tail(Files.readString(log)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IllegalStateException("interrupted during deploy/gtran-cluster " + command);
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException("deploy/gtran-cluster " + command + " failed (" + p.exitValue() + "): " + tail(Files.readString(log)));
        }
    }

    private static String tail(String text) {
        return text.length() < 4000 ? text : text.substring(text.length() - 4000);
    }

    /** A driver cluster for node {@code k}'s Gremlin endpoint. */
    Cluster client(int k, Serializers serializer) {
        return Cluster.build("127.0.0.1").port(ports[k]).serializer(serializer.simpleInstance()).create();
    }

    /** Node {@code k}'s Gremlin port. */
    public int port(int k) {
        return ports[k];
    }

    int size() {
        return ports.length;
    }

    @Override
    public void close() {
        try {
            script("stop");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
