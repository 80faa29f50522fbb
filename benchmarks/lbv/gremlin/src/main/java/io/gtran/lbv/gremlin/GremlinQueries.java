package io.gtran.lbv.gremlin;

import java.util.Map;
import org.apache.tinkerpop.gremlin.process.traversal.Order;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;

/**
 * The LBV queries (G-Tran paper, Appendix Table 4) and the latency queries (Table 5, adapted to the
 * {@code social} dataset's labels and keys) as Gremlin traversals. Each method runs one traversal,
 * closes it, and returns how many elements it read, wrote or removed. Ids are the system's own
 * (already mapped from dataset ids); an id that names no element (removed by an earlier query)
 * finds nothing and counts 0, never an error.
 *
 * <p>Every query is a single traversal ending in {@code count()} (or {@code elementMap()} for Q14
 * and Q15), so a remote system can send it as one request and a system that commits per request
 * (Gremlin Server sessionless) still runs each query as one transaction, and only a number (or one
 * map) crosses the wire. Counting is done by the system, so a system cannot skip reading what it
 * counts: every filter is still evaluated.
 *
 * <p>Only TinkerPop API present in both 3.7.3 and 3.8.1 with the same signatures: this class is
 * compiled against 3.7.3 and lbv-gtran runs it on 3.8.1 (its tests run every query there). In
 * particular no {@code g.with(...)} remote helpers, no 3.8-only steps.
 */
public final class GremlinQueries {
    /** The vertex property keys of a person that IS1 reads (LDBC SNB). */
    static final String[] PERSON_PROFILE = {"firstName", "lastName", "birthday", "locationIP", "browserUsed"};

    private GremlinQueries() {
    }

    // ------------------------------------------------------------------ C: creation

    /** Q2 {@code g.addV(label).property(k, v)...}: 1. */
    public static long addVertex(GraphTraversalSource g, String label, Map<String, Object> properties) {
        GraphTraversal<Vertex, Vertex> t = g.addV(label);
        properties.forEach(t::property);
        return count(t.count());
    }

    /**
     * Q3, Q4 {@code g.V(out).as('a').V(in).addE(label).from('a').property(k, v)...}: 1, or 0 if
     * either vertex is gone. Written with a mid-traversal {@code V()} rather than {@code
     * addE().from(__.V(out))}, which fails when the vertex is missing.
     */
    public static long addEdge(GraphTraversalSource g, Object outId, Object inId, String label, Map<String, Object> properties) {
        GraphTraversal<Vertex, Edge> t = g.V(outId).as("a").V(inId).addE(label).from("a");
        properties.forEach(t::property);
        return count(t.count());
    }

    /**
     * Q5 (a key the vertex lacks) and Q16 (a key it has, {@code mustExist}): {@code
     * g.V(id)[.has(key)].property(single, key, value)}; 1 if set, 0 if the vertex (or, for Q16, the
     * key) is gone.
     */
    public static long setVertexProperty(GraphTraversalSource g, Object id, String key, Object value, boolean mustExist) {
        GraphTraversal<Vertex, Vertex> t = g.V(id);
        if (mustExist) {
            t = t.has(key);
        }
        return count(t.property(VertexProperty.Cardinality.single, key, value).count());
    }

    /** Q6 and Q17: {@code g.E(id)[.has(key)].property(key, value)}, as {@link #setVertexProperty}. */
    public static long setEdgeProperty(GraphTraversalSource g, Object id, String key, Object value, boolean mustExist) {
        GraphTraversal<Edge, Edge> t = g.E(id);
        if (mustExist) {
            t = t.has(key);
        }
        return count(t.property(key, value).count());
    }

