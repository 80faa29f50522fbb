package io.gtran.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * gtran-server/conf/remote-gtran.yaml, the file docs/server.md has the Gremlin Console's
 * {@code :remote connect} use, reaches a node on the default configuration: the console sends
 * scripts and gets results as strings, which is what this client does with that file.
 */
class RemoteConsoleConfTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void theShippedRemoteYamlConnectsToTheDefaultNode() throws Exception {
        int port = TestNode.freePort();
        Path shipped = Paths.get(System.getProperty("build.dir"), "..", "conf", "remote-gtran.yaml");
        Path remote = dir.resolve("remote-gtran.yaml");
        Files.writeString(remote, Files.readString(shipped).replaceFirst("(?m)^port: \\d+", "port: " + port));
        try (GtranServer node = GtranServer.start(GtranServer.writeDefaultConfiguration(dir.resolve("conf"), "127.0.0.1", port))) {
            Cluster cluster = Cluster.open(remote.toString());
            try {
                Client client = cluster.connect();
                List<Result> results = client.submit("g.addV('console').property('name', 'from-console').iterate(); "
                        + "g.V().hasLabel('console').values('name')").all().get();
                assertEquals(List.of("from-console"), results.stream().map(Result::getString).collect(Collectors.toList()));
            } finally {
                cluster.close();
            }
        }
    }
}
