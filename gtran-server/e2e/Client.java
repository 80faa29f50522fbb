// gtran end to end through gremlin-driver (Java): elements read back by the ids the server gave
// them, and add, commit and roll back through g.tx(). Run with the JDK's source launcher:
//   java -cp "$SERVER_HOME/lib/*:gremlin-driver-3.8.1.jar" Client.java ws://127.0.0.1:8182/gremlin
import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.apache.tinkerpop.gremlin.structure.VertexProperty.Cardinality.list;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Transaction;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;

final class Client {
    private static final String LABEL = "java";

    public static void main(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        Cluster cluster = Cluster.build(url.getHost()).port(url.getPort()).serializer(Serializers.GRAPHBINARY_V1).create();
        try {
            GraphTraversalSource g = traversal().with(DriverRemoteConnection.using(cluster, "g"));
            g.V().hasLabel(LABEL).drop().iterate();
            readBackById(g);
            transactions(g);
        } finally {
            cluster.close();
        }
        System.out.println("E2E client=java ok");
    }

    static void readBackById(GraphTraversalSource g) {
        Object a = g.addV(LABEL).property("name", "id-a").id().next();
        Object b = g.addV(LABEL).property("name", "id-b").id().next();
        Object e = g.addE("knows").from(__.V(a)).to(__.V(b)).property("name", "id-e").id().next();
        check(a instanceof Long && b instanceof Long && e instanceof Long, "ids are Longs: " + a + " " + b + " " + e);
        check(g.V(a).values("name").toList().equals(List.of("id-a")), "g.V(id)");
        Vertex va = g.V(a).next();
        check(g.V(va).values("name").toList().equals(List.of("id-a")), "g.V(vertex)");
        check(g.V().hasId(b).values("name").toList().equals(List.of("id-b")), "hasId");
        check(g.E(e).values("name").toList().equals(List.of("id-e")), "g.E(id)");
        check(g.E().hasId(e).inV().id().toList().equals(List.of(b)), "g.E().hasId(id) and its in-vertex");

        Object p = g.V(a).properties("name").id().next();
        check(g.V(a).properties("name").hasId(p).value().toList().equals(List.of("id-a")), "vertex property by id");
        g.V(a).property(list, "tag", "x").property(list, "tag", "y").iterate();
        List<Object> tags = g.V(a).properties("tag").id().toList();
        check(tags.size() == 2 && !tags.get(0).equals(tags.get(1)), "two list properties, two ids: " + tags);
        check(g.V(a).properties("tag").hasId(tags.get(1)).value().toList().equals(List.of("y")), "list property by id");

        Object merged = g.mergeE(Map.of(T.label, "knows", Direction.OUT, a, Direction.IN, b)).id().next();
        check(merged.equals(e), "mergeE with ids finds the edge: " + merged + " != " + e);
        Object created = g.mergeE(Map.of(T.label, "likes", Direction.OUT, b, Direction.IN, a)).id().next();
        check(g.E(created).outV().values("name").toList().equals(List.of("id-b")), "mergeE with ids creates the edge");

        UUID uuid = UUID.randomUUID();
        g.addV(LABEL).property(T.id, "java-named").property("name", "named")
                .addV(LABEL).property(T.id, uuid).property("name", "uuid").iterate();
        check(g.V("java-named", uuid).values("name").order().toList().equals(List.of("named", "uuid")), "user-supplied ids");
        check(g.V(uuid.toString()).id().toList().equals(List.of(uuid)), "a UUID id by its string form");

        // ids that name nothing find nothing, not another element: a dropped vertex's, a rolled-back
        // vertex's (whose slot the next vertex may take), an edge's as a vertex's, another property's
        Object gone = g.addV(LABEL).property("name", "gone").id().next();
        g.V(gone).drop().iterate();
        check(g.V(gone).toList().isEmpty(), "a dropped vertex's id");
        Transaction tx = g.tx();
        GraphTraversalSource gtx = tx.begin();
        Object rolledBack = gtx.addV(LABEL).property("name", "rolled back").id().next();
        tx.rollback();
        Object again = g.addV(LABEL).property("name", "again").id().next();
        check(g.V(rolledBack).toList().isEmpty(), "a rolled-back vertex's id");
        check(g.V(again).values("name").toList().equals(List.of("again")), "the next vertex by its id");
        check(g.V(e).toList().isEmpty() && g.E(a).toList().isEmpty(), "an edge's id names no vertex, a vertex's no edge");
        check(g.V(a).properties("name").hasId(tags.get(0)).toList().isEmpty(), "another property's id");
    }

    static void transactions(GraphTraversalSource g) {
        Transaction tx = g.tx();
        GraphTraversalSource gtx = tx.begin();
        Object c = gtx.addV(LABEL).property("name", "c").id().next();
        check(g.V(c).toList().isEmpty(), "uncommitted write invisible to others");
        tx.commit();
        check(g.V(c).values("name").toList().equals(List.of("c")), "commit makes it visible");

        tx = g.tx();
        gtx = tx.begin();
        Object d = gtx.addV(LABEL).property("name", "d").id().next();
        tx.rollback();
        check(g.V(d).toList().isEmpty(), "rollback discards");
    }

    static void check(boolean condition, String what) {
        if (!condition) {
            System.out.println("E2E client=java FAILED: " + what);
            System.exit(1);
        }
    }
}
