package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.Dictionary;
import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.Isolation;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Do-better items (c) and (d) (the list and what all the do-better tests share are in
 * {@link DoBetterScenario}): what a reader saw is checked again when it commits. Each test builds
 * the dangerous interleaving step by step:
 * <ul>
 *   <li>(c) a version read around (its writer executing) is re-checked at validation;
 *   <li>(d) phantoms through adjacency, label and edge scans, id look-ups and property-key
 *       listings abort at SR and are allowed at SI.
 * </ul>
 */
@Timeout(60)
class ReadValidationTest extends DoBetterScenario {
    // ---------------------------------------------------------------- (c) versions read around

    /** T1 reads x around W's uncommitted write (or removal); W commits inside T1's window; T1 must abort naming W. */
    @ParameterizedTest
    @EnumSource(names = {"UPDATE", "REMOVE"})
    void versionReadAroundAnExecutingWriterIsRecheckedAtValidation(Write kind) {
        open(Map.of());
        long v = committedVertex(0L);
        long z = committedVertex(0L);
        update(v, x, 1L); // a full version at the head, as after any update
        Transaction t1 = node.begin(Isolation.SERIALIZABLE);
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        if (kind == Write.UPDATE) {
            w.setVertexProperty(v, x, 2L);
        } else {
            w.removeVertexProperty(v, x);
        }
        assertEquals(1L, t1.vertexProperty(v, x), "an executing writer's version is read around");
        w.commit();
        assertEquals(1L, t1.vertexProperty(v, x), "still T1's snapshot");
        t1.setVertexProperty(z, note, "t1");
        expectConflict(ConflictKind.READ_WRITE, w.id(), t1::commit);
    }

    // ---------------------------------------------------------------- (d) phantoms

    /**
     * The scenarios: what T1 reads (checking what it saw), what T2 writes and commits in between.
     * The last four are not phantoms but reads of one property through the other ways of reading
     * it: a listing of all properties, and a removal (which tells whether the property was there).
     */
    enum Phantom {
        OUT_EDGES, IN_EDGES, EDGE_REMOVED, NEIGHBOUR_DELETED, LABEL_SCAN_INSERT, ANY_LABEL_SCAN_INSERT, LABEL_SCAN_DELETE,
        ANY_LABEL_SCAN_DELETE, EDGE_SCAN_INSERT, ANY_EDGE_SCAN_INSERT, ID_LOOKUP_DELETE, ID_LOOKUP_INSERT, EDGE_ID_LOOKUP_DELETE,
        PROPERTY_KEYS, PROPERTY_REMOVED, LISTED_PROPERTY_UPDATED, ABSENT_PROPERTY_REMOVED
    }

