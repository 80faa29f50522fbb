package io.gtran.txn.local;

import static io.gtran.txn.local.StatusTableDescriptor.BEGIN_TIME_OFFSET;
import static io.gtran.txn.local.StatusTableDescriptor.STATUS_OFFSET;
import static io.gtran.txn.local.StatusTableDescriptor.TXN_ID_OFFSET;

import io.gtran.rdma.Batch;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Region;
import io.gtran.txn.common.TxnWords;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongConsumer;

/**
 * The node's Transaction Status Table (TST): one {@link StatusTableDescriptor entry} per running
 * transaction in a region registered with the fabric, so that any node can read a transaction's
 * status one-sidedly from the node its id names. Only the owner writes an entry, and a status
 * changes by one CAS over the legal transitions of {@link TxnStatus}.
 *
 * <p>Entries also carry the running transactions' begin times: the node's timestamp buffer, from
 * which the GC watermark is taken.
 */
public final class StatusTable {
    public static final String REGION_NAME = "gtran.txn.status";
    /** Returned by {@link #read} when the entry no longer belongs to the transaction asked about. */
    public static final long GONE = -1L;

    private final Fabric fabric;
    private final int node;
    private final int slots;
    private final Region local;
    private final Region[] peers = new Region[TxnWords.NODE_MASK + 1];
    /** Final statuses of other nodes' transactions, read or told: {@link #read} answers them without a round trip. */
    private final SettledStatuses settled = new SettledStatuses();
    /** How far the ceiling moves each time a slot's sequence reaches it (docs/durability.md, C5'). */
    public static final long CEILING_STEP = 1L << 16;

    /** Per slot, the last sequence handed out. Guarded by this. */
    private final long[] sequences;
    /**
     * The free slots as a ring, the longest free first: transactions take the slots in turn, so
     * every slot's sequence grows alike (one slot would take nearly all of them if the last freed
     * went first) and a slot's 2^32 sequences last {@code slots} times as long. Guarded by this.
     */
    private final int[] freeSlots;
    private int freeHead;
    private int freeCount;
    /** Slots whose sequences are used up: never handed out again. Guarded by this. */
    private int retired;
    /** Where a raised sequence ceiling goes (forced to disk when it returns); null: no ceiling. Guarded by this. */
    private LongConsumer ceilings;
    /** Every sequence handed out is below it. Guarded by this. */
    private long ceiling = Long.MAX_VALUE;

    public StatusTable(Fabric fabric, int slots) {
        this.fabric = fabric;
        this.node = fabric.localNode();
        this.slots = slots;
        this.local = fabric.register(REGION_NAME, (long) slots * StatusTableDescriptor.LENGTH);
        this.sequences = new long[slots];
        this.freeSlots = new int[slots];
        for (int slot = 0; slot < slots; slot++) {
            local.writeLong(StatusTableDescriptor.offset(slot) + BEGIN_TIME_OFFSET, StatusTableDescriptor.INACTIVE);
            freeSlots[slot] = slot;
        }
        freeCount = slots;
        peers[node] = local;
    }

    /**
     * After a restart: every slot's next transaction takes a sequence above {@code sequence}, the
     * highest the node's log names, so no transaction id is given twice (docs/durability.md, "Nodes
     * of a cluster", C5). Call before the first transaction.
     */
    public synchronized void startSequencesAbove(long sequence) {
        for (int slot = 0; slot < slots; slot++) {
            sequences[slot] = Math.max(sequences[slot], sequence);
        }
    }

    /**
     * From now on every sequence stays below a ceiling that {@code ceilings} puts on disk before any
     * slot reaches it (a member's log: docs/durability.md, "A member restarted alone", C5'); the
     * first is raised at once, above every slot's sequence. Call after {@link #startSequencesAbove}.
     *
     * @throws RuntimeException what {@code ceilings} throws if the first ceiling cannot be logged
     */
    public synchronized void keepSequencesBelowCeilings(LongConsumer ceilings) {
        long highest = 0;
        for (long sequence : sequences) {
            highest = Math.max(highest, sequence);
        }
        ceilings.accept(highest + CEILING_STEP);
        this.ceilings = ceilings;
        this.ceiling = highest + CEILING_STEP;
    }

    /** The sequence ceiling (what a snapshot writes); {@link Long#MAX_VALUE} if there is none. */
    public synchronized long sequenceCeiling() {
        return ceiling;
    }

