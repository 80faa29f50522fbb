package io.gtran.txn;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static io.gtran.txn.common.TxnWords.INFINITY;
import static io.gtran.txn.common.TxnWords.NEVER;
import static io.gtran.txn.local.Visibility.ABORTED_OTHER;
import static io.gtran.txn.local.Visibility.LIVE_OTHER;
import static io.gtran.txn.local.Visibility.OWN;

import io.gtran.storage.ElementIds;
import io.gtran.storage.GraphStore;
import io.gtran.storage.MvStore;
import io.gtran.storage.PropertyCursor;
import io.gtran.storage.UnknownElementException;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.ElementNotFoundException;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.local.KeySets;
import io.gtran.txn.local.WriteLog;
import java.lang.invoke.VarHandle;

/**
 * The write rules of one {@link Transaction}: how it locks what it supersedes (its id in the end
 * word), links its versions, and which words of others make it abort (write-write conflicts,
 * first-committer-wins at SI, deletes against writes). Split from Transaction, which keeps the
 * read rules and the bookkeeping.
 */
final class WriteRules {
    private final Transaction txn;
    private final GraphStore store;
    private final MvStore versions;
    private final long id;
    private final long beginTime;
    private final Isolation isolation;
    private final WriteLog log;
    private final KeySets writes;

    WriteRules(Transaction txn) {
        this.txn = txn;
        this.store = txn.store;
        this.versions = store.mvStore();
        this.id = txn.id();
        this.beginTime = txn.beginTime();
        this.isolation = txn.isolation();
        this.log = txn.log;
        this.writes = txn.writes;
    }

    /**
     * Ends an element's life at this transaction: its end time word goes from INFINITY to our id.
     */
    void endElement(ElementKind kind, long element) {
        endElement(kind, element, true);
    }

    /** As {@link #endElement(ElementKind, long)}; {@code counted} false for a mirror, which the element counters leave out. */
    void endElement(ElementKind kind, long element, boolean counted) {
        while (true) {
            long end = txn.visibility.inspectSettled(() -> kind.table(store).endTime(element));
            long word = txn.visibility.inspectedWord();
            if (end == INFINITY || end == ABORTED_OTHER) {
                // Alive (an aborted deleter's id is as good as INFINITY): lock it with our id.
                if (kind.table(store).compareAndSetEndTime(element, word, id)) {
                    log.ended(kind, element);
                    if (counted) {
                        txn.counted(kind, kind.table(store).label(element), -1);
                    }
                    if (!log.createdHere(kind, element)) {
                        // Pairs with writeProperty: it links its version, then checks our end word.
                        VarHandle.fullFence();
                        requireNoConcurrentPropertyWrites(kind, element);
                    }
                    return;
                }
            } else if (end == LIVE_OTHER) {
                throw txn.conflict(ConflictKind.WRITE_WRITE, word, ConflictKey.element(element), "it is deleting this " + kind.display());
            } else if (end == OWN) {
                return; // deleted by us already
            } else {
                // Deleted by a transaction that committed after our snapshot (requireVisible passed).
                throw txn.conflict(ConflictKind.DELETED_ELEMENT, 0, ConflictKey.element(element),
                        kind.display() + " deleted by a transaction that committed at " + end);
            }
            // Our CAS lost to another writer of the word: decide again on what it wrote.
        }
    }

    /**
     * A deletion is a write of the whole element: it conflicts with a live transaction's write of
     * any of its properties, and at SI with one committed after our snapshot (first committer wins).
     */
    private void requireNoConcurrentPropertyWrites(ElementKind kind, long element) {
        PropertyCursor cursor = kind.table(store).newPropertyCursor().open(element);
        while (cursor.next()) {
            // The newest version that is not aborted: an aborted write on top hides nothing.
            int version = cursor.newestVersion();
            long begin = NEVER;
            long beginWord = 0;
            while (version != NO_TUPLE && !MvStore.isBase(version)) {
                int v = version;
                begin = txn.visibility.inspectSettled(() -> versions.beginTime(v));
                beginWord = txn.visibility.inspectedWord();
                if (begin != NEVER && begin != ABORTED_OTHER) {
                    break;
                }
                version = versions.older(version);
            }
            if (version == NO_TUPLE || MvStore.isBase(version)) {
                continue; // only the base version (written with the element we could see) or none: before our snapshot
            }
            int head = version;
            long end = txn.visibility.inspectSettled(() -> versions.endTime(head));
            long endWord = txn.visibility.inspectedWord();
            ConflictKey key = ConflictKey.property(element, cursor.keyId());
            if (begin == LIVE_OTHER || end == LIVE_OTHER) {
                throw txn.conflict(ConflictKind.WRITE_WRITE, begin == LIVE_OTHER ? beginWord : endWord, key,
                        "it is writing a property of the " + kind.display() + " this transaction deletes");
            }
            if (isolation == Isolation.SNAPSHOT && ((TxnWords.isTimestamp(begin) && begin > beginTime)
                    || (TxnWords.isTimestamp(end) && end != INFINITY && end > beginTime))) {
                throw txn.conflict(ConflictKind.FIRST_COMMITTER_WINS, 0, key,
                        "a property of the " + kind.display() + " was written after this transaction began");
            }
        }
    }

