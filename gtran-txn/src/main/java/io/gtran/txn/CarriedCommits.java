package io.gtran.txn;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The commits this node coordinated, noted per other participant until the next request to it
 * carries them (docs/cluster-transactions.md, "Decisions carried"): the participant then answers
 * a status read of such a transaction from memory while its DECIDE is still on the way.
 */
final class CarriedCommits {
    /** Notes kept per participant; one more drops the oldest. */
    static final int PER_PEER = 32;
    private static final long[] NONE = new long[0];

    private final int self;
    private final ConcurrentHashMap<Integer, Notes> byPeer = new ConcurrentHashMap<>();

    CarriedCommits(int self) {
        this.self = self;
    }

    /** Notes that {@code txn} committed at {@code commitTime}, for each of {@code participants} but this node. */
    void committed(long txn, long commitTime, int[] participants) {
        for (int peer : participants) {
            if (peer != self) {
                byPeer.computeIfAbsent(peer, p -> new Notes()).add(txn, commitTime);
            }
        }
    }

    /** The notes for {@code peer}, as pairs of id and commit time, oldest first; taken: each goes once. */
    long[] take(int peer) {
        Notes notes = byPeer.get(peer);
        return notes == null ? NONE : notes.take();
    }

    /** One participant's notes: a ring of the last {@link #PER_PEER}. */
    private static final class Notes {
        private final long[] pairs = new long[2 * PER_PEER];
        private int first;
        private int count;

        synchronized void add(long txn, long commitTime) {
            int at = (first + count) % PER_PEER;
            if (count == PER_PEER) {
                first = (first + 1) % PER_PEER; // full: the oldest goes
            } else {
                count++;
            }
            pairs[2 * at] = txn;
            pairs[2 * at + 1] = commitTime;
        }

        synchronized long[] take() {
            if (count == 0) {
                return NONE;
            }
            long[] out = new long[2 * count];
            for (int i = 0; i < count; i++) {
                int at = (first + i) % PER_PEER;
                out[2 * i] = pairs[2 * at];
                out[2 * i + 1] = pairs[2 * at + 1];
            }
            first = 0;
            count = 0;
            return out;
        }
    }
}