    /**
     * Q7: a new vertex and an edge from it to each target, {@code g.addV(label).property(...)
     * .as('n').union(V(t1).addE(edgeLabel).from('n'), V(t2).addE(...)...)}; returns 1 + the edges
     * added. One {@code union} branch per target, so a target named twice gets two edges (a
     * single {@code V(t1, t2, ...)} may or may not repeat a vertex, depending on the system) and a
     * target that is gone only loses its own edge. The vertex is added even when no target exists.
     */
    @SuppressWarnings({"unchecked", "rawtypes"}) // an array of generic branches for union()
    public static long addVertexWithEdges(GraphTraversalSource g, String label, Map<String, Object> properties,
                                          String edgeLabel, Object[] targets) {
        GraphTraversal<Vertex, Vertex> vertex = g.addV(label);
        properties.forEach(vertex::property);
        if (targets.length == 0) {
            return count(vertex.count());
        }
        Traversal<?, Edge>[] edges = new Traversal[targets.length];
        for (int i = 0; i < targets.length; i++) {
            edges[i] = __.V(targets[i]).addE(edgeLabel).from("n");
        }
        return 1 + count(vertex.as("n").union(edges).count());
    }

    // ------------------------------------------------------------------ R: read

    /** Q11 {@code g.V().has(key, value).count()}. */
    public static long verticesWith(GraphTraversalSource g, String key, Object value) {
        return count(g.V().has(key, value).count());
    }

    /** Q12 {@code g.E().has(key, value).count()}. */
    public static long edgesWith(GraphTraversalSource g, String key, Object value) {
        return count(g.E().has(key, value).count());
    }

    /** Q13 {@code g.E().hasLabel(label).count()}: a label scan. */
    public static long edgesLabelled(GraphTraversalSource g, String label) {
        return count(g.E().hasLabel(label).count());
    }

    /** Q14 {@code g.V(id).elementMap()}: the vertex with every property; 1, or 0 if it is gone. */
    public static long vertex(GraphTraversalSource g, Object id) {
        return found(g.V(id).elementMap());
    }

    /** Q15 {@code g.E(id).elementMap()}: 1, or 0 if it is gone. */
    public static long edge(GraphTraversalSource g, Object id) {
        return found(g.E(id).elementMap());
    }

    // ------------------------------------------------------------------ D: deletion

    /** Q18 {@code g.V(id).drop()} (its edges go with it): 1, or 0 if it was already gone. */
    public static long dropVertex(GraphTraversalSource g, Object id) {
        return count(g.V(id).sideEffect(__.drop()).count());
    }

    /** Q19 {@code g.E(id).drop()}: 1 or 0. */
    public static long dropEdge(GraphTraversalSource g, Object id) {
        return count(g.E(id).sideEffect(__.drop()).count());
    }

    /** Q20 {@code g.V(id).properties(key).drop()}: the properties removed (1, or 0). */
    public static long dropVertexProperty(GraphTraversalSource g, Object id, String key) {
        return count(g.V(id).properties(key).sideEffect(__.drop()).count());
    }

    /** Q21 {@code g.E(id).properties(key).drop()}: 1 or 0. */
    public static long dropEdgeProperty(GraphTraversalSource g, Object id, String key) {
        return count(g.E(id).properties(key).sideEffect(__.drop()).count());
    }

    // ------------------------------------------------------------------ T: traversal

    /** Q22 {@code g.V(id).in().count()}. */
    public static long in(GraphTraversalSource g, Object id) {
        return count(g.V(id).in().count());
    }

    /** Q23 {@code g.V(id).out().count()}. */
    public static long out(GraphTraversalSource g, Object id) {
        return count(g.V(id).out().count());
    }

    /** Q24 {@code g.V(id).both(label).count()}. */
    public static long both(GraphTraversalSource g, Object id, String label) {
        return count(g.V(id).both(label).count());
    }

    /** Q25 {@code g.V(id).inE().label().dedup().count()}. */
    public static long inLabels(GraphTraversalSource g, Object id) {
        return count(g.V(id).inE().label().dedup().count());
    }

    /** Q26 {@code g.V(id).outE().label().dedup().count()}. */
    public static long outLabels(GraphTraversalSource g, Object id) {
        return count(g.V(id).outE().label().dedup().count());
    }

    /** Q27 {@code g.V(id).bothE().label().dedup().count()}. */
    public static long bothLabels(GraphTraversalSource g, Object id) {
        return count(g.V(id).bothE().label().dedup().count());
    }

