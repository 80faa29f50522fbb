package io.gtran.check.sim;

import io.gtran.txn.protocol.Outcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the simulator saw of every transaction of a schedule (its writes, what its client was
 * told, what each node applied), and the invariants over it: checked as things happen where they
 * can be, and once the cluster has settled at the end.
 */
final class Ledger {
    /** Appends a transaction's id to a list key instead of adding to an account. */
    static final long APPEND = Long.MIN_VALUE;
    static final long INITIAL_BALANCE = 100;

    /** A write: add {@code delta} to account {@code key}, or append the transaction to list {@code key} ({@link #APPEND}). */
    record Write(int key, long delta) {
    }

    /** One transaction: who coordinates it, what it writes where, what its client heard and what each node applied. */
    static final class Txn {
        final long id;
        final int coordinator;
        final List<Write> writes;
        /** "COMMIT", "ABORT" or "UNKNOWN" once the client was told; null while it waits (or its node crashed). */
        String told;
        final Map<Integer, Outcome> applied = new TreeMap<>();

        Txn(long id, int coordinator, List<Write> writes) {
            this.id = id;
            this.coordinator = coordinator;
            this.writes = writes;
        }
    }

    private final int size;
    private final Map<Long, Txn> txns = new LinkedHashMap<>();
    private final List<String> violations = new ArrayList<>();

    Ledger(int size) {
        this.size = size;
    }

    int owner(int key) {
        return key % size;
    }

    Txn begin(long id, int coordinator, List<Write> writes) {
        Txn txn = new Txn(id, coordinator, writes);
        txns.put(id, txn);
        return txn;
    }

    Txn txn(long id) {
        return txns.get(id);
    }

    /** Node {@code node} applied {@code outcome} to its part of {@code txn}. */
    void applied(int node, long id, Outcome outcome) {
        Txn txn = txns.get(id);
        if (txn == null) {
            violation("node " + node + " applied " + outcome + " to a transaction no client began: " + Long.toHexString(id));
            return;
        }
        Outcome before = txn.applied.put(node, outcome);
        if (before != null) {
            violation("node " + node + " applied " + Long.toHexString(id) + " twice: " + before + " then " + outcome);
        }
    }

    void violation(String what) {
        if (violations.size() < 20) {
            violations.add(what);
        }
    }

    List<String> violations() {
        return violations;
    }

    Map<Long, Txn> txns() {
        return txns;
    }

    /**
     * The invariants once the cluster has settled: every transaction has one outcome everywhere,
     * the one its client was told, on every surviving node it wrote on; no money made or lost; the
     * lists agree on one order of the transactions that appended to them.
     */
    /**
     * Whether no live node can learn {@code id}'s outcome: its coordinator crashed, another
     * participant crashed (its vote, or the decision it applied, is gone with it), and no live node
     * applied a decision. Recovery never presumes the vote it has not seen, so a live participant
     * holding it stays in doubt; without durable votes (issue 36) for good.
     */
    boolean undecidable(long id, SimNode[] nodes) {
        Txn txn = txns.get(id);
        if (txn == null || !nodes[txn.coordinator].isCrashed()) {
            return false;
        }
        for (int node : txn.applied.keySet()) {
            if (!nodes[node].isCrashed()) {
                return false;
            }
        }
        for (Write write : txn.writes) {
            int owner = owner(write.key());
            if (owner != txn.coordinator && nodes[owner].isCrashed()) {
                return true;
            }
        }
        return false;
    }

    void checkSettled(SimNode[] nodes) {
        boolean anyCrashed = false;
        for (SimNode node : nodes) {
            anyCrashed |= node.isCrashed();
        }
        for (Txn txn : txns.values()) {
            checkOutcome(txn, nodes);
        }
        if (!anyCrashed) {
            long total = 0;
            long expected = 0;
            for (SimNode node : nodes) {
                total += node.shard().totalBalance();
                expected += node.shard().accounts() * INITIAL_BALANCE;
            }
            if (total != expected) {
                violation("bank: the accounts hold " + total + ", not " + expected);
            }
        }
        checkListOrder(nodes);
    }

    private void checkOutcome(Txn txn, SimNode[] nodes) {
        String id = Long.toHexString(txn.id) + " (coordinator " + txn.coordinator + ", told " + txn.told + ", applied "
                + txn.applied + ")";
        boolean committed = txn.applied.containsValue(Outcome.COMMIT);
        boolean aborted = txn.applied.containsValue(Outcome.ABORT);
        if (committed && aborted) {
            violation("half committed: " + id);
        }
        if ("COMMIT".equals(txn.told) && aborted) {
            violation("the client was told COMMIT, a node aborted: " + id);
        }
        if ("ABORT".equals(txn.told) && committed) {
            violation("the client was told ABORT, a node committed: " + id);
        }
        if (committed || "COMMIT".equals(txn.told)) {
            for (Write write : txn.writes) {
                int owner = owner(write.key());
                if (!nodes[owner].isCrashed() && txn.applied.get(owner) != Outcome.COMMIT && !undecidable(txn.id, nodes)) {
                    violation("committed, but node " + owner + " did not apply it: " + id);
                    return;
                }
            }
        }
    }

    /** Each list is an order of the transactions that appended to it; together they must not form a cycle. */
    private void checkListOrder(SimNode[] nodes) {
        Map<Long, List<Long>> after = new HashMap<>();
        for (SimNode node : nodes) {
            if (node.isCrashed()) {
                continue;
            }
            for (List<Long> list : node.shard().lists().values()) {
                for (int i = 1; i < list.size(); i++) {
                    after.computeIfAbsent(list.get(i - 1), k -> new ArrayList<>()).add(list.get(i));
                }
            }
        }
        Map<Long, Integer> state = new HashMap<>(); // 1 on the path, 2 done
        for (Long start : after.keySet()) {
            if (!state.containsKey(start) && cycleFrom(start, after, state)) {
                violation("list-append: the lists order some transactions both ways (a cycle through " + Long.toHexString(start) + ")");
                return;
            }
        }
    }

    private static boolean cycleFrom(long start, Map<Long, List<Long>> after, Map<Long, Integer> state) {
        java.util.ArrayDeque<long[]> stack = new java.util.ArrayDeque<>(); // {txn, next child index}
        stack.push(new long[] {start, 0});
        state.put(start, 1);
        while (!stack.isEmpty()) {
            long[] top = stack.peek();
            List<Long> children = after.getOrDefault(top[0], List.of());
            if (top[1] < children.size()) {
                long child = children.get((int) top[1]++);
                Integer seen = state.get(child);
                if (seen == null) {
                    state.put(child, 1);
                    stack.push(new long[] {child, 0});
                } else if (seen == 1) {
                    return true;
                }
            } else {
                state.put(top[0], 2);
                stack.pop();
            }
        }
        return false;
    }
}