    /**
     * Takes a free entry for a new transaction: status EXECUTING, begin time announcing above
     * {@code floor} ({@link StatusTableDescriptor#announcing}: it holds the GC watermark at the floor
     * until the real one is published), where {@code floor} is below every begin time the clock
     * can still hand out ({@code Clock.current()}). Returns the transaction's id.
     *
     * @throws IllegalStateException if every entry is in use, or every slot has used up its sequences
     */
    public long allocate(long floor) {
        long announcing = StatusTableDescriptor.announcing(floor);
        int slot;
        long sequence;
        synchronized (this) {
            slot = takeSlotWithSequencesLeft();
            long next = sequences[slot] + 1;
            if (next >= ceiling) {
                try {
                    ceilings.accept(next + CEILING_STEP); // throws if it cannot be logged: nothing is taken then
                } catch (RuntimeException e) {
                    putBack(slot);
                    throw e;
                }
                ceiling = next + CEILING_STEP;
            }
            sequences[slot] = next;
            sequence = next;
        }
        long txnId = TxnWords.txnId(node, slot, sequence);
        long base = StatusTableDescriptor.offset(slot);
        local.writeLong(base + STATUS_OFFSET, StatusTableDescriptor.statusWord(TxnStatus.EXECUTING, 0));
        local.writeLong(base + BEGIN_TIME_OFFSET, announcing);
        local.writeLong(base + TXN_ID_OFFSET, txnId);
        return txnId;
    }

    /** Publishes the begin time of a transaction this node owns. */
    public void publishBeginTime(long txnId, long beginTime) {
        local.writeLong(StatusTableDescriptor.offset(ownSlot(txnId)) + BEGIN_TIME_OFFSET, beginTime);
    }

    /**
     * Moves an owned transaction's status from {@code from} to {@code to}, with its commit time.
     * Returns false if the entry was not in {@code from}.
     *
     * @throws IllegalStateException if the transition is not a legal one
     */
    public boolean move(long txnId, TxnStatus from, long fromCommitTime, TxnStatus to, long commitTime) {
        if (!from.canMoveTo(to)) {
            throw new IllegalStateException("illegal status change " + from + " -> " + to + " for " + TxnWords.toString(txnId));
        }
        long offset = StatusTableDescriptor.offset(ownSlot(txnId)) + STATUS_OFFSET;
        return local.compareAndSwap(offset, StatusTableDescriptor.statusWord(from, fromCommitTime),
                StatusTableDescriptor.statusWord(to, commitTime));
    }

    /** Frees an owned transaction's entry; its words in the store must all be rewritten first. */
    public void release(long txnId) {
        int slot = ownSlot(txnId);
        long base = StatusTableDescriptor.offset(slot);
        local.writeLong(base + TXN_ID_OFFSET, 0L);
        local.writeLong(base + BEGIN_TIME_OFFSET, StatusTableDescriptor.INACTIVE);
        synchronized (this) {
            putBack(slot);
        }
    }

    /**
     * Takes the longest-free slot whose next sequence fits in a transaction id; a slot whose
     * sequences are used up is retired (its next id would repeat one it gave: others would take
     * the new transaction for one decided and forgotten, and ids are never reused).
     */
    private int takeSlotWithSequencesLeft() {
        while (freeCount > 0) {
            int slot = freeSlots[freeHead];
            freeHead = (freeHead + 1) % slots;
            freeCount--;
            if (sequences[slot] < TxnWords.SEQUENCE_MASK) {
                return slot;
            }
            retired++;
        }
        if (retired == slots) {
            throw new IllegalStateException("node " + node + " has used up its transaction ids: each of its " + slots
                    + " status-table slots handed out all 2^32 sequences (docs/durability.md); its store cannot take new"
                    + " transactions");
        }
        throw new IllegalStateException("too many concurrent transactions on node " + node + ": all "
                + (slots - retired) + " status-table entries are in use (gtran.txn.status-slots); finish some first");
    }

    private void putBack(int slot) {
        freeSlots[(freeHead + freeCount) % slots] = slot;
        freeCount++;
    }

