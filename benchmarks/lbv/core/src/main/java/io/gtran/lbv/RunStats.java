package io.gtran.lbv;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What one client thread of a run counted, per query type; {@link #add} merges threads. Not
 * thread-safe: each thread fills its own and hands it over through its {@code Future}.
 */
final class RunStats {
    private static final int MAX_MESSAGE = 300;

    private final int maxErrors;
    final long[] commits = new long[LbvQuery.values().length];
    final long[] aborts = new long[commits.length];
    final long[] failures = new long[commits.length];
    final long[] results = new long[commits.length];
    final Histogram[] latencies = new Histogram[commits.length];
    final Set<String> errors = new LinkedHashSet<>();
    /** When the thread stopped ({@link System#nanoTime}). */
    long endNanos;

    RunStats(int maxErrors) {
        this.maxErrors = maxErrors;
        for (int i = 0; i < latencies.length; i++) {
            latencies[i] = new Histogram();
        }
    }

    void commit(LbvQuery query, long nanos, long resultCount) {
        commits[query.ordinal()]++;
        results[query.ordinal()] += resultCount;
        latencies[query.ordinal()].record(nanos);
    }

    void abort(LbvQuery query) {
        aborts[query.ordinal()]++;
    }

    void fail(LbvQuery query, Throwable failure, int retries) {
        failures[query.ordinal()]++;
        error(errors, maxErrors, query.name(), failure, retries);
    }

    /** Adds {@code "<query>: <Class>: <message>[ (after N retries)]"} to {@code errors} unless it holds {@code max}. */
    static void error(Set<String> errors, int max, String query, Throwable failure, int retries) {
        if (errors.size() >= max) {
            return;
        }
        String message = query + ": " + failure.getClass().getName() + ": " + failure.getMessage();
        if (message.length() > MAX_MESSAGE) {
            message = message.substring(0, MAX_MESSAGE) + "...";
        }
        errors.add(retries > 0 ? message + " (after " + retries + " retries)" : message);
    }

    void add(RunStats other) {
        for (int i = 0; i < commits.length; i++) {
            commits[i] += other.commits[i];
            aborts[i] += other.aborts[i];
            failures[i] += other.failures[i];
            results[i] += other.results[i];
            latencies[i].add(other.latencies[i]);
        }
        for (String e : other.errors) {
            if (errors.size() < maxErrors) {
                errors.add(e);
            }
        }
        endNanos = Math.max(endNanos, other.endNanos);
    }

    long total(long[] counts) {
        long sum = 0;
        for (long c : counts) {
            sum += c;
        }
        return sum;
    }

    Histogram allLatencies() {
        Histogram all = new Histogram();
        for (Histogram h : latencies) {
            all.add(h);
        }
        return all;
    }

    List<LbvResult.QueryStats> queryStats() {
        List<LbvResult.QueryStats> stats = new ArrayList<>();
        for (LbvQuery q : LbvQuery.values()) {
            int i = q.ordinal();
            Histogram h = latencies[i];
            stats.add(new LbvResult.QueryStats(q.name(), q.category().name(), commits[i], failures[i], aborts[i],
                    results[i], ms(h.meanNanos()), ms(h.quantileNanos(0.5)), ms(h.quantileNanos(0.99)),
                    ms(h.maxNanos())));
        }
        return stats;
    }

    static double ms(double nanos) {
        return nanos / 1e6;
    }
}