    /** After writing a property: the element must not be being deleted, nor deleted after our snapshot. */
    private void requireElementNotDeleted(ElementKind kind, long element, int key) {
        long end = txn.visibility.inspectSettled(() -> kind.table(store).endTime(element));
        if (end == INFINITY || end == ABORTED_OTHER || end == OWN) {
            return;
        }
        if (end == LIVE_OTHER) {
            throw txn.conflict(ConflictKind.DELETED_ELEMENT, txn.visibility.inspectedWord(), ConflictKey.property(element, key),
                    "it is deleting the " + kind.display() + " this transaction writes to");
        }
        throw txn.conflict(ConflictKind.DELETED_ELEMENT, 0, ConflictKey.property(element, key),
                "the " + kind.display() + " was deleted at " + end + ", after this transaction began");
    }

    /** For removeVertex: ends an incident edge unless it is already dead to us. Returns whether it did. */
    boolean endEdgeOfDeletedVertex(long edgeId, boolean counted) {
        long begin;
        try {
            begin = txn.visibility.inspectSettled(() -> store.edges().beginTime(edgeId));
        } catch (UnknownElementException gone) {
            return false;
        }
        if (begin == LIVE_OTHER) {
            throw txn.conflict(ConflictKind.WRITE_WRITE, txn.visibility.inspectedWord(), ConflictKey.element(edgeId),
                    "it is adding an edge to a vertex this transaction deletes");
        }
        if (begin == NEVER || begin == ABORTED_OTHER) {
            return false; // an aborted edge: GC removes it
        }
        if (begin != OWN && begin > beginTime) {
            throw txn.conflict(ConflictKind.DELETED_ELEMENT, 0, ConflictKey.element(edgeId),
                    "an edge was added to the vertex after this transaction began");
        }
        long end;
        try {
            end = txn.visibility.inspectSettled(() -> store.edges().endTime(edgeId));
        } catch (UnknownElementException gone) {
            return false; // freed by GC since its begin time was read: dead to every transaction
        }
        long endWord = txn.visibility.inspectedWord();
        if (end == LIVE_OTHER) {
            // Decided here rather than by endElement's re-read, which would take a deleter that
            // finishes meanwhile for a deletion after our snapshot.
            throw txn.conflict(ConflictKind.WRITE_WRITE, endWord, ConflictKey.element(edgeId),
                    "it is deleting an edge of a vertex this transaction deletes");
        }
        if (end == OWN || (end != ABORTED_OTHER && end != INFINITY && end <= beginTime)) {
            return false; // deleted by us, or before our snapshot
        }
        endElement(ElementKind.EDGE, edgeId, counted);
        return true;
    }

    /** After adding an edge: its endpoint must not be deleted, now or by a commit after our snapshot. */
    void requireNotBeingDeleted(long vertexId) {
        long end = txn.visibility.inspectSettled(() -> store.vertices().endTime(vertexId));
        if (end == INFINITY || end == ABORTED_OTHER) {
            return;
        }
        if (end == LIVE_OTHER) {
            throw txn.conflict(ConflictKind.DELETED_ELEMENT, txn.visibility.inspectedWord(), ConflictKey.element(vertexId),
                    "it is deleting an endpoint of the new edge");
        }
        if (end == OWN) {
            throw new ElementNotFoundException("vertex", vertexId);
        }
        throw txn.conflict(ConflictKind.DELETED_ELEMENT, 0, ConflictKey.element(vertexId),
                "an endpoint of the new edge was deleted at " + end);
    }

    /** The keys an edge's creation or deletion writes on this node; the other endpoint's node writes its own (a mirror's). */
    void writeEdgeKeys(long edgeId, long out, long in, int label) {
        writes.add(ConflictKey.element(edgeId));
        if (ElementIds.node(out) == store.nodeId()) {
            writes.add(ConflictKey.adjacencyOut(out));
        }
        if (ElementIds.node(in) == store.nodeId()) {
            writes.add(ConflictKey.adjacencyIn(in));
        }
        writes.add(ConflictKey.edgeScan(label));
        writes.add(ConflictKey.edgeScan(ConflictKey.ANY_LABEL));
    }

