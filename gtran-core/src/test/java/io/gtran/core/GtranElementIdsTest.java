package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.ElementIds;
import io.gtran.storage.StoreConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Generated ids of every element kind stay below 2^53 (so JavaScript clients hold them exactly),
 * are small for a small graph, name their owner node, and find exactly their element again.
 */
@SuppressWarnings("unchecked")
class GtranElementIdsTest {
    private static final long JS_SAFE = 1L << 53;
    private final TestGraphs graphs = new TestGraphs();

    @AfterEach
    void close() {
        graphs.close();
    }

    private static long id(Object id) {
        return assertInstanceOf(Long.class, id, "generated ids are Longs");
    }

    private static void assertSafeAndOwned(Object id, int node) {
        long value = id(id);
        assertTrue(value > 0 && value < JS_SAFE, "id below 2^53: " + value);
        assertEquals(node, ElementIds.node(value), "the id names its owner node: " + value);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3, ElementIds.MAX_NODE})
    @Timeout(60)
    void everyKindOfIdIsSmallSafeOwnedAndFindsItsElement(int node) {
        GtranGraph graph = graphs.openWith(StoreConfig.NODE_ID, String.valueOf(node));
        GraphTraversalSource g = graph.traversal();
        Vertex a = g.addV("person").property("name", "a").next();
        Vertex b = g.addV("person").property("name", "b").property(VertexProperty.Cardinality.list, "tag", "x")
                .property(VertexProperty.Cardinality.list, "tag", "y").next();
        Edge e = g.addE("knows").from(a).to(b).property("since", 2020).next();
        graph.tx().commit();

        List<VertexProperty<Object>> tags = new ArrayList<>();
        g.V(b.id()).properties("tag").forEachRemaining(p -> tags.add((VertexProperty<Object>) p));
        VertexProperty<Object> name = (VertexProperty<Object>) g.V(a.id()).properties("name").next();
        Set<Object> all = new HashSet<>();
        for (Object id : List.of(a.id(), b.id(), e.id(), name.id(), tags.get(0).id(), tags.get(1).id())) {
            assertSafeAndOwned(id, node);
            assertTrue(all.add(id), "ids of different elements differ: " + id);
        }
        assertTrue(id(a.id()) < 1 << 20 && id(e.id()) < 1 << 20, "a small graph has small ids: " + a.id() + ", " + e.id());

        assertEquals("a", g.V(a.id()).values("name").next());
        assertEquals(2020, g.E(e.id()).values("since").next());
        assertEquals("a", g.V().hasId(a.id()).values("name").next());
        assertEquals(name.id(), g.V(a.id()).properties("name").hasId(name.id()).id().next());
        for (VertexProperty<Object> tag : tags) {
            assertEquals(tag.value(), g.V(b.id()).properties("tag").hasId(tag.id()).value().next());
        }
        // A JavaScript client sends a number as a double, a small Python int arrives as an Integer.
        assertEquals("a", g.V((double) id(a.id())).values("name").next());
        if (id(a.id()) <= Integer.MAX_VALUE) {
            assertEquals("a", g.V((int) id(a.id())).values("name").next());
        }
        // The id of one kind names nothing of another kind.
        assertEquals(0, g.V(e.id()).count().next());
        assertEquals(0, g.E(a.id()).count().next());
        assertEquals(0, g.V(name.id()).count().next());
        assertEquals(0, g.V(id(a.id()) + 4096 * 1000).count().next(), "a never-issued id finds nothing");
    }

    @Test
    @Timeout(120)
    void keysBeyondTheDerivedRangeGetCountedIdsThatRoundTrip() {
        GtranGraph graph = graphs.openWith(StoreConfig.NODE_ID, "5");
        GraphTraversalSource g = graph.traversal();
        Vertex filler = g.addV("filler").next();
        for (int k = 0; k <= ElementIds.MAX_DERIVED_KEY + 1; k++) {
            filler.property("k" + k, k); // interns key ids up to past the derived range
        }
        graph.tx().commit();
        Vertex v = g.addV("v").property("late", "first").next();
        graph.tx().commit();
        VertexProperty<Object> late = (VertexProperty<Object>) g.V(v.id()).properties("late").next();
        assertSafeAndOwned(late.id(), 5);
        assertEquals(ElementIds.COUNTED_PROPERTY, ElementIds.kind(id(late.id())), "a key id past the range cannot be derived from");
        assertEquals("first", g.V(v.id()).properties("late").hasId(late.id()).value().next());

        g.V(v.id()).property("late", "second").iterate(); // single cardinality replaces
        graph.tx().commit();
        List<Object> values = g.V(v.id()).values("late").toList();
        assertEquals(List.of("second"), values);
        VertexProperty<Object> replaced = (VertexProperty<Object>) g.V(v.id()).properties("late").next();
        assertSafeAndOwned(replaced.id(), 5);
        assertNotEquals(late.id(), replaced.id(), "a replacing property is a new property");
        g.V(v.id()).properties("late").drop().iterate();
        graph.tx().commit();
        assertEquals(0, g.V(v.id()).properties("late").count().next());
        assertEquals(ElementIds.MAX_DERIVED_KEY, g.V(filler.id()).values("k" + ElementIds.MAX_DERIVED_KEY).next());
    }
}
