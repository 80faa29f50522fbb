package io.gtran.server;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;

/**
 * The client side of the documented auth/TLS recipe, for a node started through {@code bin/gtran}
 * (gtran-server/e2e/launcher-secure.sh, run by .ci/run): {@code HOST PORT USER PASSWORD EXPORT.kryo}.
 * Over TLS (self-signed certificate) with the user's password it writes, reads and has the node
 * export its graph as Gryo to EXPORT.kryo; a wrong password must be refused. Prints
 * {@code SECURE_CLIENT ok ...} and exits 0, or says what failed and exits 1.
 */
public final class SecureClientCheck {
    private SecureClientCheck() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: SecureClientCheck HOST PORT USER PASSWORD EXPORT.kryo");
            System.exit(2);
        }
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        Path export = Paths.get(args[4]).toAbsolutePath();
        long count;
        Cluster cluster = client(host, port).credentials(args[2], args[3]).create();
        try {
            GraphTraversalSource g = traversal().with(DriverRemoteConnection.using(cluster, "g"));
            g.addV("person").property("name", "secure-client").iterate();
            count = g.V().has("person", "name", "secure-client").count().next();
            g.io(export.toString()).write().iterate();
        } finally {
            cluster.close();
        }
        if (count < 1) {
            fail("the vertex written was not read back");
        }
        if (!Files.isRegularFile(export) || Files.size(export) == 0) {
            fail("the Gryo export " + export + " is missing or empty");
        }
        Cluster wrong = client(host, port).credentials(args[2], args[3] + "-wrong").create();
        try {
            traversal().with(DriverRemoteConnection.using(wrong, "g")).V().count().next();
            fail("a wrong password was accepted");
        } catch (RuntimeException expected) {
            // refused, as it must be
        } finally {
            wrong.close();
        }
        System.out.println("SECURE_CLIENT ok host=" + host + " port=" + port + " user=" + args[2] + " count=" + count
                + " export_bytes=" + Files.size(export));
        System.exit(0);
    }

    private static Cluster.Builder client(String host, int port) {
        return Cluster.build(host).port(port).serializer(Serializers.GRAPHBINARY_V1).enableSsl(true)
                .sslSkipCertValidation(true).maxWaitForConnection(10000);
    }

    private static void fail(String message) {
        System.err.println("SECURE_CLIENT failed: " + message);
        System.exit(1);
    }
}