    /**
     * T1 reads by adjacency, label scan, edge scan, id look-up or property-key listing; T2 changes
     * what that read returned and commits; T1 writes elsewhere and commits. At SR T1 aborts
     * (READ_WRITE naming T2); at SI it commits: SI allows these anomalies (write skew on a
     * predicate) by definition, since only write-write conflicts abort it.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Phantom.class)
    void phantomsAbortAtSerializable(Phantom p) {
        phantom(p, Isolation.SERIALIZABLE);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Phantom.class)
    void phantomsCommitAtSnapshot(Phantom p) {
        phantom(p, Isolation.SNAPSHOT);
    }

    private void phantom(Phantom p, Isolation isolation) {
        open(Map.of());
        int other = node.label("other");
        int color = node.key("color");
        long v = committedVertex(0L);
        long u = committedVertex(0L);
        long z = committedVertex(0L);
        Transaction s = node.begin(Isolation.SERIALIZABLE);
        long e = s.addEdge(v, u, knows);
        s.commit();
        Transaction t1 = node.begin(isolation);
        Transaction t2 = node.begin(isolation);
        long[] created = new long[1];
        if (p == Phantom.ID_LOOKUP_INSERT) {
            created[0] = t2.addVertex(person); // uncommitted when T1 looks it up
        }
        switch (p) { // T1's read, and what it saw
            case OUT_EDGES -> assertEquals(1, t1.edges(v, EdgeDirection.OUT, EdgeCursor.ANY_LABEL).length);
            case IN_EDGES -> assertEquals(0, t1.edges(v, EdgeDirection.IN, EdgeCursor.ANY_LABEL).length);
            case EDGE_REMOVED -> assertEquals(1, t1.edges(v, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL).length);
            case NEIGHBOUR_DELETED -> assertEquals(1, t1.edges(v, EdgeDirection.OUT, knows).length);
            case LABEL_SCAN_INSERT, LABEL_SCAN_DELETE -> assertEquals(3, t1.vertices(person).length);
            case ANY_LABEL_SCAN_INSERT, ANY_LABEL_SCAN_DELETE -> assertEquals(3, t1.vertices(EdgeCursor.ANY_LABEL).length);
            case EDGE_SCAN_INSERT -> assertEquals(1, t1.allEdges(knows).length);
            case ANY_EDGE_SCAN_INSERT -> assertEquals(1, t1.allEdges(EdgeCursor.ANY_LABEL).length);
            case ID_LOOKUP_DELETE -> assertTrue(t1.vertexExists(u));
            case ID_LOOKUP_INSERT -> assertFalse(t1.vertexExists(created[0]));
            case EDGE_ID_LOOKUP_DELETE -> assertTrue(t1.edgeExists(e));
            case PROPERTY_KEYS, LISTED_PROPERTY_UPDATED -> assertEquals(Set.of(x), t1.vertexProperties(v).keySet());
            case PROPERTY_REMOVED -> assertEquals(0L, t1.vertexProperty(v, x));
            case ABSENT_PROPERTY_REMOVED -> assertFalse(t1.removeVertexProperty(v, color));
            default -> throw new AssertionError(p);
        }
        switch (p) { // T2's write
            case OUT_EDGES -> t2.addEdge(v, z, knows);
            case IN_EDGES -> t2.addEdge(z, v, knows);
            case EDGE_REMOVED -> t2.removeEdge(e);
            case LABEL_SCAN_INSERT -> t2.addVertex(person);
            case ANY_LABEL_SCAN_INSERT -> t2.addVertex(other);
            case NEIGHBOUR_DELETED, LABEL_SCAN_DELETE, ID_LOOKUP_DELETE, ANY_LABEL_SCAN_DELETE -> t2.removeVertex(u); // and edge v->u
            case EDGE_SCAN_INSERT -> t2.addEdge(z, u, knows);
            case ANY_EDGE_SCAN_INSERT -> t2.addEdge(z, u, other);
            case EDGE_ID_LOOKUP_DELETE -> t2.removeEdge(e);
            case ID_LOOKUP_INSERT -> { }
            case PROPERTY_KEYS, ABSENT_PROPERTY_REMOVED -> t2.setVertexProperty(v, color, "red");
            case PROPERTY_REMOVED -> assertTrue(t2.removeVertexProperty(v, x));
            case LISTED_PROPERTY_UPDATED -> t2.setVertexProperty(v, x, 5L);
            default -> throw new AssertionError(p);
        }
        t2.commit();
        t1.setVertexProperty(z, note, "t1");
        if (isolation == Isolation.SERIALIZABLE) {
            expectConflict(ConflictKind.READ_WRITE, t2.id(), t1::commit);
        } else {
            t1.commit();
            assertTrue(t1.isCommitted());
        }
    }

    /**
     * A layer above that scans a label in an index of its own says so with {@link
     * Transaction#recordLabelScan}: an element created with that label, or (for a label no element
     * ever had) with any new label, and committed inside T1's window, aborts T1 at SR.
     */
    @ParameterizedTest(name = "known label: {0}")
    @ValueSource(booleans = {true, false})
    void aLabelScanRecordedByALayerAboveCatchesAPhantom(boolean known) {
        open(Map.of());
        long z = committedVertex(0L);
        Transaction t1 = node.begin(Isolation.SERIALIZABLE);
        Transaction t2 = node.begin(Isolation.SERIALIZABLE);
        t1.recordLabelScan(ElementKind.VERTEX, known ? person : Dictionary.ABSENT);
        t2.addVertex(known ? person : node.label("newcomer"));
        t2.commit();
        t1.setVertexProperty(z, note, "t1");
        expectConflict(ConflictKind.READ_WRITE, t2.id(), t1::commit);
    }

    /** ... and an element created with another, known label does not. */
    @Test
    void aLabelScanRecordedByALayerAboveIgnoresOtherLabels() {
        open(Map.of());
        int other = node.label("other");
        long z = committedVertex(0L);
        Transaction t1 = node.begin(Isolation.SERIALIZABLE);
        Transaction t2 = node.begin(Isolation.SERIALIZABLE);
        t1.recordLabelScan(ElementKind.VERTEX, person);
        t2.addVertex(other);
        t2.commit();
        t1.setVertexProperty(z, note, "t1");
        t1.commit();
        assertTrue(t1.isCommitted());
    }
}
