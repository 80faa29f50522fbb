package io.gtran.lbv.driver;

import io.gtran.lbv.LbvResult;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a multi-run invocation reports at the end: throughput and abort rate per series (system at
 * an isolation level) and workload, gtran's ratio to every other series, a JSON document of every
 * run, and with {@code --compare} two PNG charts.
 */
final class CompareReport {
    /** The series the ratios are taken against. */
    static final String REFERENCE = "gtran@SR";

    private final LbvMain.Options options;
    private final List<LbvMain.Outcome> outcomes;
    private final List<String> series = new ArrayList<>();
    private final List<String> workloads = new ArrayList<>();

    CompareReport(LbvMain.Options options, List<LbvMain.Outcome> outcomes) {
        this.options = options;
        this.outcomes = List.copyOf(outcomes);
        for (LbvMain.Outcome outcome : outcomes) {
            if (!series.contains(outcome.run().series())) {
                series.add(outcome.run().series());
            }
            if (!workloads.contains(outcome.run().workload())) {
                workloads.add(outcome.run().workload());
            }
        }
    }

    /** Tables of tps and abort rate (series by workload) and, if gtran@SR ran, its ratios. */
    String summary() {
        StringBuilder b = new StringBuilder();
        b.append("Throughput (committed queries/s)\n");
        b.append(table(o -> o.result() == null ? Double.NaN : o.result().tps(), "%.1f"));
        b.append("\nAbort rate (aborts / (commits + aborts))\n");
        b.append(table(o -> o.result() == null ? Double.NaN : o.result().abortRate(), "%.4f"));
        if (series.contains(REFERENCE)) {
            b.append("\n").append(REFERENCE).append(" throughput / each system's\n");
            b.append(String.format(Locale.ROOT, "%-28s", "vs"));
            workloads.forEach(w -> b.append(String.format(Locale.ROOT, "%12s", w)));
            b.append('\n');
            for (String other : series) {
                if (other.equals(REFERENCE)) {
                    continue;
                }
                b.append(String.format(Locale.ROOT, "%-28s", other));
                for (String workload : workloads) {
                    double mine = value(REFERENCE, workload, o -> o.result() == null ? Double.NaN : o.result().tps());
                    double theirs = value(other, workload, o -> o.result() == null ? Double.NaN : o.result().tps());
                    b.append(Double.isNaN(mine) || Double.isNaN(theirs) || theirs == 0
                            ? String.format(Locale.ROOT, "%12s", "-")
                            : String.format(Locale.ROOT, "%11.2fx", mine / theirs));
                }
                b.append('\n');
            }
        }
        for (LbvMain.Outcome outcome : outcomes) {
            if (outcome.error() != null) {
                b.append("FAILED ").append(outcome.run().label()).append(": ")
                        .append(outcome.error().lines().findFirst().orElse("")).append('\n');
            }
        }
        return b.toString();
    }

    /** Every run's result (or error) with the settings and the machine, as one JSON document. */
    String json() {
        StringBuilder b = new StringBuilder();
        b.append("{\"version\":1,\"kind\":\"lbv-compare\",\"created\":\"").append(Instant.now()).append("\",");
        b.append("\"settings\":{");
        List<String> fields = new ArrayList<>();
        options.describe().forEach((k, v) -> fields.add(quote(k) + ":" + (v instanceof String s ? quote(s) : v)));
        b.append(String.join(",", fields)).append("},");
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("cpus", Runtime.getRuntime().availableProcessors());
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        machine.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        fields.clear();
        machine.forEach((k, v) -> fields.add(quote(k) + ":" + (v instanceof String s ? quote(s) : v)));
        b.append("\"machine\":{").append(String.join(",", fields)).append("},");
        b.append("\"runs\":[");
        List<String> runs = new ArrayList<>();
        for (LbvMain.Outcome outcome : outcomes) {
            LbvMain.Run run = outcome.run();
            String head = "{\"system\":" + quote(run.entry().name()) + ",\"series\":" + quote(run.series()) + ",\"isolation\":"
                    + quote(run.entry().isolationFor(run.isolation())) + ",\"workload\":" + quote(run.workload());
            runs.add(outcome.result() != null ? head + ",\"result\":" + outcome.result().toJson() + "}"
                    : head + ",\"error\":" + quote(outcome.error()) + "}");
        }
        b.append(String.join(",", runs)).append("]}\n");
        return b.toString();
    }

    /** Throughput (log scale) and abort-rate charts into {@code dir}. */
    List<Path> charts(Path dir) throws IOException {
        double[][] tps = matrix(o -> o.result() == null ? Double.NaN : o.result().tps());
        double[][] aborts = matrix(o -> o.result() == null ? Double.NaN : o.result().abortRate() * 100);
        String about = String.format(Locale.ROOT, " (%s, %,d edges, %d threads, %.0f s per run%s)", options.dataset,
                options.edges, options.threads, options.seconds, options.skew == 0 ? "" : ", skew " + options.skew);
        Path throughput = dir.resolve("lbv-" + options.dataset + "-throughput.png");
        Charts.groupedBars(throughput, "LBV throughput per system and workload" + about, "committed queries/s",
                workloads, series, tps, true, "%,.0f");
        Path abortRate = dir.resolve("lbv-" + options.dataset + "-abort-rate.png");
        Charts.groupedBars(abortRate, "LBV abort rate per system and workload" + about, "aborts per attempt (%)",
                workloads, series, aborts, false, "%.2f");
        return List.of(throughput, abortRate);
    }

    private String table(java.util.function.ToDoubleFunction<LbvMain.Outcome> metric, String format) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-28s", "system@isolation"));
        workloads.forEach(w -> b.append(String.format(Locale.ROOT, "%12s", w)));
        b.append('\n');
        for (String s : series) {
            b.append(String.format(Locale.ROOT, "%-28s", s));
            for (String w : workloads) {
                double v = value(s, w, metric);
                b.append(Double.isNaN(v) ? String.format(Locale.ROOT, "%12s", "-")
                        : String.format(Locale.ROOT, "%12s", String.format(Locale.ROOT, format, v)));
            }
            b.append('\n');
        }
        return b.toString();
    }

    private double[][] matrix(java.util.function.ToDoubleFunction<LbvMain.Outcome> metric) {
        double[][] m = new double[series.size()][workloads.size()];
        for (int s = 0; s < series.size(); s++) {
            for (int w = 0; w < workloads.size(); w++) {
                m[s][w] = value(series.get(s), workloads.get(w), metric);
            }
        }
        return m;
    }

    private double value(String s, String workload, java.util.function.ToDoubleFunction<LbvMain.Outcome> metric) {
        for (LbvMain.Outcome outcome : outcomes) {
            if (outcome.run().series().equals(s) && outcome.run().workload().equals(workload)) {
                return metric.applyAsDouble(outcome);
            }
        }
        return Double.NaN;
    }

    /** Whether every run produced a result. */
    boolean complete() {
        return outcomes.stream().allMatch(o -> o.result() != null);
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
