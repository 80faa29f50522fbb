package io.gtran.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;

/**
 * A gtran cluster of {@code n} separate processes on 127.0.0.1, each a {@code GtranServer} (as
 * {@code bin/gtran server --conf} runs it) serving TinkerPop's test graphs: every graph of the
 * test node ({@code graph}, {@code modern}, ...) is one cluster of its own over the n processes
 * (a node carries one graph), with fabric ports of its own; vertices spread over the members.
 * Node 0 loads the data ({@code test-init.groovy}). Closing stops every process (SIGTERM,
 * then SIGKILL after 20 s).
 */
final class ClusterProcesses implements AutoCloseable {
    private static final String[] TEST_GRAPHS = {"graph", "modern", "classic", "crew", "sink", "grateful"};
    /**
     * The init script of {@link #startOneGraph}: binds {@code g}; the first time (at start, before
     * ready) it waits for every member. Gremlin Server runs it again for every session, when a
     * member may have died since: it must not wait then.
     */
    private static final String ONE_GRAPH_INIT = "if (System.getProperty('gtran.test.members') == null) {\n"
            + "  graph.node().awaitMembers(60000)\n  System.setProperty('gtran.test.members', 'all')\n}\n"
            + "def globals = [:]\nglobals << [g : traversal().withEmbedded(graph)]\n";
    /** The system property that sets the graphs' gtran.execution (batched, the default, or pushed, element). */
    static final String EXECUTION = "gtran.test.execution";

    private final List<Process> processes = new ArrayList<>();
    private final int[] ports;
    private final Path dir;
    private final String[] graphNames;
    /** The init script's text, or null for the test graphs' {@code test-init.groovy}. */
    private final String init;
    private int[][] fabric;

    private ClusterProcesses(int n, Path dir, String[] graphs, String init) {
        this.ports = new int[n];
        this.dir = dir;
        this.graphNames = graphs;
        this.init = init;
    }

    static ClusterProcesses start(int n) {
        return start(n, TEST_GRAPHS, null);
    }

    /** A cluster serving one graph, {@code graph} with source {@code g}, and no data: for the cluster check. */
    static ClusterProcesses startOneGraph(int n) {
        return start(n, new String[] {"graph"}, ONE_GRAPH_INIT);
    }

    private static ClusterProcesses start(int n, String[] graphs, String init) {
        try {
            ClusterProcesses c = new ClusterProcesses(n, Files.createTempDirectory("gtran-cluster-"), graphs, init);
            try {
                c.launch();
            } catch (RuntimeException | IOException e) {
                c.close();
                throw e;
            }
            return c;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void launch() throws IOException {
        int n = ports.length;
        fabric = new int[graphNames.length][n];
        for (int k = 0; k < n; k++) {
            ports[k] = TestNode.freePort();
            for (int g = 0; g < graphNames.length; g++) {
                fabric[g][k] = TestNode.freePort();
            }
        }
        String flags;
        try (InputStream in = GtranServer.class.getResourceAsStream("jvm-flags.txt")) {
            flags = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        for (int k = 0; k < n; k++) {
            Path node = Files.createDirectories(dir.resolve("node" + k));
            StringBuilder graphs = new StringBuilder();
            for (int g = 0; g < graphNames.length; g++) {
                List<String> peers = new ArrayList<>();
                for (int j = 0; j < n; j++) {
                    peers.add("127.0.0.1:" + fabric[g][j]);
                }
                Files.writeString(node.resolve(graphNames[g] + ".properties"), String.join("\n",
                        "gremlin.graph=io.gtran.core.GtranGraph",
                        "gtran.isolation=SERIALIZABLE",
                        "gtran.placement=spread",
                        "gtran.execution=" + System.getProperty(EXECUTION, "batched"),
                        graphNames[g].equals("crew") ? "gtran.vertex-property.cardinality=list" : "",
                        "gtran.storage.node-id=" + k,
                        "gtran.storage.chunk-bytes=65536",
                        "gtran.storage.edge-row.chunk-bytes=65536",
                        "gtran.storage.external-ids.max=20000",
                        "gtran.fabric.node=" + k,
                        "gtran.fabric.nodes=" + String.join(",", peers)) + "\n");
                graphs.append(g == 0 ? "" : ",\n  ").append(graphNames[g]).append(": ").append(path(node.resolve(graphNames[g] + ".properties")));
            }
            if (init != null) {
                Files.writeString(node.resolve("test-init.groovy"), init);
            } else {
                try (InputStream in = ClusterProcesses.class.getResourceAsStream("test-init.groovy")) {
                    Files.write(node.resolve("test-init.groovy"), in.readAllBytes());
                }
            }
            String yaml;
            try (InputStream in = ClusterProcesses.class.getResourceAsStream("test-server.yaml")) {
                yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            // Element-at-a-time reads over TCP make some grateful-dead scenarios take longer than one node's 30 s.
            yaml = yaml.replace("evaluationTimeout: 30000", "evaluationTimeout: 180000")
                    .replace("PORT", Integer.toString(ports[k]))
                    .replace("DIR/test-init.groovy", path(node.resolve("test-init.groovy")))
                    .replaceAll("(?s)graphs: \\{.*?\\}\n", "graphs: {\n  " + graphs + "}\n");
            Files.writeString(node.resolve("server.yaml"), yaml);
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.add("-Xmx768m");
            command.addAll(List.of(flags.split("\\s+")));
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(GtranServer.class.getName());
            command.add("--conf");
            command.add(node.resolve("server.yaml").toString());
            processes.add(new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(node.resolve("out.txt").toFile()).start());
        }
        for (int k = 0; k < n; k++) {
            awaitReady(k);
        }
    }

    private static String path(Path p) {
        return p.toAbsolutePath().toString().replace('\\', '/');
    }

    private void awaitReady(int k) throws IOException {
        Path out = dir.resolve("node" + k).resolve("out.txt");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline) {
            String text = Files.exists(out) ? Files.readString(out) : "";
            if (text.contains("GTRAN_SERVER ready")) {
                return;
            }
            if (!processes.get(k).isAlive()) {
                throw new IllegalStateException("cluster node " + k + " exited (" + processes.get(k).exitValue() + "): " + tail(text));
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for node " + k);
            }
        }
        throw new IllegalStateException("cluster node " + k + " not ready after 180 s: " + tail(Files.readString(out)));
    }

    private static String tail(String text) {
        return text.length() < 4000 ? text : text.substring(text.length() - 4000);
    }

    /** A driver cluster for node {@code k}'s Gremlin endpoint. */
    Cluster client(int k, Serializers serializer) {
        return Cluster.build("127.0.0.1").port(ports[k]).serializer(serializer.simpleInstance()).create();
    }

    int size() {
        return ports.length;
    }

    int port(int k) {
        return ports[k];
    }

    /** Node {@code k}'s fabric port of its first graph. */
    int fabricPort(int k) {
        return fabric[0][k];
    }

    /** Node {@code k}'s process id, for a script that signals it. */
    long pid(int k) {
        return processes.get(k).pid();
    }

    /** Where node {@code k} writes its output. */
    Path output(int k) {
        return dir.resolve("node" + k).resolve("out.txt");
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            try {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
    }
}