    /**
     * The status word of any node's transaction, read one-sidedly from the node its id names; or
     * {@link #GONE} if that entry has moved on to another transaction (this one finished and
     * rewrote its words in the store, so the caller should read the word that named it again).
     *
     * <p>The entry's id is read before and after the status word: ids are never reused (the
     * sequence), so if both reads find this transaction the status read between them was its own.
     * Another node's entry is read as one {@link Batch} of those three reads with a
     * {@link Batch#fence} between each two, still one flush (one frame and one round trip on TCP,
     * one chain on RDMA): a batch does not promise that several reads sample memory in the order
     * added (on RDMA several READs in flight may not), and the check is sound only if the status is
     * sampled after the first id read and before the second, as three round trips did.
     *
     * <p>A final status of another node's transaction (committed or aborted), read before or
     * {@link #learnCommitted told}, answers from memory (docs/cluster-transactions.md, "Decisions
     * carried").
     */
    public long read(long txnId) {
        int owner = TxnWords.node(txnId);
        Region region = regionOf(owner);
        long base = StatusTableDescriptor.offset(TxnWords.slot(txnId));
        if (base + StatusTableDescriptor.LENGTH > region.size()) {
            return GONE; // a slot this node's table does not have: no such transaction
        }
        if (owner == node) { // this node's memory: three reads cost less than a batch
            if (region.readLong(base + TXN_ID_OFFSET) != txnId) {
                return GONE;
            }
            long status = region.readLong(base + STATUS_OFFSET);
            return region.readLong(base + TXN_ID_OFFSET) == txnId ? status : GONE;
        }
        long known = settled.find(txnId);
        if (known != SettledStatuses.UNKNOWN) {
            return known;
        }
        Batch batch = fabric.batch();
        CompletableFuture<Long> idBefore = batch.readLong(region, base + TXN_ID_OFFSET);
        CompletableFuture<Long> status = batch.fence().readLong(region, base + STATUS_OFFSET);
        CompletableFuture<Long> idAfter = batch.fence().readLong(region, base + TXN_ID_OFFSET);
        try {
            batch.flushAndWait(); // refused on a fabric's own thread, as the synchronous reads were
            if (idBefore.join() != txnId || idAfter.join() != txnId) {
                return GONE;
            }
            settled.learn(txnId, status.join());
            return status.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : e; // as the synchronous reads threw it
        }
    }

    /**
     * What the coordinator of another node's transaction {@code txnId} said of it: committed at
     * {@code commitTime}. Reads of its status answer that from now on, without a round trip, as
     * long as the entry is held; an id of this node's, or a time no commit takes, is ignored.
     */
    public void learnCommitted(long txnId, long commitTime) {
        boolean aTime = commitTime >= 0 && commitTime < StatusTableDescriptor.PENDING_COMMIT_TIME;
        if (aTime && TxnWords.isTxnId(txnId) && TxnWords.node(txnId) != node) {
            settled.learn(txnId, StatusTableDescriptor.statusWord(TxnStatus.COMMITTED, commitTime));
        }
    }

    /**
     * The smallest begin time published in {@code node}'s table, or {@code upperBound} if it is
     * smaller (or no transaction runs there). An entry still taking its begin time counts as its
     * floor, which is below the begin time it will publish.
     */
    public long minActiveBeginTime(int node, long upperBound) {
        Region region = regionOf(node);
        long min = upperBound;
        long entries = region.size() / StatusTableDescriptor.LENGTH;
        for (int slot = 0; slot < entries; slot++) {
            long beginTime = StatusTableDescriptor.floorOf(
                    region.readLong(StatusTableDescriptor.offset(slot) + BEGIN_TIME_OFFSET));
            if (beginTime < min) {
                min = beginTime;
            }
        }
        return min;
    }

    /**
     * The begin times published in {@code node}'s table below {@code upperBound}, ascending; null if
     * an entry is still taking its begin time, which may then fall anywhere below the bound.
     */
    public long[] activeBeginTimes(int node, long upperBound) {
        Region region = regionOf(node);
        long entries = region.size() / StatusTableDescriptor.LENGTH;
        long[] times = new long[8];
        int n = 0;
        for (int slot = 0; slot < entries; slot++) {
            long beginTime = publishedBeginTime(region, slot);
            if (StatusTableDescriptor.isAnnouncing(beginTime)) {
                return null;
            }
            if (beginTime < upperBound) {
                if (n == times.length) {
                    times = Arrays.copyOf(times, n * 2);
                }
                times[n++] = beginTime;
            }
        }
        times = Arrays.copyOf(times, n);
        Arrays.sort(times);
        return times;
    }

    private static long publishedBeginTime(Region region, int slot) {
        long offset = StatusTableDescriptor.offset(slot) + BEGIN_TIME_OFFSET;
        long beginTime = region.readLong(offset);
        // A transaction between taking its entry and publishing its begin time: usually a matter
        // of nanoseconds, so wait a little for the exact time rather than give up on this pass.
        for (int spin = 0; StatusTableDescriptor.isAnnouncing(beginTime) && spin < 1_000; spin++) {
            Thread.onSpinWait();
            beginTime = region.readLong(offset);
        }
        return beginTime;
    }

    public int node() {
        return node;
    }

    public synchronized int inUse() {
        return slots - retired - freeCount;
    }

    private int ownSlot(long txnId) {
        if (TxnWords.node(txnId) != node || !TxnWords.isTxnId(txnId)) {
            throw new IllegalArgumentException("not a transaction of node " + node + ": " + TxnWords.toString(txnId));
        }
        return TxnWords.slot(txnId);
    }

    private Region regionOf(int peer) {
        Region region = peers[peer];
        if (region == null) {
            region = fabric.connect(peer, REGION_NAME);
            peers[peer] = region;
        }
        return region;
    }
}
