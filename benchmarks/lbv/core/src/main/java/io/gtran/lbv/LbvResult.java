package io.gtran.lbv;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What one LBV run of one system measured, as the child JVM prints it ({@code LBV_RESULT <json>})
 * and the driver reads it back ({@link #fromJson}). Times are in seconds or milliseconds as the
 * names say; latencies include the retries of aborted attempts.
 *
 * @param system the system's own name ({@link LbvSystem#name})
 * @param isolation the isolation its transactions get, in words ({@link LbvSystem#isolation})
 * @param systemClass the {@link LbvSystem} class the child ran
 * @param options the {@code --option} pairs it was constructed with
 * @param dataset the dataset name given ({@code social}, ...)
 * @param datasetName the dataset's full name with its scale ({@link DatasetInfo#name})
 * @param targetEdges the {@code --edges} asked for
 * @param seed the seed of the dataset and of every thread's draws
 * @param vertices the dataset's vertex count
 * @param edges the dataset's edge count
 * @param workload the workload name (RO, RI, WI, MIX)
 * @param threads client threads
 * @param seconds the measured run asked for (0: no throughput run)
 * @param warmupSeconds the warm-up asked for
 * @param skew the Zipf theta of the throughput queries' vertices and edges ({@link ParamSampler}; 0
 *     uniform; JSON without it, written before it existed, reads as 0)
 * @param loadSeconds how long {@link LbvSystem#load} took
 * @param measuredSeconds how long the measured run took, from start to the last thread's end
 * @param commits queries committed in the measured run
 * @param aborts retryable failures (each retried, or counted as a failure after the last retry)
 * @param failures queries given up on (non-retryable, or still failing after the retries)
 * @param tps commits per second of {@code measuredSeconds}
 * @param abortRate {@code aborts / (commits + aborts)}
 * @param p50Ms median latency of committed queries
 * @param p99Ms 99th percentile latency of committed queries
 * @param queries per query type, in {@link LbvQuery} order (types never drawn included, with zeros)
 * @param latency per latency query, when {@code --latency} was given (else empty)
 * @param errors up to {@value LbvRunner#MAX_ERRORS} distinct failure messages, {@code "Q18: ..."}
 * @param messagesPerQuery messages the system's nodes sent each other during the measured run
 *     ({@link LbvSystem#traffic}), aborted attempts' included, per committed query; NaN if the system
 *     does not count them (then the JSON has no such field)
 * @param bytesPerQuery their payload bytes per committed query; NaN likewise
 */
public record LbvResult(String system, String isolation, String systemClass, Map<String, String> options,
                        String dataset, String datasetName, long targetEdges, long seed, long vertices, long edges,
                        String workload, int threads, double seconds, double warmupSeconds, double skew,
                        double loadSeconds, double measuredSeconds, long commits, long aborts, long failures, double tps,
                        double abortRate, double p50Ms, double p99Ms, List<QueryStats> queries,
                        List<LatencyStats> latency, List<String> errors, double messagesPerQuery, double bytesPerQuery) {
    /** The JSON layout's version; the driver checks it. */
    public static final int VERSION = 1;
    /** The prefix of the child's result line on stdout. */
    public static final String LINE_PREFIX = "LBV_RESULT ";

    public LbvResult {
        options = Map.copyOf(options);
        queries = List.copyOf(queries);
        latency = List.copyOf(latency);
        errors = List.copyOf(errors);
    }

    /** A result of uniform draws (skew 0) with no message counts (a system that does not count them). */
    public LbvResult(String system, String isolation, String systemClass, Map<String, String> options,
                     String dataset, String datasetName, long targetEdges, long seed, long vertices, long edges,
                     String workload, int threads, double seconds, double warmupSeconds, double loadSeconds,
                     double measuredSeconds, long commits, long aborts, long failures, double tps, double abortRate,
                     double p50Ms, double p99Ms, List<QueryStats> queries, List<LatencyStats> latency,
                     List<String> errors) {
        this(system, isolation, systemClass, options, dataset, datasetName, targetEdges, seed, vertices, edges, workload,
                threads, seconds, warmupSeconds, 0, loadSeconds, measuredSeconds, commits, aborts, failures, tps, abortRate,
                p50Ms, p99Ms, queries, latency, errors, Double.NaN, Double.NaN);
    }

    /** Whether the system counted its messages ({@link #messagesPerQuery} is a number). */
    public boolean hasTraffic() {
        return !Double.isNaN(messagesPerQuery);
    }

    /**
     * One query type of the measured run.
     *
     * @param count committed queries
     * @param results the sum of what {@link LbvSystem#execute} returned, for a sanity check
     */
    public record QueryStats(String query, String category, long count, long failures, long aborts, long results,
                             double meanMs, double p50Ms, double p99Ms, double maxMs) {
    }

    /**
     * One latency query, run {@code runs} times on one thread.
     *
     * @param runs runs measured (fewer than asked if the per-query time budget ran out)
     * @param results the sum of what {@link LbvSystem#latency} returned over the runs
     * @param meanMessages messages the system's nodes sent each other per measured run ({@link
     *     LbvSystem#traffic} read before and after each), NaN if the system does not count them
     * @param meanBytes their payload bytes per run, NaN likewise
     */
    public record LatencyStats(String query, long runs, long failures, long results, double meanMs, double p50Ms,
                               double p99Ms, double maxMs, double meanMessages, double meanBytes) {
        /** Latency stats with no message counts. */
        public LatencyStats(String query, long runs, long failures, long results, double meanMs, double p50Ms,
                            double p99Ms, double maxMs) {
            this(query, runs, failures, results, meanMs, p50Ms, p99Ms, maxMs, Double.NaN, Double.NaN);
        }
    }

    /** The one-line JSON object. */
    public String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", VERSION);
        m.put("system", system);
        m.put("isolation", isolation);
        m.put("system_class", systemClass);
        m.put("options", new java.util.TreeMap<>(options));
        m.put("dataset", dataset);
        m.put("dataset_name", datasetName);
        m.put("target_edges", targetEdges);
        m.put("seed", seed);
        m.put("vertices", vertices);
        m.put("edges", edges);
        m.put("workload", workload);
        m.put("threads", threads);
        m.put("seconds", seconds);
        m.put("warmup_seconds", warmupSeconds);
        m.put("skew", skew);
        m.put("load_seconds", loadSeconds);
        m.put("measured_seconds", measuredSeconds);
        m.put("commits", commits);
        m.put("aborts", aborts);
        m.put("failures", failures);
        m.put("tps", tps);
        m.put("abort_rate", abortRate);
        m.put("p50_ms", p50Ms);
        m.put("p99_ms", p99Ms);
        List<Object> qs = new ArrayList<>();
        for (QueryStats q : queries) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("query", q.query());
            o.put("category", q.category());
            o.put("count", q.count());
            o.put("failures", q.failures());
            o.put("aborts", q.aborts());
            o.put("results", q.results());
            o.put("mean_ms", q.meanMs());
            o.put("p50_ms", q.p50Ms());
            o.put("p99_ms", q.p99Ms());
            o.put("max_ms", q.maxMs());
            qs.add(o);
        }
        m.put("queries", qs);
        List<Object> ls = new ArrayList<>();
        for (LatencyStats l : latency) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("query", l.query());
            o.put("runs", l.runs());
            o.put("failures", l.failures());
            o.put("results", l.results());
            o.put("mean_ms", l.meanMs());
            o.put("p50_ms", l.p50Ms());
            o.put("p99_ms", l.p99Ms());
            o.put("max_ms", l.maxMs());
            if (!Double.isNaN(l.meanMessages())) {
                o.put("mean_messages", l.meanMessages());
                o.put("mean_bytes", l.meanBytes());
            }
            ls.add(o);
        }
        m.put("latency", ls);
        m.put("errors", errors);
        if (hasTraffic()) { // absent for a system that counts no messages, as in results written before they were
            m.put("messages_per_query", messagesPerQuery);
            m.put("bytes_per_query", bytesPerQuery);
        }
        return Json.write(m);
    }

    /** Reads what {@link #toJson} wrote (either the JSON or the whole {@code LBV_RESULT} line). */
    public static LbvResult fromJson(String json) {
        String text = json.startsWith(LINE_PREFIX) ? json.substring(LINE_PREFIX.length()) : json;
        if (!(Json.parse(text) instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("json is not an object: " + abbreviate(text));
        }
        Fields f = new Fields(m, "result");
        long version = f.lng("version");
        if (version != VERSION) {
            throw new IllegalArgumentException("version=" + version + " but this reader knows version=" + VERSION);
        }
        Map<String, String> options = new LinkedHashMap<>();
        new Fields(f.map("options"), "options").map.forEach((k, v) -> options.put(String.valueOf(k), String.valueOf(v)));
        List<QueryStats> queries = new ArrayList<>();
        for (Object o : f.list("queries")) {
            Fields q = new Fields(o, "queries[]");
            queries.add(new QueryStats(q.str("query"), q.str("category"), q.lng("count"), q.lng("failures"),
                    q.lng("aborts"), q.lng("results"), q.dbl("mean_ms"), q.dbl("p50_ms"), q.dbl("p99_ms"),
                    q.dbl("max_ms")));
        }
        List<LatencyStats> latency = new ArrayList<>();
        for (Object o : f.list("latency")) {
            Fields l = new Fields(o, "latency[]");
            latency.add(new LatencyStats(l.str("query"), l.lng("runs"), l.lng("failures"), l.lng("results"),
                    l.dbl("mean_ms"), l.dbl("p50_ms"), l.dbl("p99_ms"), l.dbl("max_ms"), l.optionalDbl("mean_messages"),
                    l.optionalDbl("mean_bytes")));
        }
        List<String> errors = new ArrayList<>();
        for (Object o : f.list("errors")) {
            errors.add(String.valueOf(o));
        }
        return new LbvResult(f.str("system"), f.str("isolation"), f.str("system_class"), options, f.str("dataset"),
                f.str("dataset_name"), f.lng("target_edges"), f.lng("seed"), f.lng("vertices"), f.lng("edges"),
                f.str("workload"), (int) f.lng("threads"), f.dbl("seconds"), f.dbl("warmup_seconds"),
                f.map.containsKey("skew") ? f.dbl("skew") : 0, f.dbl("load_seconds"), f.dbl("measured_seconds"),
                f.lng("commits"), f.lng("aborts"), f.lng("failures"), f.dbl("tps"), f.dbl("abort_rate"),
                f.dbl("p50_ms"), f.dbl("p99_ms"), queries, latency, errors, f.optionalDbl("messages_per_query"),
                f.optionalDbl("bytes_per_query"));
    }

    /** The human summary, e.g. {@code system=gtran isolation=serializable workload=MIX threads=4 tps=1234.5 ...}. */
    public String summary() {
        return String.format(Locale.ROOT, "system=%s isolation=\"%s\" dataset=%s workload=%s threads=%d tps=%.1f"
                        + " abort_rate=%.4f p99_ms=%.3f commits=%d aborts=%d failures=%d", system, isolation,
                datasetName, workload, threads, tps, abortRate, p99Ms, commits, aborts, failures);
    }

    /** A table per query type (count, failures, aborts, results, mean, p50, p99, max) and per latency query. */
    public String table() {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%-6s %-9s %10s %8s %8s %12s %10s %10s %10s %10s%n", "query", "category",
                "count", "failures", "aborts", "results", "mean_ms", "p50_ms", "p99_ms", "max_ms"));
        for (QueryStats q : queries) {
            if (q.count() + q.failures() + q.aborts() > 0) {
                b.append(String.format(Locale.ROOT, "%-6s %-9s %10d %8d %8d %12d %10.3f %10.3f %10.3f %10.3f%n",
                        q.query(), q.category(), q.count(), q.failures(), q.aborts(), q.results(), q.meanMs(),
                        q.p50Ms(), q.p99Ms(), q.maxMs()));
            }
        }
        if (hasTraffic()) {
            b.append(String.format(Locale.ROOT, "messages_per_query=%.2f bytes_per_query=%.1f%n", messagesPerQuery,
                    bytesPerQuery));
        }
        if (!latency.isEmpty()) {
            boolean counted = latency.stream().anyMatch(l -> !Double.isNaN(l.meanMessages()));
            b.append(String.format(Locale.ROOT, "%-6s %10s %8s %12s %10s %10s %10s %10s", "query", "runs", "failures",
                    "results", "mean_ms", "p50_ms", "p99_ms", "max_ms"));
            b.append(counted ? String.format(Locale.ROOT, " %10s %12s%n", "messages", "bytes") : System.lineSeparator());
            for (LatencyStats l : latency) {
                b.append(String.format(Locale.ROOT, "%-6s %10d %8d %12d %10.3f %10.3f %10.3f %10.3f", l.query(),
                        l.runs(), l.failures(), l.results(), l.meanMs(), l.p50Ms(), l.p99Ms(), l.maxMs()));
                b.append(counted ? String.format(Locale.ROOT, " %10.1f %12.1f%n", l.meanMessages(), l.meanBytes())
                        : System.lineSeparator());
            }
        }
        return b.toString();
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }

    /** Typed access to a parsed object's fields, naming the missing or mistyped field. */
    private static final class Fields {
        final Map<?, ?> map;
        final String where;

        Fields(Object object, String where) {
            if (!(object instanceof Map<?, ?> m)) {
                throw new IllegalArgumentException(where + " is not an object: " + object);
            }
            this.map = m;
            this.where = where;
        }

        private Object get(String key) {
            if (!map.containsKey(key)) {
                throw new IllegalArgumentException(where + "." + key + " is missing");
            }
            return map.get(key);
        }

        String str(String key) {
            Object v = get(key);
            return v == null ? null : v.toString();
        }

        long lng(String key) {
            if (!(get(key) instanceof Number n)) {
                throw new IllegalArgumentException(where + "." + key + "=" + get(key) + " is not a number");
            }
            return n.longValue();
        }

        double dbl(String key) {
            Object v = get(key);
            if (v == null) {
                return Double.NaN;
            }
            if (!(v instanceof Number n)) {
                throw new IllegalArgumentException(where + "." + key + "=" + v + " is not a number");
            }
            return n.doubleValue();
        }

        /** A number that results written before the field existed lack: NaN when absent or null. */
        double optionalDbl(String key) {
            return map.containsKey(key) ? dbl(key) : Double.NaN;
        }

        Object map(String key) {
            return Objects.requireNonNull(get(key), where + "." + key);
        }

        List<?> list(String key) {
            if (!(get(key) instanceof List<?> l)) {
                throw new IllegalArgumentException(where + "." + key + " is not an array");
            }
            return l;
        }
    }
}
