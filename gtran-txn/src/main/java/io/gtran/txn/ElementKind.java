package io.gtran.txn;

import io.gtran.storage.GraphStore;

/**
 * Vertices and edges as the transaction layer sees them: each has begin/end time words in its
 * header and a property chain per key. The two constants route to the store's vertex or edge
 * methods, so one copy of the MV-OCC logic serves both.
 */
enum ElementKind {
    VERTEX {
        @Override long beginTime(GraphStore s, long id) { return s.vertexBeginTime(id); }
        @Override long endTime(GraphStore s, long id) { return s.vertexEndTime(id); }
        @Override boolean casBeginTime(GraphStore s, long id, long expected, long value) { return s.compareAndSetVertexBeginTime(id, expected, value); }
        @Override boolean casEndTime(GraphStore s, long id, long expected, long value) { return s.compareAndSetVertexEndTime(id, expected, value); }
        @Override int newestVersion(GraphStore s, long id, int key) { return s.vertexPropertyVersion(id, key); }
        @Override boolean link(GraphStore s, long id, int key, int expected, int version) { return s.linkVertexPropertyVersion(id, key, expected, version); }
        @Override boolean unlink(GraphStore s, long id, int key, int expected) { return s.unlinkVertexProperty(id, key, expected); }
        @Override io.gtran.storage.PropertyCursor propertyCursor(GraphStore s) { return s.newVertexPropertyCursor(); }
    },
    EDGE {
        @Override long beginTime(GraphStore s, long id) { return s.edgeBeginTime(id); }
        @Override long endTime(GraphStore s, long id) { return s.edgeEndTime(id); }
        @Override boolean casBeginTime(GraphStore s, long id, long expected, long value) { return s.compareAndSetEdgeBeginTime(id, expected, value); }
        @Override boolean casEndTime(GraphStore s, long id, long expected, long value) { return s.compareAndSetEdgeEndTime(id, expected, value); }
        @Override int newestVersion(GraphStore s, long id, int key) { return s.edgePropertyVersion(id, key); }
        @Override boolean link(GraphStore s, long id, int key, int expected, int version) { return s.linkEdgePropertyVersion(id, key, expected, version); }
        @Override boolean unlink(GraphStore s, long id, int key, int expected) { return s.unlinkEdgeProperty(id, key, expected); }
        @Override io.gtran.storage.PropertyCursor propertyCursor(GraphStore s) { return s.newEdgePropertyCursor(); }
    };

    abstract long beginTime(GraphStore store, long id);

    abstract long endTime(GraphStore store, long id);

    abstract boolean casBeginTime(GraphStore store, long id, long expected, long value);

    abstract boolean casEndTime(GraphStore store, long id, long expected, long value);

    abstract int newestVersion(GraphStore store, long id, int key);

    abstract boolean link(GraphStore store, long id, int key, int expected, int version);

    abstract boolean unlink(GraphStore store, long id, int key, int expected);

    abstract io.gtran.storage.PropertyCursor propertyCursor(GraphStore store);

    String display() {
        return this == VERTEX ? "vertex" : "edge";
    }
}
