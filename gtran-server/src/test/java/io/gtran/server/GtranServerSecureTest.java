package io.gtran.server;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** conf/gremlin-server-secure.yaml as documented: a user and password over TLS. */
class GtranServerSecureTest {
    @TempDir
    static Path dir;
    private static GtranServer server;
    private static int port;

    @BeforeAll
    static void startSecureNode() throws Exception {
        port = TestNode.freePort();
        GtranServer.writeDefaultConfiguration(dir, "127.0.0.1", port); // gtran.properties and init.groovy
        Credentials.addUser(dir.resolve("credentials.kryo"), "alice", "s3cret");
        Credentials.writeCredentialsProperties(dir.resolve("credentials.properties"), dir.resolve("credentials.kryo"));
        String keytool = Paths.get(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(keytool, "-genkeypair", "-alias", "gtran", "-keyalg", "RSA", "-keysize", "2048",
                "-validity", "2", "-dname", "CN=localhost", "-keystore", dir.resolve("server.p12").toString(),
                "-storetype", "PKCS12", "-storepass", "changeit").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool failed");
        }
        String yaml;
        try (InputStream in = GtranServer.class.getResourceAsStream("/io/gtran/server/conf/gremlin-server-secure.yaml")) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        yaml = yaml.replace("conf/", dir.toAbsolutePath().toString().replace('\\', '/') + "/")
                .replaceFirst("(?m)^port: \\d+", "port: " + port);
        Path secure = dir.resolve("gremlin-server-secure.yaml");
        Files.writeString(secure, yaml);
        server = GtranServer.start(secure);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static Cluster.Builder client() {
        return Cluster.build("127.0.0.1").port(port).serializer(Serializers.GRAPHBINARY_V1).maxWaitForConnection(5000);
    }

    private static long count(Cluster cluster) throws Exception {
        try {
            GraphTraversalSource g = traversal().with(DriverRemoteConnection.using(cluster, "g"));
            return g.V().count().next();
        } finally {
            cluster.close();
        }
    }

    @Test
    @Timeout(60)
    void theRightUserOverTlsIsServed() throws Exception {
        Cluster cluster = client().enableSsl(true).sslSkipCertValidation(true).credentials("alice", "s3cret").create();
        GraphTraversalSource g = traversal().with(DriverRemoteConnection.using(cluster, "g"));
        try {
            g.addV("person").property("name", "alice").iterate();
            assertEquals(1L, g.V().has("name", "alice").count().next());
        } finally {
            g.close();
            cluster.close();
        }
    }

    @Test
    @Timeout(60)
    void aWrongPasswordIsRefused() {
        assertThrows(Exception.class, () -> count(client().enableSsl(true).sslSkipCertValidation(true).credentials("alice", "wrong").create()));
    }

    @Test
    @Timeout(60)
    void noCredentialsAreRefused() {
        assertThrows(Exception.class, () -> count(client().enableSsl(true).sslSkipCertValidation(true).create()));
    }

    @Test
    @Timeout(60)
    void plainTextIsRefused() {
        assertThrows(Exception.class, () -> count(client().credentials("alice", "s3cret").create()));
    }
}