    // ------------------------------------------------------------------ latency (Table 5)

    /**
     * IS1: a person's profile properties and the name of the place it is located in; counts the
     * properties read (6 for a complete person).
     */
    @SuppressWarnings("unchecked") // union() of generic branches
    public static long is1(GraphTraversalSource g, String lookupKey, Object value) {
        return count(g.V().has(lookupKey, value)
                .union(any(__.properties(PERSON_PROFILE)), any(__.out("isLocatedIn").properties("name")))
                .count());
    }

    /**
     * IS2: a person's 10 latest messages (by creationDate), each with the first name of its
     * original author: a post's own creator, a comment's replied-to message's creator (one
     * {@code replyOf} hop, as in the paper). Counts the (message, author) pairs.
     */
    @SuppressWarnings("unchecked") // union() of generic branches
    public static long is2(GraphTraversalSource g, String lookupKey, Object value) {
        return count(g.V().has(lookupKey, value).in("hasCreator")
                .order().by("creationDate", Order.desc).limit(10).as("msg")
                .union(__.hasLabel("post").out("hasCreator").values("firstName"),
                        __.hasLabel("comment").out("replyOf").out("hasCreator").values("firstName"))
                .as("author").select("msg", "author")
                .count());
    }

    /** IS3: a person's friends ({@code knows} both ways) with each edge's creationDate; counts the pairs. */
    @SuppressWarnings("unchecked") // union() of generic branches
    public static long is3(GraphTraversalSource g, String lookupKey, Object value) {
        return count(g.V().has(lookupKey, value)
                .union(__.outE("knows").as("e").inV().as("friend")
                                .select("e").properties("creationDate").as("since").select("friend", "since"),
                        __.inE("knows").as("e").outV().as("friend")
                                .select("e").properties("creationDate").as("since").select("friend", "since"))
                .count());
    }

    /** IS4: a message's content (a comment) or imageFile (a post) and creationDate; counts the properties. */
    @SuppressWarnings("unchecked") // union() of generic branches
    public static long is4(GraphTraversalSource g, String lookupKey, Object value) {
        return count(g.V().has(lookupKey, value)
                .union(any(__.hasLabel("comment").properties("content", "creationDate")),
                        any(__.hasLabel("post").properties("imageFile", "creationDate")))
                .count());
    }

    /**
     * k-hop {@code g.V().has(lookupKey, value).both()...both().count()} with {@code hops} {@code
     * both()} steps: walks, not distinct vertices, as in the paper.
     */
    public static long khop(GraphTraversalSource g, String lookupKey, Object value, int hops) {
        if (hops < 1) {
            throw new IllegalArgumentException("hops must be at least 1: hops=" + hops);
        }
        GraphTraversal<Vertex, Vertex> t = g.V().has(lookupKey, value);
        for (int i = 0; i < hops; i++) {
            t = t.both();
        }
        return count(t.count());
    }

    // ------------------------------------------------------------------ helpers

    /**
     * A branch of {@code union()} typed as yielding objects: {@code properties()} yields a
     * wildcard type that javac cannot unify across branches; the count does not care.
     */
    @SuppressWarnings("unchecked")
    private static <S> Traversal<S, Object> any(Traversal<S, ?> branch) {
        return (Traversal<S, Object>) branch;
    }

    /** The single number a {@code count()} traversal yields; the traversal is closed. */
    static long count(Traversal<?, Long> traversal) {
        try {
            return traversal.next();
        } finally {
            close(traversal);
        }
    }

    /** 1 if the traversal yields something (read in full), 0 if not; the traversal is closed. */
    static long found(Traversal<?, ?> traversal) {
        try {
            return traversal.tryNext().isPresent() ? 1 : 0;
        } finally {
            close(traversal);
        }
    }

    /** Closes a traversal; {@link Traversal#close()} declares {@code Exception}. */
    static void close(Traversal<?, ?> traversal) {
        try {
            traversal.close();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("closing the traversal failed: " + e.getMessage(), e);
        }
    }
}
