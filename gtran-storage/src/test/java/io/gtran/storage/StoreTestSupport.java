package io.gtran.storage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Helpers shared by the storage tests: small configurations and dumps of lists for comparison. */
final class StoreTestSupport {
    private StoreTestSupport() {
    }

    /** A config from alternating key/value arguments; unset keys keep their defaults. */
    static StoreConfig config(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values must pair up");
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            settings.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return StoreConfig.from(settings);
    }

    /** One edge cell as seen by an {@link EdgeCursor}: neighbour, direction, label, edge slot. */
    record Cell(long neighbour, EdgeDirection direction, int label, int edgeSlot) {
    }

    /** Every edge cell of {@code vertexId}, in cursor order. */
    static List<Cell> adjacency(GraphStore store, long vertexId) {
        List<Cell> out = new ArrayList<>();
        EdgeCursor cursor = store.newEdgeCursor().open(vertexId, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL);
        while (cursor.next()) {
            out.add(new Cell(cursor.neighbour(), cursor.direction(), cursor.label(), cursor.edgeSlot()));
        }
        return out;
    }

    /** The first words of every cell, row by row, walking the list under no lock (single-threaded tests only). */
    static List<List<Long>> rows(RowLists lists, SlotPool owners, int ownerSlot, int headField) {
        List<List<Long>> out = new ArrayList<>();
        for (int row = owners.getInt(ownerSlot, headField); row != RowDescriptor.NO_ROW; row = lists.next(row)) {
            List<Long> cells = new ArrayList<>();
            for (int i = 0; i < lists.count(row); i++) {
                cells.add(lists.word0(row, i));
            }
            out.add(cells);
        }
        return out;
    }

    static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
