package io.gtran.check.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The checks of {@link ClusterCheck} beyond the list-append checker, as pure functions over what
 * the run recorded, so a hand-made history shows they can fail: acknowledged appends missing from
 * the final reads (lost), and the bank's totals.
 */
final class ClusterInvariants {
    /** One violation: a kind ({@code lost-append}, {@code wrong-total}, ...) and what was seen. */
    record Finding(String kind, String detail) {
        @Override
        public String toString() {
            return kind + ": " + detail;
        }
    }

    /**
     * A committed read of many accounts: when it started and committed (nanos, one clock), which
     * accounts (indices) it read, their sum, and its smallest balance.
     */
    record ReadAll(int thread, long startNanos, long endNanos, Set<Integer> accounts, long sum, long min) {
    }

    /** What the bank check found, and the sum the surviving accounts settled at after a loss (null if none). */
    record BankReport(List<Finding> findings, Long settledSum) {
    }

    private ClusterInvariants() {
    }

    /**
     * Every acknowledged append ({@code acked}: key to values) of a key that was read at the end
     * ({@code finalReads}: key to list) must be in that list. Keys not read at the end are not
     * judged here (their owner is gone: counted unavailable).
     */
    static List<Finding> lostAppends(Map<Integer, List<Integer>> acked, Map<Integer, int[]> finalReads) {
        List<Finding> lost = new ArrayList<>();
        for (Map.Entry<Integer, List<Integer>> e : new TreeMap<>(acked).entrySet()) {
            int[] read = finalReads.get(e.getKey());
            if (read == null) {
                continue;
            }
            int[] sorted = read.clone();
            Arrays.sort(sorted);
            for (int value : e.getValue()) {
                if (Arrays.binarySearch(sorted, value) < 0) {
                    lost.add(new Finding("lost-append", "k" + e.getKey() + ": acknowledged append " + value
                            + " is missing from the final read " + Arrays.toString(read)));
                }
            }
        }
        return lost;
    }

    /**
     * The bank's totals. A read of all {@code keys} accounts must sum to {@code total}. Reads of a
     * smaller set (the accounts on surviving nodes after a node was lost) settle: the first of them
     * to commit fixes the sum, and every read of the same set that starts after it committed must
     * have that sum. No balance is ever negative.
     */
    static BankReport bank(List<ReadAll> reads, int keys, long total) {
        List<Finding> findings = new ArrayList<>();
        Map<Set<Integer>, ReadAll> reference = new LinkedHashMap<>();
        List<ReadAll> byCommit = new ArrayList<>(reads);
        byCommit.sort(Comparator.comparingLong(ReadAll::endNanos));
        Long settled = null;
        for (ReadAll r : byCommit) {
            if (r.min() < 0) {
                findings.add(new Finding("negative-balance", "thread " + r.thread() + " read a balance of " + r.min()));
            }
            if (r.accounts().size() == keys) {
                if (r.sum() != total) {
                    findings.add(new Finding("wrong-total", "thread " + r.thread() + " read all " + keys + " accounts summing to "
                            + r.sum() + ", not " + total));
                }
                continue;
            }
            ReadAll first = reference.get(r.accounts());
            if (first == null) {
                reference.put(r.accounts(), r); // the fault settled: this sum is what the survivors keep
                settled = r.sum();
            } else if (r.startNanos() > first.endNanos() && r.sum() != first.sum()) {
                findings.add(new Finding("unsettled-total", "thread " + r.thread() + " read the " + r.accounts().size()
                        + " surviving accounts summing to " + r.sum() + ", but they settled at " + first.sum()
                        + " (first committed read, thread " + first.thread() + ")"));
            }
        }
        return new BankReport(findings, settled);
    }
}
