package io.gtran.lbv.gtran;

import java.util.Locale;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Transaction;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;

/**
 * Short remote transactions through the Java driver: one client, for {@code --seconds}, begins a
 * {@code g.tx()} transaction (a Gremlin Server session), adds one vertex and commits, one after
 * another, against a running node. {@code bin/gtran bench remote-tx [--host H] [--port P]
 * [--seconds S]} runs it and prints {@code REMOTE_TX client=java commits=N per_second=R
 * worst_ms=W}; {@code benchmarks/remote-tx/remote_tx.py} does the same through gremlinpython
 * (docs/benchmarks.md, "Short remote transactions").
 */
public final class RemoteTxBench {
    private RemoteTxBench() {
    }

    public static void main(String[] args) throws Exception {
        String host = "127.0.0.1";
        int port = 8182;
        double seconds = 10;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--host" -> host = require(args[i], value);
                case "--port" -> port = Integer.parseInt(require(args[i], value));
                case "--seconds" -> seconds = Double.parseDouble(require(args[i], value));
                default -> {
                    System.err.println("gtran bench remote-tx: unknown option " + args[i]);
                    System.err.println("usage: bin/gtran bench remote-tx [--host H] [--port P] [--seconds S]");
                    System.exit(2);
                }
            }
            i++;
        }
        Cluster cluster = Cluster.build(host).port(port).serializer(Serializers.GRAPHBINARY_V1.simpleInstance()).create();
        try {
            GraphTraversalSource g = AnonymousTraversalSource.traversal().with(DriverRemoteConnection.using(cluster, "g"));
            long end = System.nanoTime() + (long) (seconds * 1e9);
            long commits = 0;
            long worst = 0;
            while (System.nanoTime() - end < 0) {
                long start = System.nanoTime();
                Transaction tx = g.tx();
                GraphTraversalSource gtx = tx.begin();
                gtx.addV("remote_tx").property("n", commits).id().next(); // next(), not iterate(): a 3.7 server knows no discard()
                tx.commit();
                worst = Math.max(worst, System.nanoTime() - start);
                commits++;
            }
            System.out.printf(Locale.ROOT, "REMOTE_TX client=java commits=%d per_second=%.1f worst_ms=%.1f%n", commits,
                    commits / seconds, worst / 1e6);
        } catch (RuntimeException e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            System.err.println("gtran bench remote-tx: a transaction on " + host + ":" + port + " failed: " + root);
            System.exit(1);
        } finally {
            cluster.close();
        }
    }

    private static String require(String option, String value) {
        if (value == null) {
            System.err.println("gtran bench remote-tx: " + option + " needs a value");
            System.exit(2);
        }
        return value;
    }
}
