package io.gtran.core;

import io.gtran.core.suites.InJvmClusterGraph;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.ForwardingFabric;
import io.gtran.rdma.ForwardingMailbox;
import io.gtran.rdma.Mailbox;
import io.gtran.txn.protocol.NodeMailbox;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;

/**
 * Queries compared across execution modes on a 3-node in-JVM cluster graph (vertices spread, node
 * 0 coordinating in every mode, so the same elements are remote), with the messages of operations
 * (the operations family of each node's mailbox) that nodes send each other counted by their type byte.
 */
final class ClusterQueries {
    /** Operation requests. */
    static final int[] REQUESTS = {0};
    /** Requests, replies, chain forwards and results. */
    static final int[] ALL = {0, 1, 7, 8};

    private ClusterQueries() {
    }

    /** Counts the operations messages of {@code types} a node sends to other nodes. */
    private static final class Counting extends ForwardingFabric {
        private final LongAdder sent;
        private final int[] types;

        Counting(Fabric delegate, LongAdder sent, int[] types) {
            super(delegate);
            this.sent = sent;
            this.types = types;
        }

        @Override
        public Mailbox openMailbox(String name, int capacity) {
            return new ForwardingMailbox(super.openMailbox(name, capacity)) {
                @Override
                public CompletableFuture<Void> send(int node, String mailbox, byte[] payload) {
                    if (node != localNode() && mailbox.equals(NodeMailbox.NAME) && payload.length > 0 && counted(payload[0])) {
                        sent.increment();
                    }
                    return super.send(node, mailbox, payload);
                }
            };
        }

        private boolean counted(int type) {
            for (int t : types) {
                if (t == type) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A cluster graph in {@code execution}, counting the messages of {@code types} in {@code sent}. */
    static GtranGraph open(String execution, LongAdder sent, int[] types) {
        BaseConfiguration c = new BaseConfiguration();
        c.setProperty(GtranGraph.PLACEMENT, "spread");
        c.setProperty(GtranGraph.EXECUTION, execution);
        c.setProperty(InJvmClusterGraph.COORDINATOR_KEY, 0);
        return InJvmClusterGraph.open(c, fabric -> new Counting(fabric, sent, types));
    }

    /** Each query's answer and the messages of {@code types} it cost, in {@code execution}, on a graph {@code load} fills. */
    static Map<String, Object[]> run(String execution, int[] types, Consumer<GtranGraph> load,
            Map<String, Function<GraphTraversalSource, Object>> queries) {
        LongAdder sent = new LongAdder();
        Map<String, Object[]> results = new LinkedHashMap<>();
        try (GtranGraph graph = open(execution, sent, types)) {
            load.accept(graph);
            GraphTraversalSource g = graph.traversal();
            for (Map.Entry<String, Function<GraphTraversalSource, Object>> q : queries.entrySet()) {
                long before = sent.sum();
                Object answer = q.getValue().apply(g);
                graph.tx().commit();
                results.put(q.getKey(), new Object[] {answer, sent.sum() - before});
            }
        }
        return results;
    }
}
