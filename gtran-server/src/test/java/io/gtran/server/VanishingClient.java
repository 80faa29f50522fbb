package io.gtran.server;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;

import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Transaction;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;

/**
 * A client that opens a remote transaction, writes, and vanishes without commit or rollback. The
 * tests run its {@link #writeWithoutCommit} in their own JVM, or its {@link #main} as a separate
 * process that they kill with SIGKILL.
 */
final class VanishingClient {
    /** What the vanishing transaction writes on the shared vertex, and the label of the vertex it adds. */
    static final String VANISHED = "vanished";
    /** What {@link #main} prints once it has written. */
    static final String WROTE = "VANISHING_CLIENT wrote";

    private VanishingClient() {
    }

    /**
     * In a new remote transaction of {@code g}: sets {@code owner} on the vertex named {@code name}
     * to {@value #VANISHED} and adds a vertex labelled {@value #VANISHED}; neither commits nor rolls back.
     */
    static Transaction writeWithoutCommit(GraphTraversalSource g, String name) {
        Transaction tx = g.tx();
        GraphTraversalSource gtx = tx.begin();
        gtx.V().has("name", name).property("owner", VANISHED).iterate();
        gtx.addV(VANISHED).property("name", name).iterate();
        return tx;
    }

    /** {@code PORT NAME}: writes as {@link #writeWithoutCommit} through 127.0.0.1:PORT, prints {@value #WROTE}, then waits to be killed. */
    public static void main(String[] args) throws Exception {
        Cluster cluster = Cluster.build("127.0.0.1").port(Integer.parseInt(args[0]))
                .serializer(Serializers.GRAPHBINARY_V1).create();
        writeWithoutCommit(traversal().with(DriverRemoteConnection.using(cluster, "g")), args[1]);
        System.out.println(WROTE);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE); // holds its session open until the test kills this process
    }
}
