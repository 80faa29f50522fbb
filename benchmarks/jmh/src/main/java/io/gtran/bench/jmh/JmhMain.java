package io.gtran.bench.jmh;

/**
 * Entry point of {@code bin/gtran bench jmh [jmh args]}: hands every argument to JMH's own
 * command line ({@code -h} lists the options). The benchmarks are found through
 * {@code META-INF/BenchmarkList}, which the JMH annotation processor writes into
 * {@code benchmarks/jmh/target/classes}; forks inherit this JVM's class path.
 *
 * <p>Examples:
 * <pre>
 * bin/gtran bench jmh -l                                   # list benchmarks
 * bin/gtran bench jmh AdjacencyScan -p vertices=100000 -p edges=1000000
 * bin/gtran bench jmh 'PropertyBenchmark.*Read' -wi 1 -i 2
 * </pre>
 */
public final class JmhMain {
    private JmhMain() {
    }

    public static void main(String[] args) throws Exception {
        org.openjdk.jmh.Main.main(args);
    }
}
