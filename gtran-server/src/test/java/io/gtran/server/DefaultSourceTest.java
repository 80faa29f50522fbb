package io.gtran.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Transaction;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default configuration names no init script, which Gremlin Server would compile again for
 * every session, and the node binds {@code g} itself: scripts and bytecode, sessionless and in a
 * session ({@code g.tx()}), all reach the graph through it.
 */
class DefaultSourceTest {
    @Test
    void theDefaultConfigurationNamesNoInitScript(@TempDir Path dir) throws Exception {
        String yaml = Files.readString(GtranServer.writeDefaultConfiguration(dir, "127.0.0.1", 8399));
        assertFalse(yaml.contains("ScriptFileGremlinPlugin"), yaml);
    }

    @Test
    @Timeout(120)
    void gIsBoundForScriptsAndBytecodeWithAndWithoutASession(@TempDir Path dir) throws Exception {
        int port = TestNode.freePort();
        Path yaml = GtranServer.writeDefaultConfiguration(dir.resolve("conf"), "127.0.0.1", port, dir.resolve("data"));
        GtranServer server = GtranServer.start(yaml);
        Cluster cluster = Cluster.build("127.0.0.1").port(port).serializer(Serializers.GRAPHBINARY_V1.simpleInstance()).create();
        try {
            Client sessionless = cluster.connect();
            sessionless.submit("g.addV('script').iterate()").all().get();

            GraphTraversalSource g = AnonymousTraversalSource.traversal().with(DriverRemoteConnection.using(cluster, "g"));
            g.addV("bytecode").iterate();

            Client session = cluster.connect(UUID.randomUUID().toString());
            session.submit("g.addV('session').iterate(); graph.tx().commit()").all().get();
            session.close();

            Transaction tx = g.tx();
            GraphTraversalSource gtx = tx.begin();
            gtx.addV("tx").iterate();
            tx.commit();

            assertEquals(4L, sessionless.submit("g.V().count()").one().getLong());
            assertEquals(4L, g.V().count().next());
        } finally {
            cluster.close();
            server.close();
        }
    }
}
