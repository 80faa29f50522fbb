package io.gtran.txn;

import io.gtran.storage.ElementIds;
import io.gtran.storage.ElementTable;
import io.gtran.storage.GraphStore;
import io.gtran.storage.MvStore;
import io.gtran.storage.MvTupleDescriptor;
import io.gtran.storage.PropertyCursor;
import io.gtran.storage.UnknownElementException;
import io.gtran.txn.common.TxnWords;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the words of a node's store that still hold a transaction id ({@link TxnWords#isTxnId}):
 * the begin and end words of every vertex and edge header, and of every full version of every
 * property (base versions have no words of their own). Once every transaction that wrote there is
 * decided and stamped or undone, there must be none (I3 of docs/cluster-transactions.md).
 *
 * <p>Meant for a quiet store (no transaction running), while GC may still free old versions: a
 * version is read only while live, and a hit counts only if its word still holds the id when read
 * again afterwards (a freed version's slot is never taken for a leftover).
 */
final class StoreTxnWords {
    private static final int MAX_CHAIN = 1 << 20;

    private StoreTxnWords() {
    }

    /** A description of each word holding a transaction id (empty if none). */
    static List<String> find(GraphStore store) {
        List<String> found = new ArrayList<>();
        scan(store, "vertex", store.vertices(), found);
        scan(store, "edge", store.edges(), found);
        return found;
    }

    private static void scan(GraphStore store, String kind, ElementTable table, List<String> found) {
        MvStore versions = store.mvStore();
        PropertyCursor cursor = table.newPropertyCursor();
        int limit = table.slotLimit();
        for (int slot = 0; slot < limit; slot++) {
            long id = table.idAtSlot(slot);
            if (id == ElementIds.NONE) {
                continue;
            }
            try {
                check(found, kind, id, "begin", table.beginTime(id), () -> table.beginTime(id));
                check(found, kind, id, "end", table.endTime(id), () -> table.endTime(id));
                cursor.open(id);
                while (cursor.next()) {
                    int key = cursor.keyId();
                    int version = cursor.newestVersion();
                    for (int depth = 0; version != MvTupleDescriptor.NO_TUPLE && depth < MAX_CHAIN; depth++) {
                        if (!versions.isLive(version)) {
                            break; // freed by GC since we reached it: nothing older is reachable by readers either
                        }
                        if (!MvStore.isBase(version)) {
                            int v = version;
                            String where = "key " + store.propertyKeys().name(key) + " version " + v + " (depth " + depth + ")";
                            long begin = versions.beginTime(v);
                            long end = versions.endTime(v);
                            if (versions.isLive(v)) {
                                check(found, kind, id, where + " begin", begin, () -> versions.isLive(v) ? versions.beginTime(v) : 0);
                                check(found, kind, id, where + " end", end, () -> versions.isLive(v) ? versions.endTime(v) : 0);
                            }
                        }
                        version = versions.older(version);
                    }
                }
            } catch (UnknownElementException removed) {
                // removed by GC while we looked: a dead element's words no longer matter
            }
        }
    }

    private static void check(List<String> found, String kind, long id, String word, long value,
            java.util.function.LongSupplier again) {
        if (TxnWords.isTxnId(value) && again.getAsLong() == value) {
            found.add(kind + " " + ElementIds.toString(id) + " " + word + " holds " + TxnWords.toString(value));
        }
    }
}
