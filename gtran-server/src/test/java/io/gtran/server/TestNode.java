package io.gtran.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerIoRegistryV3;
import org.apache.tinkerpop.gremlin.util.MessageSerializer;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;

/**
 * A gtran node for tests on a free loopback port: the default node (graph {@code graph},
 * source {@code g}) plus TinkerPop's test graphs ({@code gmodern}, {@code gclassic}, {@code gcrew},
 * {@code gsink}, {@code ggrateful}, and {@code ggraph} for the empty graph).
 */
final class TestNode implements AutoCloseable {
    private static final String[] FILES = {"test-server.yaml", "gtran.properties", "gtran-list.properties", "test-init.groovy"};

    final GtranServer server;
    final int port;
    private final Path dir;

    private TestNode(GtranServer server, int port, Path dir) {
        this.server = server;
        this.port = port;
        this.dir = dir;
    }

    /** A node with {@code settings} (YAML lines such as {@code "idleConnectionTimeout: 3000"}) added to its server configuration. */
    static TestNode start(String... settings) {
        try {
            Path dir = Files.createTempDirectory("gtran-test-node-");
            int port = freePort();
            for (String name : FILES) {
                try (InputStream in = TestNode.class.getResourceAsStream(name)) {
                    String text = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                            .replace("DIR", dir.toAbsolutePath().toString().replace('\\', '/'))
                            .replace("PORT", Integer.toString(port));
                    if (name.equals(FILES[0])) {
                        text += String.join("\n", settings) + "\n";
                    }
                    Files.writeString(dir.resolve(name), text);
                }
            }
            return new TestNode(GtranServer.start(dir.resolve(FILES[0])), port, dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Cluster cluster(Serializers serializer) {
        MessageSerializer<?> configured = serializer.simpleInstance();
        if (serializer == Serializers.GRAPHSON_V3) {
            // subgraph() results are TinkerGraphs: the client needs TinkerGraph's GraphSON types, as the server has
            configured.configure(Map.of("ioRegistries", List.of(TinkerIoRegistryV3.class.getName())), null);
        }
        return Cluster.build("127.0.0.1").port(port).serializer(configured).create();
    }

    Cluster cluster() {
        return cluster(Serializers.GRAPHBINARY_V1);
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        server.close();
        for (String name : FILES) {
            dir.resolve(name).toFile().delete();
        }
        dir.toFile().delete();
    }
}
