package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Property;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.TransactionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What GtranGraph refuses, how it says so, and that it stays usable afterwards. */
class GtranBadInputTest {
    private final TestGraphs opened = new TestGraphs();

    @AfterEach
    void cleanUp() {
        opened.close();
    }

    private static BaseConfiguration config(String... settings) {
        return TestGraphs.config(settings);
    }

    private GtranGraph open(String... settings) {
        return opened.openWith(settings);
    }

    private <V> V inThread(java.util.concurrent.Callable<V> task) throws Exception {
        return opened.inThread(task);
    }

    @ParameterizedTest
    @CsvSource({
            "gtran.unknown, 1",
            "gtran.index.vertex.hashes, name",
            "gtran.isolation, READ_COMMITTED",
            "gtran.isolation, ''",
            "gtran.vertex-property.cardinality, multi",
            "gtran.storage.bogus, 1",
            "gtran.storage.value.max-bytes, lots",
            "gtran.storage.value.max-bytes, -1",
            "gtran.txn.bogus, 1",
            "gtran.txn.validation, maybe"})
    @Timeout(30)
    void badConfigurationFailsOpenNamingTheKey(String key, String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> open(key, value));
        assertTrue(e.getMessage().contains(key), () -> "message should name " + key + ": " + e.getMessage());
        GtranGraph fine = open(); // a failed open leaves nothing behind that breaks the next one
        fine.addVertex();
        fine.tx().commit();
        assertEquals(1L, fine.traversal().V().count().next());
    }

    @ParameterizedTest
    @CsvSource({
            "gtran.isolaton, gtran.isolation",
            "gtran.index.vertex.hashes, gtran.index.vertex.hash",
            "gtran.allow-null-property-value, gtran.allow-null-property-values"})
    @Timeout(30)
    void aMisspeltKeyIsRefusedWithTheKeyItResembles(String key, String meant) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> open(key, "SNAPSHOT"));
        assertTrue(e.getMessage().contains("unknown configuration key: " + key + "=SNAPSHOT; did you mean " + meant + "?"),
                e.getMessage());
        IllegalArgumentException far = assertThrows(IllegalArgumentException.class, () -> open("gtran.partitions", "4"));
        assertFalse(far.getMessage().contains("did you mean"), far.getMessage());
    }

    @Test
    @Timeout(30)
    void aKeyDeclaredWithBothIndexTypesIsRefused() {
        // indexes().create refuses a key that has an index of the other type; open must not silently pick one
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> open(GtranGraph.VERTEX_HASH_INDEX, "k", GtranGraph.VERTEX_ORDERED_INDEX, "k"));
        assertTrue(e.getMessage().contains("k"), e.getMessage());
    }

    @Test
    @Timeout(30)
    void unsupportedIdTypesAreRefusedWithoutLeavingElementsBehind() {
        GtranGraph graph = open();
        Vertex a = graph.addVertex(T.id, "a");
        graph.tx().commit();
        for (Object bad : List.of(1.5, 2.0d, 3.0f, new Object(), new StringBuilder("sb"), List.of(1))) {
            assertTrue(graph.vertices().hasNext()); // a transaction runs
            // TinkerPop's exceptions for the element kind (UnsupportedOperationException, naming identifiers)
            assertTinkerPop(Vertex.Exceptions.userSuppliedIdsOfThisTypeNotSupported(), () -> graph.addVertex(T.id, bad, "name", "bad"));
            assertTinkerPop(Edge.Exceptions.userSuppliedIdsOfThisTypeNotSupported(), () -> a.addEdge("e", a, T.id, bad));
            assertTrue(graph.tx().isOpen(), "a refused argument is no reason to end the running transaction");
            assertFalse(graph.vertices(bad).hasNext());
        }
        Vertex b = graph.addVertex(T.id, "b");
        a.addEdge("e", b, T.id, "ab");
        graph.tx().commit();
        assertAll(
                () -> assertEquals(List.of("a", "b"), graph.traversal().V().id().order().toList(), "no vertex from the refused adds"),
                () -> assertEquals(List.of("ab"), graph.traversal().E().id().toList(), "no edge from the refused adds"));
    }

    @Test
    @Timeout(30)
    void aDoubleIdOutsideTheRangeOfLongsNamesNoElement() {
        GtranGraph graph = open();
        graph.addVertex(T.id, Long.MAX_VALUE);
        graph.addVertex(T.id, Long.MIN_VALUE);
        graph.tx().commit();
        assertEquals(List.of(Long.MAX_VALUE), graph.traversal().V(Long.MAX_VALUE).id().toList());
        for (Object far : List.of(1e19, 0x1p63, -1e19, Double.POSITIVE_INFINITY, Double.NaN, 1e19f)) {
            assertFalse(graph.vertices(far).hasNext(), () -> far + " must name no vertex");
        }
        assertEquals(List.of(Long.MIN_VALUE), graph.traversal().V(-0x1p63).id().toList(), "-2^63 is a long");
        graph.tx().rollback();
    }

    static final class Opaque {
        @Override
        public String toString() {
            return "opaque";
        }
    }

    @Test
    @Timeout(30)
    void nonSerializableValuesAreRefused() {
        GtranGraph graph = open();
        Vertex v = graph.addVertex("x", "before");
        Edge e = v.addEdge("self", v, "w", "before");
        VertexProperty<Object> vp = v.property("x");
        graph.tx().commit();
        List<Object> badValues = List.of(new Opaque(), new ArrayList<>(List.of(new Opaque())));
        for (Object bad : badValues) {
            assertAll(
                    () -> assertThrows(IllegalArgumentException.class, () -> v.property("x", bad)),
                    () -> assertThrows(IllegalArgumentException.class, () -> v.property(VertexProperty.Cardinality.list, "y", bad)),
                    () -> assertThrows(IllegalArgumentException.class, () -> e.property("w", bad)),
                    () -> assertThrows(IllegalArgumentException.class, () -> vp.property("meta", bad)));
        }
        assertTrue(graph.tx().isOpen());
        assertEquals("before", v.value("x"));
        assertEquals("before", e.value("w"));
        v.property("z", 1);
        graph.tx().commit();
        assertEquals(List.of("before"), graph.traversal().V().values("x").toList());
        assertEquals(List.of(1), graph.traversal().V().values("z").toList());
        assertEquals(0L, graph.traversal().V().properties("x").properties().count().next());
        assertEquals(List.of("before"), graph.traversal().E().values("w").toList());
    }

    private static void assertTinkerPop(Exception expected, Executable call) {
        Exception actual = (Exception) assertThrows(expected.getClass(), call);
        assertEquals(expected.getMessage(), actual.getMessage());
    }

    @Test
    @Timeout(30)
    void nullEmptyAndHiddenKeysAndLabelsAreRefusedAsTinkerPopSays() {
        GtranGraph graph = open();
        Vertex v = graph.addVertex("name", "v");
        Edge e = v.addEdge("self", v);
        VertexProperty<Object> vp = v.property("name");
        graph.tx().commit();
        assertAll(
                () -> assertTinkerPop(Element.Exceptions.labelCanNotBeNull(), () -> graph.addVertex(T.label, null)),
                () -> assertTinkerPop(Element.Exceptions.labelCanNotBeEmpty(), () -> graph.addVertex(T.label, "")),
                () -> assertTinkerPop(Element.Exceptions.labelCanNotBeAHiddenKey("~h"), () -> graph.addVertex(T.label, "~h")),
                () -> assertTinkerPop(Element.Exceptions.labelCanNotBeNull(), () -> v.addEdge(null, v)),
                () -> assertTinkerPop(Element.Exceptions.labelCanNotBeEmpty(), () -> v.addEdge("", v)),
                () -> assertTinkerPop(Element.Exceptions.labelCanNotBeAHiddenKey("~h"), () -> v.addEdge("~h", v)),
                () -> assertTinkerPop(Element.Exceptions.providedKeyValuesMustHaveALegalKeyOnEvenIndices(), () -> graph.addVertex(null, 1)),
                () -> assertTinkerPop(Element.Exceptions.providedKeyValuesMustBeAMultipleOfTwo(), () -> graph.addVertex("k", 1, "odd")),
                () -> assertTinkerPop(Property.Exceptions.propertyKeyCanNotBeNull(), () -> v.property(null, 1)),
                () -> assertTinkerPop(Property.Exceptions.propertyKeyCanNotBeEmpty(), () -> v.property("", 1)),
                () -> assertTinkerPop(Property.Exceptions.propertyKeyCanNotBeAHiddenKey("~h"), () -> v.property("~h", 1)),
                () -> assertTinkerPop(Property.Exceptions.propertyKeyCanNotBeNull(), () -> e.property(null, 1)),
                () -> assertTinkerPop(Property.Exceptions.propertyKeyCanNotBeEmpty(), () -> e.property("", 1)),
                () -> assertTinkerPop(Property.Exceptions.propertyKeyCanNotBeAHiddenKey("~h"), () -> e.property("~h", 1)),
                () -> assertTinkerPop(Property.Exceptions.propertyKeyCanNotBeEmpty(), () -> vp.property("", 1)),
                () -> assertTinkerPop(Property.Exceptions.propertyKeyCanNotBeAHiddenKey("~h"), () -> vp.property("~h", 1)),
                () -> assertTinkerPop(Property.Exceptions.propertyKeyCanNotBeEmpty(), () -> v.addEdge("x", v, "", 1)));
        graph.tx().rollback();
        v.property("ok", 1);
        graph.tx().commit();
        assertEquals(List.of("self"), graph.traversal().E().label().toList());
        assertEquals(1L, graph.traversal().V().has("ok", 1).count().next());
    }

    @Test
    @Timeout(30)
    void valuesOverTheSizeLimitAreRefusedAndNothingElseIsLost() {
        GtranGraph graph = open("gtran.storage.value.max-bytes", "1024", GtranGraph.VERTEX_HASH_INDEX, "big");
        Vertex v = graph.addVertex(T.id, "v", "big", "small");
        Edge e = v.addEdge("self", v, "w", "small");
        graph.tx().commit();
        String ascii1024 = "x".repeat(1024);
        String twoByte1024 = "é".repeat(512);
        List<Object> tooLarge = List.of("x".repeat(1025), "é".repeat(513), "x".repeat(100_000), new ArrayList<>(java.util.Collections.nCopies(400, 12345)));
        for (Object huge : tooLarge) {
            String what = huge instanceof String s ? "a string of " + s.length() + " chars" : "a list";
            RuntimeException r = assertThrows(RuntimeException.class, () -> v.property("big", huge), what);
            assertTrue(String.valueOf(r.getMessage()).contains("1024"), () -> "message should give the limit: " + r);
            assertTrue(graph.tx().isOpen(), "the transaction survives a refused value");
            assertEquals("small", v.value("big"), "the previous value is intact after " + what);
            assertThrows(RuntimeException.class, () -> e.property("w", huge), what);
            assertEquals("small", e.value("w"));
        }
        v.property("big", ascii1024); // at the limit: accepted
        v.property("other", twoByte1024);
        graph.tx().commit();
        assertEquals(List.of(ascii1024), graph.traversal().V("v").values("big").toList());
        assertEquals(List.of(twoByte1024), graph.traversal().V("v").values("other").toList());
        assertEquals(1L, graph.traversal().V().has("big", ascii1024).count().next());
        assertEquals(0L, graph.traversal().V().has("big", "small").count().next());
        assertEquals(List.of("small"), graph.traversal().E().values("w").toList());
        // list cardinality: all of a key's values are stored as one; growing past the limit is refused
        Vertex m = graph.addVertex(T.id, "m");
        int added = 0;
        RuntimeException refused = null;
        for (int i = 0; i < 30 && refused == null; i++) {
            try {
                m.property(VertexProperty.Cardinality.list, "p", i + "-" + "p".repeat(100));
                added++;
            } catch (RuntimeException ex) {
                refused = ex;
            }
        }
        assertTrue(refused != null && added > 0, "30 values of 100 bytes do not fit in 1024 bytes: added=" + added);
        assertEquals(added, (long) graph.traversal().V("m").properties("p").count().next(), "values before the refused one are kept");
        graph.tx().commit();
        assertEquals(added, (long) graph.traversal().V("m").properties("p").count().next());
    }

    @Test
    @Timeout(60)
    void addEdgeToARemovedVertexFails() throws Exception {
        GtranGraph graph = open();
        Vertex a = graph.addVertex(T.id, "a");
        Vertex b = graph.addVertex(T.id, "b");
        Vertex c = graph.addVertex(T.id, "c");
        Vertex d = graph.addVertex(T.id, "d");
        graph.tx().commit();
        b.remove(); // removed in this transaction
        assertThrows(IllegalStateException.class, () -> a.addEdge("e", b));
        assertThrows(IllegalStateException.class, () -> b.addEdge("e", a));
        graph.tx().commit();
        inThread(() -> { graph.vertices("c").next().remove(); graph.tx().commit(); return null; }); // removed and committed elsewhere
        assertThrows(IllegalStateException.class, () -> a.addEdge("e", c));
        assertThrows(IllegalStateException.class, () -> a.addEdge("e", graph.vertices("a").next(), "x", 1).inVertex().addEdge("f", c));
        graph.tx().rollback();
        inThread(() -> { graph.vertices("d").next().remove(); return null; }); // being removed, not committed: d's remover waits
        ExecutorService remover = opened.lastThread();
        Throwable t = assertThrows(Throwable.class, () -> a.addEdge("e", d));
        if (t instanceof TransactionException) {
            assertNotNull(assertInstanceOf(TransactionAbortedException.class, t).conflict());
            assertTrue(graph.tx().isOpen(), "aborted while running: it awaits rollback");
            assertThrows(TransactionAbortedException.class, () -> a.addEdge("e", a), "and refuses further writes");
        } else {
            assertInstanceOf(IllegalStateException.class, t);
        }
        remover.submit(() -> { graph.tx().commit(); return null; }).get(30, TimeUnit.SECONDS);
        graph.tx().rollback();
        a.addEdge("ok", a);
        graph.tx().commit();
        assertEquals(List.of("a"), graph.traversal().V().id().toList());
        assertEquals(List.of("ok"), graph.traversal().E().label().toList());
    }

    @Test
    @Timeout(60)
    void userSuppliedLongIdsNeverCollideWithGeneratedIds() throws Exception {
        GtranGraph graph = open();
        long first = (long) graph.addVertex().id(); // an internal id: generated ids are near it
        graph.tx().commit();
        for (int i = 1; i <= 8; i++) {
            graph.addVertex(T.id, first + 10 + i, "kind", "user");
        }
        graph.tx().commit();
        for (int i = 0; i < 40; i++) {
            graph.addVertex("kind", "generated");
        }
        graph.tx().commit();
        List<Object> ids = graph.traversal().V().id().toList();
        Set<Object> distinct = new HashSet<>(ids);
        assertEquals(49, ids.size());
        assertEquals(ids.size(), distinct.size(), "two vertices show the same id: " + ids.stream()
                .filter(x -> ids.indexOf(x) != ids.lastIndexOf(x)).collect(Collectors.toSet()));
        for (Object id : distinct) {
            assertEquals(1L, graph.traversal().V(id).count().next(), "g.V(" + id + ")");
        }
    }
}