    /**
     * Writes (value non-null) or removes (null) a property. Returns false only for removing a
     * property the element does not have.
     */
    boolean writeProperty(ElementKind kind, long element, int key, Object value) {
        txn.requireVisible(kind, element);
        if (value == null) {
            // A removal tells whether the property was there: at SR that is a read to validate.
            txn.recordRead(ConflictKey.property(element, key));
        }
        if (log.createdHere(kind, element)) {
            return writeBaseProperty(kind, element, key, value);
        }
        while (true) {
            int head = kind.table(store).propertyVersion(element, key);
            if (head != NO_TUPLE && MvStore.isBase(head)) {
                materialize(kind, element, key, head);
                continue;
            }
            // current: the newest version that is not aborted, which our write supersedes.
            int current = head;
            if (head != NO_TUPLE) {
                int newest = head;
                long begin = txn.visibility.inspectSettled(() -> versions.beginTime(newest));
                if (begin == OWN) {
                    boolean had = replaceOwnVersion(kind, element, key, head, value);
                    writes.add(ConflictKey.property(element, key));
                    if (value == null || versions.older(head) == NO_TUPLE) {
                        writes.add(ConflictKey.propertyKeys(element));
                    }
                    return had;
                }
                if (begin == LIVE_OTHER) {
                    throw txn.conflict(ConflictKind.WRITE_WRITE, txn.visibility.inspectedWord(), ConflictKey.property(element, key),
                            "it wrote this property and has not committed");
                }
                if (begin == NEVER || begin == ABORTED_OTHER) {
                    current = versions.older(head); // aborted: ours goes on top of what it tried to supersede
                    if ((isolation == Isolation.SNAPSHOT || value == null) && current != NO_TUPLE && !MvStore.isBase(current)) {
                        int superseded = current;
                        long below = txn.visibility.inspectSettled(() -> versions.beginTime(superseded));
                        if (below > beginTime) {
                            throw txn.conflict(ConflictKind.FIRST_COMMITTER_WINS, 0, ConflictKey.property(element, key),
                                    "the property was committed at " + below + ", after this transaction began at " + beginTime);
                        }
                    }
                } else if ((isolation == Isolation.SNAPSHOT || value == null) && begin > beginTime) {
                    // Committed after our snapshot. SI: first committer wins. SR: a blind write may
                    // go on top, but a removal would end a version our snapshot does not show
                    // (and validation would abort us anyway: a removal is a read).
                    throw txn.conflict(ConflictKind.FIRST_COMMITTER_WINS, 0, ConflictKey.property(element, key),
                            "the property was committed at " + begin + ", after this transaction began at " + beginTime);
                }
            }
            // Decide about the current version before touching anything.
            long endWord = 0;
            long end = 0;
            if (current != NO_TUPLE) {
                int superseded = current;
                end = txn.visibility.inspectSettled(() -> versions.endTime(superseded));
                endWord = txn.visibility.inspectedWord();
                if (end == LIVE_OTHER) {
                    throw txn.conflict(ConflictKind.WRITE_WRITE, endWord, ConflictKey.property(element, key),
                            "it is removing this property and has not committed");
                }
                if (end != INFINITY && end != ABORTED_OTHER && end != OWN && end > beginTime
                        && (isolation == Isolation.SNAPSHOT || value == null)) {
                    // Removed by a commit after our snapshot: SI's first committer wins; and a
                    // removal of what our snapshot still shows must not silently do nothing.
                    throw txn.conflict(ConflictKind.FIRST_COMMITTER_WINS, 0, ConflictKey.property(element, key),
                            "the property was removed at " + end + ", after this transaction began at " + beginTime);
                }
            }
            // Alive: not removed (an aborted remover's id is as good as INFINITY). Else removed
            // already, by a commit or by us: nothing to lock.
            boolean alive = current != NO_TUPLE && (end == INFINITY || end == ABORTED_OTHER);
            if (value == null && !alive) {
                return false; // nothing alive to remove
            }
            // The new version first: if the value is refused, nothing is locked yet.
            int fresh = value == null ? NO_TUPLE : versions.createVersion(value, id, INFINITY, current);
            // Lock the current version by putting our id in its end time.
            boolean ended = false;
            if (alive) {
                if (!versions.compareAndSetEndTime(current, endWord, id)) {
                    freeUnlinked(fresh);
                    continue;
                }
                ended = true;
            }
            if (value == null) {
                log.propertyWrite(kind, element, key, NO_TUPLE, current);
                writes.add(ConflictKey.property(element, key));
                writes.add(ConflictKey.propertyKeys(element));
                VarHandle.fullFence(); // see endElement
                requireElementNotDeleted(kind, element, key);
                return true;
            }
            boolean linked;
            try {
                linked = kind.table(store).linkPropertyVersion(element, key, head, fresh);
            } catch (RuntimeException e) {
                unlock(fresh, ended ? current : NO_TUPLE); // e.g. the property row pool is full
                throw e;
            }
            if (!linked) {
                // Someone linked first (GC unlinking an aborted head, a racing creator): undo, retry.
                unlock(fresh, ended ? current : NO_TUPLE);
                continue;
            }
            if (head != current) {
                log.retire(head); // the aborted version we linked over
            }
            log.propertyWrite(kind, element, key, fresh, ended ? current : NO_TUPLE);
            writes.add(ConflictKey.property(element, key));
            if (!ended) {
                writes.add(ConflictKey.propertyKeys(element)); // the key is new to the element
            }
            VarHandle.fullFence(); // see endElement
            requireElementNotDeleted(kind, element, key);
            return true;
        }
    }

