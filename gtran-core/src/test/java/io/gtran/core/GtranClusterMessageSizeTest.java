package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.core.suites.InJvmClusterGraph;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.ForwardingFabric;
import io.gtran.storage.ElementIds;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.TxnConfig;
import io.gtran.txn.common.ReplyTooLargeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Messages between members on a cluster, and values as large as a node takes: a member writes and
 * reads them on every other member; a batch whose answer would not fit in one message (16 MiB) is
 * asked again in smaller pieces, and an answer that cannot be cut fails at once, saying so, instead
 * of leaving the asker waiting. The remote time-out is ten minutes here, so a wait for it fails
 * the test's own time-out.
 */
@Timeout(120)
class GtranClusterMessageSizeTest {
    private static final int MIB = 1 << 20;

    private static GtranGraph cluster() {
        return cluster(new AtomicInteger(Fabric.MAX_TRANSFER_BYTES));
    }

    /** A cluster whose members send messages of at most {@code limit} bytes (read at each message). */
    private static GtranGraph cluster(AtomicInteger limit) {
        BaseConfiguration c = new BaseConfiguration();
        c.setProperty(InJvmClusterGraph.COORDINATOR_KEY, 0);
        c.setProperty(TxnConfig.REMOTE_TIMEOUT_MS, 600_000);
        return InJvmClusterGraph.open(c, fabric -> new ForwardingFabric(fabric) {
            @Override
            public int maxMessageBytes() {
                return limit.get();
            }
        });
    }

    /** Vertices "v0".."v{n-1}", placed over the members by their ids; returns those node 0 does not keep. */
    private static List<Vertex> addVertices(GtranGraph graph, int n) {
        GtranBulk bulk = graph.bulk();
        for (int i = 0; i < n; i++) {
            bulk.addVertex("v" + i, "person", Map.of("n", i));
        }
        graph.tx().commit();
        List<Vertex> remote = new ArrayList<>();
        graph.traversal().V().forEachRemaining(v -> {
            if (ElementIds.node(((GtranElement) v).internalId) != 0) {
                remote.add(v);
            }
        });
        graph.tx().commit();
        return remote;
    }

    @Test
    void aValueAsLargeAsANodeTakesIsWrittenAndReadOnEveryMember() {
        int limit = StoreConfig.from(Map.of()).valueMaxBytes(); // what a node takes by default, read when the test runs
        String largest = "x".repeat(limit - 16); // its encoding adds a few bytes
        try (GtranGraph graph = cluster()) {
            List<Vertex> remote = addVertices(graph, 6);
            assertTrue(!remote.isEmpty(), "some of the vertices are kept by another member");
            GraphTraversalSource g = graph.traversal();
            for (int i = 0; i < 6; i++) {
                g.V("v" + i).property("big", largest).iterate();
                graph.tx().commit();
            }
            for (int i = 0; i < 6; i++) {
                assertEquals(largest.length(), g.V("v" + i).values("big").next().toString().length(), "v" + i);
            }
            graph.tx().commit();
        }
    }

    @Test
    void propertiesTooLargeForOneMessageAreReadOneAtATimeAndTheirMapFailsSayingWhy() {
        String ten = "y".repeat(10 * MIB);
        try (GtranGraph graph = cluster()) {
            List<Vertex> remote = addVertices(graph, 12);
            Object[] ids = sameMember(remote).stream().map(Vertex::id).toArray();
            assertTrue(ids.length >= 2, "two vertices kept by the same other member");
            GraphTraversalSource g = graph.traversal();
            g.V(ids[0]).property("a", ten).property("b", ten).iterate();
            g.V(ids[1]).property("a", ten).iterate();
            graph.tx().commit();

            // Read together, 'a' of both is 20 MiB: too much to read ahead in one answer, so each is read alone.
            List<Object> both = g.V(ids[0], ids[1]).values("a").toList();
            assertEquals(2, both.size());
            both.forEach(value -> assertEquals(ten.length(), value.toString().length()));
            assertEquals(ten.length(), g.V(ids[0]).values("b").next().toString().length());
            graph.tx().commit();

            // All of v's properties are 20 MiB: no single answer carries them, and the error says so at once.
            RuntimeException e = assertThrows(RuntimeException.class, () -> g.V(ids[0]).valueMap().next());
            ReplyTooLargeException tooLarge = cause(e);
            assertTrue(tooLarge.getMessage().contains("PROPERTIES") && tooLarge.getMessage().contains("one message carries"),
                    tooLarge.getMessage());
            graph.tx().rollback();
            assertEquals(ten.length(), g.V(ids[0]).values("b").next().toString().length(), "nothing was lost");
            graph.tx().commit();
        }
    }

    @Test
    void anOperationTooLargeForOneMessageIsRefusedUnsentAndTheTransactionGoesOn() {
        String huge = "z".repeat(16 * MIB + 1);
        try (GtranGraph graph = cluster()) {
            Vertex v = addVertices(graph, 6).get(0); // kept by another member; held across transactions
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> v.property("huge", huge));
            assertTrue(e.getMessage().contains("SET_PROPERTY") && e.getMessage().contains("nothing was sent"), e.getMessage());
            graph.tx().commit(); // the refused write was this transaction's only contact with that member
            v.property("small", 1);
            graph.tx().commit();
            GraphTraversalSource g = graph.traversal();
            assertEquals(1, g.V(v.id()).values("small").next());
            assertTrue(!g.V(v.id()).has("huge").hasNext());
            graph.tx().commit();
        }
    }

    @Test
    void aBatchOfEdgesTooLargeForOneAnswerIsAskedForInHalves() {
        AtomicInteger limit = new AtomicInteger(Fabric.MAX_TRANSFER_BYTES);
        int hubs = 30;
        int leaves = 100;
        try (GtranGraph graph = cluster(limit)) {
            GtranBulk bulk = graph.bulk();
            for (int i = 0; i < hubs; i++) {
                bulk.addVertex("h" + i, "hub", Map.of());
            }
            for (int k = 0; k < leaves; k++) {
                bulk.addVertex("l" + k, "leaf", Map.of());
            }
            graph.tx().commit();
            bulk = graph.bulk();
            for (int i = 0; i < hubs; i++) {
                for (int k = 0; k < leaves; k++) {
                    bulk.addEdge("e" + i + "_" + k, "h" + i, "l" + k, "knows", Map.of());
                }
            }
            bulk.flush();
            graph.tx().commit();

            // A hub's 100 edges take 1.6 KB to answer, the ten or so hubs of one member 16 KB: more than 8 KiB.
            limit.set(8 << 10);
            Object[] ids = new Object[hubs];
            for (int i = 0; i < hubs; i++) {
                ids[i] = "h" + i;
            }
            GraphTraversalSource g = graph.traversal();
            assertEquals((long) hubs * leaves, g.V(ids).out("knows").count().next());
            graph.tx().commit();
        }
    }

    /** The largest group of {@code vertices} that one member keeps. */
    private static List<Vertex> sameMember(List<Vertex> vertices) {
        Map<Integer, List<Vertex>> byMember = new java.util.TreeMap<>();
        for (Vertex v : vertices) {
            byMember.computeIfAbsent(ElementIds.node(((GtranElement) v).internalId), n -> new ArrayList<>()).add(v);
        }
        return byMember.values().stream().max(java.util.Comparator.comparingInt(List::size)).orElse(List.of());
    }

    private static ReplyTooLargeException cause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ReplyTooLargeException tooLarge) {
                return tooLarge;
            }
        }
        throw new AssertionError("not a reply too large: " + e, e);
    }
}
