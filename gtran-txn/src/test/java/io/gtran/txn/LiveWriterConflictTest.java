package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.EdgeCursor;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.Isolation;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Writes that meet a live (executing) transaction's word: the second writer aborts at once, with
 * the conflict kind of the rule that caught it and naming the first; the first goes on and
 * commits. One case per branch of WriteRules that meets a live word, single-threaded.
 */
@Timeout(60)
class LiveWriterConflictTest extends DoBetterScenario {
    /** What W (first, still executing) does, what T (second) then does, and how T's abort is named. */
    enum Case {
        /** T deletes the vertex whose property W is writing. */
        DELETE_VERTEX_WHILE_PROPERTY_WRITTEN(ConflictKind.WRITE_WRITE),
        /** T deletes the vertex whose property W is removing. */
        DELETE_VERTEX_WHILE_PROPERTY_REMOVED(ConflictKind.WRITE_WRITE),
        /** T writes a property of the vertex W is deleting. */
        WRITE_PROPERTY_WHILE_VERTEX_DELETED(ConflictKind.DELETED_ELEMENT),
        /** T removes a property of the vertex W is deleting. */
        REMOVE_PROPERTY_WHILE_VERTEX_DELETED(ConflictKind.DELETED_ELEMENT),
        /** T removes the property W is removing. */
        REMOVE_PROPERTY_WHILE_REMOVED(ConflictKind.WRITE_WRITE),
        /** T adds an edge to the vertex W is deleting. */
        ADD_EDGE_WHILE_ENDPOINT_DELETED(ConflictKind.DELETED_ELEMENT),
        /** T adds an edge from the vertex W is deleting. */
        ADD_EDGE_WHILE_SOURCE_DELETED(ConflictKind.DELETED_ELEMENT),
        /** T deletes a vertex W is adding an edge to. */
        DELETE_VERTEX_WHILE_EDGE_ADDED(ConflictKind.WRITE_WRITE),
        /** T deletes a vertex whose edge W is deleting. */
        DELETE_VERTEX_WHILE_EDGE_DELETED(ConflictKind.WRITE_WRITE),
        /** T deletes the edge W is deleting. */
        DELETE_EDGE_WHILE_DELETED(ConflictKind.WRITE_WRITE),
        /** T deletes the vertex W is deleting. */
        DELETE_VERTEX_WHILE_DELETED(ConflictKind.WRITE_WRITE);

        final ConflictKind kind;

        Case(ConflictKind kind) {
            this.kind = kind;
        }
    }

    @ParameterizedTest
    @EnumSource(Case.class)
    void secondWriterAbortsNamingTheFirstWhichCommits(Case c) {
        for (Isolation isolation : Isolation.values()) {
            open(Map.of());
            long v = committedVertex(1L);
            update(v, x, 1L); // a full version
            long u = committedVertex(1L);
            Transaction s = node.begin(Isolation.SERIALIZABLE);
            long e = s.addEdge(v, u, knows);
            s.commit();
            Transaction w = node.begin(isolation);
            Transaction t = node.begin(isolation);
            switch (c) {
                case DELETE_VERTEX_WHILE_PROPERTY_WRITTEN -> w.setVertexProperty(v, x, 2L);
                case DELETE_VERTEX_WHILE_PROPERTY_REMOVED, REMOVE_PROPERTY_WHILE_REMOVED -> assertTrue(w.removeVertexProperty(v, x));
                case WRITE_PROPERTY_WHILE_VERTEX_DELETED, REMOVE_PROPERTY_WHILE_VERTEX_DELETED, ADD_EDGE_WHILE_ENDPOINT_DELETED,
                        ADD_EDGE_WHILE_SOURCE_DELETED, DELETE_VERTEX_WHILE_DELETED -> w.removeVertex(v);
                case DELETE_VERTEX_WHILE_EDGE_ADDED -> w.addEdge(u, v, knows);
                case DELETE_VERTEX_WHILE_EDGE_DELETED, DELETE_EDGE_WHILE_DELETED -> w.removeEdge(e);
                default -> throw new AssertionError(c);
            }
            Runnable second = switch (c) {
                case DELETE_VERTEX_WHILE_PROPERTY_WRITTEN, DELETE_VERTEX_WHILE_PROPERTY_REMOVED, DELETE_VERTEX_WHILE_EDGE_ADDED,
                        DELETE_VERTEX_WHILE_EDGE_DELETED, DELETE_VERTEX_WHILE_DELETED -> () -> t.removeVertex(v);
                case WRITE_PROPERTY_WHILE_VERTEX_DELETED -> () -> t.setVertexProperty(v, note, "t");
                case REMOVE_PROPERTY_WHILE_VERTEX_DELETED, REMOVE_PROPERTY_WHILE_REMOVED -> () -> t.removeVertexProperty(v, x);
                case ADD_EDGE_WHILE_ENDPOINT_DELETED -> () -> t.addEdge(u, v, knows);
                case ADD_EDGE_WHILE_SOURCE_DELETED -> () -> t.addEdge(v, u, knows);
                case DELETE_EDGE_WHILE_DELETED -> () -> t.removeEdge(e);
            };
            expectConflict(c.kind, w.id(), second);
            w.commit();
            assertTrue(w.isCommitted(), c + " at " + isolation);
            Transaction r = node.begin(Isolation.SNAPSHOT);
            assertEquals(0L, r.countVertices(person) - (r.vertexExists(v) ? 1 : 0) - (r.vertexExists(u) ? 1 : 0));
            assertEquals(r.allEdges(EdgeCursor.ANY_LABEL).length, r.countEdges(EdgeCursor.ANY_LABEL));
            close();
        }
    }
}
