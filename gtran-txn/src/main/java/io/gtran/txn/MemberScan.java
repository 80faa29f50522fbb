package io.gtran.txn;

import io.gtran.txn.common.ElementKind;
import io.gtran.txn.protocol.Op;
import io.gtran.txn.protocol.Wire;

/**
 * A scan of every member's elements of one kind and label in a transaction, a page at a time, so
 * that a reader that stops early ({@code g.V().limit(1)}) leaves the members it did not reach
 * alone: this node's elements come first (one page), then each other member's in member order,
 * in pages of {@value #FIRST_PAGE} elements growing fourfold to {@value #LARGEST_PAGE}. Pages go by
 * table slot, which the transaction's snapshot makes safe: an element GC freed was dead to it,
 * and one that took its slot since is too new for it. Each member records the scan's read key
 * when asked for its first page, as a whole scan would.
 */
public final class MemberScan {
    static final int FIRST_PAGE = 64;
    static final int LARGEST_PAGE = 1 << 16;

    private final Transaction txn;
    private final ElementKind kind;
    private final int label;
    private final int[] others;
    private boolean localDone;
    private int at;
    private int fromSlot;
    private int pageSize = FIRST_PAGE;

    MemberScan(Transaction txn, ElementKind kind, int label, int[] others) {
        this.txn = txn;
        this.kind = kind;
        this.label = label;
        this.others = others;
    }

    /** The next non-empty page of element ids, or null when every member has been scanned. */
    public long[] nextPage() {
        if (!localDone) {
            localDone = true;
            int[] next = new int[1];
            long[] here = txn.scans.scanPageHere(kind, label, 0, Integer.MAX_VALUE, next);
            if (here.length > 0) {
                return here;
            }
        }
        while (at < others.length) {
            int node = others[at];
            int size = pageSize;
            int from = fromSlot;
            Wire.Reader reply = txn.remote.call(node,
                    new Op.ScanPage(kind, RemoteOp.labelName(txn.engine.store(), label), from, size));
            int nextSlot = reply.getInt();
            long[] page = reply.getLongs();
            if (nextSlot < 0) {
                at++;
                fromSlot = 0;
                pageSize = FIRST_PAGE;
            } else {
                fromSlot = nextSlot;
                pageSize = Math.min(LARGEST_PAGE, pageSize * 4);
            }
            if (page.length > 0) {
                return page;
            }
        }
        return null;
    }
}
