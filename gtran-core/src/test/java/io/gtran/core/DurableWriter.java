package io.gtran.core;

import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;

/**
 * A process that commits on a graph with a data directory until it is killed: transaction i adds
 * two vertices with {@code txn=i} and an edge between them, and prints {@code ACK i} once its
 * commit returned. {@link GtranKillRestartTest} kills it with SIGKILL and reads the directory.
 *
 * <p>Arguments: the directory, the durability (sync, async), and optionally how many records
 * start a snapshot ({@code gtran.durability.snapshot-records}).
 */
public final class DurableWriter {
    private DurableWriter() {
    }

    public static void main(String[] args) {
        GtranGraph graph = GtranGraph.open(TestGraphs.config("gtran.storage.directory", args[0], "gtran.durability", args[1],
                "gtran.durability.snapshot-records", args.length > 2 ? args[2] : "500000"));
        System.out.println("READY");
        System.out.flush();
        for (int i = 0; ; i++) {
            Vertex a = graph.addVertex(T.label, "t", "txn", i, "side", "a");
            Vertex b = graph.addVertex(T.label, "t", "txn", i, "side", "b");
            a.addEdge("pair", b, "txn", i);
            graph.tx().commit();
            System.out.println("ACK " + i);
            System.out.flush();
        }
    }
}
