package io.gtran.check.sim;

import io.gtran.txn.commit.CommitMessenger;
import io.gtran.txn.protocol.Outcome;
import io.gtran.txn.protocol.Vote;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A simulated node's data and its side of the commit: bank accounts and append-only lists, each
 * key owned by one node, written under per-key locks that a transaction takes when its writes
 * run here and keeps until its outcome is applied. It is the {@link CommitMessenger.Participant}
 * of the node's real messenger: a part votes YES if its writes hold their locks.
 */
final class Shard implements CommitMessenger.Participant {
    private final int node;
    private final Ledger ledger;
    private final Map<Integer, Long> balances = new TreeMap<>();
    private final Map<Integer, List<Long>> lists = new TreeMap<>();
    /** Which transaction holds each key's lock. */
    private final Map<Integer, Long> locks = new HashMap<>();
    /** The writes of each transaction that holds locks here, until its outcome is applied. */
    private final Map<Long, List<Ledger.Write>> pending = new HashMap<>();

    Shard(int node, Ledger ledger, List<Integer> accounts, List<Integer> listKeys) {
        this.node = node;
        this.ledger = ledger;
        for (int key : accounts) {
            balances.put(key, Ledger.INITIAL_BALANCE);
        }
        for (int key : listKeys) {
            lists.put(key, new ArrayList<>());
        }
    }

    /**
     * Runs {@code writes} of {@code txn} here: takes every key's lock, or none if another
     * transaction holds one. Running the same writes again is answered as the first time.
     */
    boolean execute(long txn, List<Ledger.Write> writes) {
        if (pending.containsKey(txn)) {
            return true;
        }
        for (Ledger.Write write : writes) {
            Long holder = locks.get(write.key());
            if (holder != null && holder != txn) {
                return false;
            }
        }
        for (Ledger.Write write : writes) {
            locks.put(write.key(), txn);
        }
        pending.put(txn, writes);
        return true;
    }

    @Override
    public Vote validate(long txn, long commitTime, int[] participants) {
        return pending.containsKey(txn) ? Vote.YES : Vote.NO; // its writes hold their locks: nothing can conflict
    }

    @Override
    public void apply(long txn, Outcome outcome, long commitTime) {
        List<Ledger.Write> writes = pending.remove(txn);
        if (writes == null) {
            if (outcome == Outcome.COMMIT) {
                ledger.violation("node " + node + " told to commit " + Long.toHexString(txn) + ", whose writes never ran here");
            }
            ledger.applied(node, txn, outcome);
            return;
        }
        for (Ledger.Write write : writes) {
            locks.remove(write.key(), txn);
            if (outcome == Outcome.COMMIT) {
                if (write.delta() == Ledger.APPEND) {
                    lists.get(write.key()).add(txn);
                } else {
                    balances.merge(write.key(), write.delta(), Long::sum);
                }
            }
        }
        ledger.applied(node, txn, outcome);
    }

    /** Transactions that still hold locks here. */
    java.util.Set<Long> holding() {
        return pending.keySet();
    }

    long totalBalance() {
        long total = 0;
        for (long balance : balances.values()) {
            total += balance;
        }
        return total;
    }

    int accounts() {
        return balances.size();
    }

    Map<Integer, List<Long>> lists() {
        return lists;
    }
}
