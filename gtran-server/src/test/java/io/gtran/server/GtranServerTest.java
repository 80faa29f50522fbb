package io.gtran.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import java.util.stream.StreamSupport;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.jsr223.GremlinPlugin;
import org.apache.tinkerpop.gremlin.jsr223.ImportCustomizer;
import org.apache.tinkerpop.gremlin.server.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The plugin, the default configuration and the node's own errors. */
class GtranServerTest {

    @Test
    void thePluginIsFoundByServiceLoaderAndImportsGtranClasses() {
        GremlinPlugin plugin = StreamSupport.stream(ServiceLoader.load(GremlinPlugin.class).spliterator(), false)
                .filter(p -> p.getName().equals(GtranGremlinPlugin.NAME)).findFirst().orElseThrow();
        ImportCustomizer imports = (ImportCustomizer) plugin.getCustomizers().orElseThrow()[0];
        assertTrue(imports.getClassImports().stream().anyMatch(c -> c.getSimpleName().equals("GtranGraph")));
        assertTrue(imports.getClassImports().stream().anyMatch(c -> c.getSimpleName().equals("TransactionAbortedException")));
    }

    @Test
    void theDefaultConfigurationIsLoopbackOnlyWithAbsolutePaths(@TempDir Path dir) throws Exception {
        Path yaml = GtranServer.writeDefaultConfiguration(dir, "127.0.0.1", 8399);
        Settings settings = Settings.read(yaml.toString());
        assertEquals("127.0.0.1", settings.host);
        assertEquals(8399, settings.port);
        assertEquals(dir.toAbsolutePath().resolve("gtran.properties").toString().replace('\\', '/'), settings.graphs.get("graph"));
        assertTrue(Files.readString(dir.resolve("gtran.properties")).contains("gremlin.graph=io.gtran.core.GtranGraph"));
        assertFalse(settings.ssl.enabled);
        assertTrue(settings.authentication.authenticator.endsWith("AllowAllAuthenticator"),
                "no authentication by default (the node listens on loopback only): " + settings.authentication.authenticator);
    }

    @Test
    void aMissingOrMalformedConfigurationIsNamedInTheError(@TempDir Path dir) throws Exception {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> GtranServer.start(dir.resolve("nope.yaml")));
        assertTrue(missing.getMessage().contains("nope.yaml"), missing.getMessage());
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "port: [not a number\n");
        IllegalArgumentException malformed = assertThrows(IllegalArgumentException.class, () -> GtranServer.start(bad));
        assertTrue(malformed.getMessage().contains("bad.yaml"), malformed.getMessage());
    }

    @Test
    @Timeout(60)
    void aPortInUseIsReportedAndTheFirstNodeKeepsServing() throws Exception {
        try (TestNode node = TestNode.start()) {
            Path yaml = GtranServer.writeDefaultConfiguration(Files.createTempDirectory("gtran-clash"), "127.0.0.1", node.port);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> GtranServer.start(yaml));
            assertTrue(e.getMessage().contains(Integer.toString(node.port)), e.getMessage());
            Cluster cluster = node.cluster();
            try {
                Client client = cluster.connect();
                assertEquals(0L, client.submit("g.V().hasLabel('none').count()").one().getLong());
            } finally {
                cluster.close();
            }
        }
    }

    @Test
    @Timeout(60)
    void scriptsSeeThePluginsImports() throws Exception {
        try (TestNode node = TestNode.start()) {
            Cluster cluster = node.cluster();
            try {
                Client client = cluster.connect();
                client.submit("graph.indexes().create(Vertex.class, 'name', Indexes.Type.HASH)").all().get();
                assertEquals("hash", client.submit("graph.indexes().indexed(Vertex.class).get('name')").one().getString());
                assertEquals("SERIALIZABLE", client.submit("graph.isolation().name()").one().getString());
            } finally {
                cluster.close();
            }
        }
    }
}
