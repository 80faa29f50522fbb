package io.gtran.lbv.janusgraph;

import io.gtran.lbv.LatencyQuery;
import io.gtran.lbv.LbvQuery;
import io.gtran.lbv.QueryParams;
import org.apache.tinkerpop.gremlin.process.traversal.Order;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Vertex;

import java.util.List;
import java.util.function.LongFunction;

/**
 * The LBV and latency queries as Gremlin, until lbv-gremlin's GremlinQueries is merged here (then
 * this class goes). {@code vertexId}/{@code edgeId} map dataset ids to JanusGraph ids (null: none).
 */
final class InterimQueries {
    private final String lookupKey;
    private final String q7EdgeLabel;
    private final LongFunction<Object> vertexId;
    private final LongFunction<Object> edgeId;

    InterimQueries(String lookupKey, String q7EdgeLabel, LongFunction<Object> vertexId, LongFunction<Object> edgeId) {
        this.lookupKey = lookupKey;
        this.q7EdgeLabel = q7EdgeLabel;
        this.vertexId = vertexId;
        this.edgeId = edgeId;
    }

    private GraphTraversal<Vertex, Vertex> v(GraphTraversalSource g, long datasetId) {
        Object id = vertexId.apply(datasetId);
        return id == null ? g.V().limit(0) : g.V(id);
    }

    private GraphTraversal<Edge, Edge> e(GraphTraversalSource g, long datasetId) {
        Object id = edgeId.apply(datasetId);
        return id == null ? g.E().limit(0) : g.E(id);
    }

    long lbv(GraphTraversalSource g, LbvQuery query, QueryParams p) {
        switch (query) {
            case Q2: {
                GraphTraversal<Vertex, Vertex> t = g.addV(p.label());
                p.properties().forEach(t::property);
                return t.toList().size();
            }
            case Q3:
            case Q4: {
                Object a = vertexId.apply(p.vertex());
                Object b = vertexId.apply(p.otherVertex());
                if (a == null || b == null) {
                    return 0;
                }
                GraphTraversal<Vertex, Edge> t = g.V(a).as("a").V(b).addE(p.label()).from("a");
                if (query == LbvQuery.Q4) {
                    p.properties().forEach(t::property);
                }
                return t.toList().size();
            }
            case Q5:
            case Q16:
                return v(g, p.vertex()).property(p.key(), p.value()).toList().size();
            case Q6:
            case Q17:
                return e(g, p.edge()).property(p.key(), p.value()).toList().size();
            case Q7: {
                GraphTraversal<Vertex, Vertex> t = g.addV(p.label());
                p.properties().forEach(t::property);
                Vertex created = t.next();
                long n = 1;
                for (int i = 0; i < p.fanout(); i++) {
                    Object target = vertexId.apply(i % 2 == 0 ? p.vertex() : p.otherVertex());
                    if (target != null) {
                        n += g.V(created).as("a").V(target).addE(q7EdgeLabel).from("a").toList().size();
                    }
                }
                return n;
            }
            case Q11:
                return g.V().has(p.key(), p.value()).toList().size();
            case Q12:
                return g.E().has(p.key(), p.value()).toList().size();
            case Q13:
                return g.E().hasLabel(p.label()).count().next();
            case Q14:
                return v(g, p.vertex()).valueMap().toList().size();
            case Q15:
                return e(g, p.edge()).valueMap().toList().size();
            case Q18: {
                List<Vertex> vs = v(g, p.vertex()).toList();
                vs.forEach(Vertex::remove);
                return vs.size();
            }
            case Q19: {
                List<Edge> es = e(g, p.edge()).toList();
                es.forEach(Edge::remove);
                return es.size();
            }
            case Q20:
                return v(g, p.vertex()).sideEffect(__.properties(p.key()).drop()).toList().size();
            case Q21:
                return e(g, p.edge()).sideEffect(__.properties(p.key()).drop()).toList().size();
            case Q22:
                return v(g, p.vertex()).in().toList().size();
            case Q23:
                return v(g, p.vertex()).out().toList().size();
            case Q24:
                return v(g, p.vertex()).both(p.label()).toList().size();
            case Q25:
                return v(g, p.vertex()).inE().label().dedup().toList().size();
            case Q26:
                return v(g, p.vertex()).outE().label().dedup().toList().size();
            case Q27:
                return v(g, p.vertex()).bothE().label().dedup().toList().size();
            default:
                throw new IllegalArgumentException("unknown query=" + query);
        }
    }

    long latency(GraphTraversalSource g, LatencyQuery query, QueryParams p) {
        GraphTraversal<Vertex, Vertex> s = g.V().has(lookupKey, p.lookupValue());
        switch (query) {
            case IS1:
                return s.union(__.values("firstName", "lastName", "birthday", "locationIP", "browserUsed"),
                        __.out("isLocatedIn").values("name")).toList().size();
            case IS2:
                return s.in("hasCreator").has("creationDate").order().by("creationDate", Order.desc).limit(10).as("msg")
                        .union(__.hasLabel("post").out("hasCreator").values("firstName"),
                                __.hasLabel("comment").out("replyOf").out("hasCreator").values("firstName"))
                        .as("author").select("msg", "author").toList().size();
            case IS3:
                return s.union(__.outE("knows").as("k").inV().as("f").select("k").values("creationDate").as("d")
                                .select("f", "d"),
                        __.inE("knows").as("k").outV().as("f").select("k").values("creationDate").as("d")
                                .select("f", "d")).toList().size();
            case IS4:
                return s.union(__.hasLabel("comment").values("content", "creationDate"),
                        __.hasLabel("post").values("imageFile", "creationDate")).toList().size();
            case KHOP1:
                return s.both().count().next();
            case KHOP2:
                return s.both().both().count().next();
            case KHOP3:
                return s.both().both().both().count().next();
            case KHOP4:
                return s.both().both().both().both().count().next();
            default:
                throw new IllegalArgumentException("unknown query=" + query);
        }
    }
}
