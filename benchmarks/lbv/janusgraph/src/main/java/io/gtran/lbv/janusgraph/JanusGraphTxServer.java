package io.gtran.lbv.janusgraph;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.tinkerpop.gremlin.server.GremlinServer;
import org.apache.tinkerpop.gremlin.server.Settings;

/**
 * JanusGraph 1.1.0 ({@code inmemory}, as LBV's janusgraph-server) behind Gremlin Server 3.7.3 with
 * sessions, on 127.0.0.1 and the port given (default 8193), until the process is stopped: the
 * server {@code benchmarks/remote-tx} compares short remote transactions against (docs/benchmarks.md,
 * "Short remote transactions"). Prints {@code JANUSGRAPH_SERVER ready port=P} once it serves.
 */
public final class JanusGraphTxServer {
    private JanusGraphTxServer() {
    }

    public static void main(String[] args) throws Exception {
        int port = 8193;
        if (args.length > 0) {
            try {
                port = Integer.parseInt(args[0]);
            } catch (NumberFormatException e) {
                System.err.println("janusgraph-tx-server: the port must be a number: " + args[0]);
                System.exit(2);
            }
        }
        Path dir = Files.createTempDirectory("janusgraph-tx-server-");
        Path yaml = JanusGraphServerLbvSystem.writeConfiguration(dir, port, JanusGraphServerLbvSystem.GREMLIN_POOL_DEFAULT, true);
        GremlinServer server = new GremlinServer(Settings.read(yaml.toString()));
        server.start().join();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop().join()));
        System.out.println("JANUSGRAPH_SERVER ready port=" + port + " conf=" + yaml);
        Thread.currentThread().join();
    }
}
