package io.gtran.txn.common;

import io.gtran.storage.ElementTable;
import io.gtran.storage.GraphStore;

/**
 * Vertices and edges as the transaction layer sees them: each has begin/end time words in its
 * header and a property chain per key, in its {@link ElementTable}. A kind selects its table, so
 * one copy of the MV-OCC logic serves both. Layers above name the kind with it where they treat
 * both alike (external ids: {@link ExternalIds}).
 */
public enum ElementKind {
    VERTEX,
    EDGE;

    /** The store's table of this kind. */
    public ElementTable table(GraphStore store) {
        return this == VERTEX ? store.vertices() : store.edges();
    }

    public String display() {
        return this == VERTEX ? "vertex" : "edge";
    }
}