    /** Frees a version we created but never linked. */
    private void freeUnlinked(int version) {
        if (version != NO_TUPLE) {
            versions.freeVersion(version);
        }
    }

    /** Undoes a write that could not be linked: frees our version, unlocks the one we locked. */
    private void unlock(int fresh, int locked) {
        freeUnlinked(fresh);
        if (locked != NO_TUPLE) {
            versions.compareAndSetEndTime(locked, id, INFINITY);
        }
    }

    /** Puts a full version with the base's value in its place, so the property can be updated. */
    private void materialize(ElementKind kind, long element, int key, int base) {
        long elementBegin = txn.visibility.readBegin(kind, element);
        if (!TxnWords.isTimestamp(elementBegin)) {
            throw new IllegalStateException("base version of an element not committed: " + ElementIds.toString(element));
        }
        int full = versions.materialize(base, elementBegin, INFINITY);
        if (kind.table(store).linkPropertyVersion(element, key, base, full)) {
            log.retire(base);
        } else {
            versions.freeVersion(full);
        }
    }

    /**
     * A second write of a property this transaction already wrote. A new value replaces our
     * version. A removal keeps our version linked and ends it too, so it will begin and end at our
     * commit time, visible to no one: our id stays in the chain, still claiming the property
     * (unlinking it would let another writer in, and would bring back a version we read around).
     * Returns false for removing what we removed already.
     */
    private boolean replaceOwnVersion(ElementKind kind, long element, int key, int own, Object value) {
        WriteLog.PropertyWrite write = log.propertyWriteOf(kind, element, key);
        if (value == null) {
            if (versions.endTime(own) == id) {
                return false;
            }
            if (!versions.compareAndSetEndTime(own, INFINITY, id)) {
                throw new IllegalStateException("own version changed under us: " + ElementIds.toString(element) + " key=" + key);
            }
            write.newVersionEnded = true;
            return true;
        }
        int replacement = versions.createVersion(value, id, INFINITY, versions.older(own));
        boolean linked;
        try {
            linked = kind.table(store).linkPropertyVersion(element, key, own, replacement);
        } catch (RuntimeException e) {
            versions.freeVersion(replacement);
            throw e;
        }
        if (!linked) {
            versions.freeVersion(replacement);
            throw new IllegalStateException("own version changed under us: " + ElementIds.toString(element) + " key=" + key);
        }
        // A reader may hold the unlinked version: it must read as never-valid, not as ours,
        // because our id outlives our status entry in no word.
        versions.compareAndSetBeginTime(own, id, NEVER);
        log.retire(own);
        write.newVersion = replacement;
        write.newVersionEnded = false;
        return true;
    }

    /** Properties of an element created by this transaction are base versions living with it. */
    private boolean writeBaseProperty(ElementKind kind, long element, int key, Object value) {
        int head = kind.table(store).propertyVersion(element, key);
        writes.add(ConflictKey.property(element, key));
        writes.add(ConflictKey.propertyKeys(element));
        if (value == null) {
            if (head == NO_TUPLE) {
                return false;
            }
            kind.table(store).unlinkProperty(element, key, head);
            log.retire(head);
            return true;
        }
        int base = versions.createBaseVersion(value);
        if (!kind.table(store).linkPropertyVersion(element, key, head, base)) {
            versions.freeVersion(base);
            throw new IllegalStateException("property of an uncommitted element changed by someone else: "
                    + ElementIds.toString(element) + " key=" + key);
        }
        if (head != NO_TUPLE) {
            log.retire(head);
        }
        return true;
    }

}
