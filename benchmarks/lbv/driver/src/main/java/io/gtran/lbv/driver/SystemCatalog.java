package io.gtran.lbv.driver;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The systems {@code bin/gtran bench lbv --system NAME} knows: which module's class path runs
 * them, which {@code LbvSystem} class, with which options, and what isolation they really give.
 * Each runs in a child JVM of its own ({@code io.gtran.lbv.LbvChildMain}).
 */
final class SystemCatalog {
    /**
     * One system.
     *
     * @param name what {@code --system} takes
     * @param module the directory, under gtran's home, of the Maven module whose {@code target/classes}
     *     and {@code target/lbv-classpath.txt} run it
     * @param systemClass the {@code LbvSystem} implementation
     * @param isolations the isolation levels it can be asked for ({@code SR}, {@code SI}); empty if it
     *     has one fixed level, then {@code fixedIsolation} names it
     * @param fixedIsolation the short name of the only isolation it offers ({@code RC}: read
     *     committed), or null
     * @param options constructor options besides {@code isolation}
     */
    record Entry(String name, String module, String systemClass, List<String> isolations, String fixedIsolation,
                 Map<String, String> options) {
        /** Whether {@code isolation} can be asked of it. */
        boolean offers(String isolation) {
            return isolations.contains(isolation);
        }

        /** The isolation a run asked for {@code requested} really gets, as the LBV line prints it. */
        String isolationFor(String requested) {
            return isolations.isEmpty() ? fixedIsolation : requested;
        }

        /** The constructor options for a run at {@code requested}. */
        Map<String, String> optionsFor(String requested) {
            Map<String, String> all = new LinkedHashMap<>(options);
            if (!isolations.isEmpty()) {
                all.put("isolation", requested);
            }
            return all;
        }
    }

    private static final List<String> SR_SI = List.of("SR", "SI");

    /** The module of the TinkerPop 3.8.1 systems: gtran embedded and remote, TinkerTransactionGraph. */
    private static final String GTRAN = "benchmarks/lbv/gtran";
    /** gtran over in-JVM nodes; {@code --nodes}, {@code --link-latency-us} and {@code --execution} choose its shapes. */
    static final String JVM_CLUSTER = "gtran-jvm-cluster";
    /** gtran over server processes (deploy/gtran-cluster), and its No-Opt variant; {@code --nodes} chooses their shapes. */
    static final String CLUSTER = "gtran-cluster";
    static final String CLUSTER_NOOPT = "gtran-cluster-noopt";
    /** gtran over server processes, each logging its commits and votes in a data directory of its own. */
    static final String CLUSTER_SYNC = "gtran-cluster-sync";
    static final String CLUSTER_ASYNC = "gtran-cluster-async";
    /** The systems {@code --nodes} shapes. */
    static final List<String> CLUSTERS = List.of(JVM_CLUSTER, CLUSTER, CLUSTER_NOOPT, CLUSTER_SYNC, CLUSTER_ASYNC);

    /** The module of JanusGraph 1.1.0 on TinkerPop 3.7.3, embedded and behind Gremlin Server. */
    private static final String JANUSGRAPH = "benchmarks/lbv/janusgraph";
    /** The module of Neo4j 5.26, embedded and queried over Bolt. */
    private static final String NEO4J = "benchmarks/lbv/neo4j";

    /** In the order {@code --compare} runs them. */
    static final List<Entry> ALL = List.of(
            new Entry("gtran", GTRAN, "io.gtran.lbv.gtran.GtranLbvSystem", SR_SI, null, Map.of()),
            new Entry("gtran-noopt", GTRAN, "io.gtran.lbv.gtran.GtranLbvSystem", SR_SI, null, Map.of("opt", "off")),
            new Entry("gtran-sync", GTRAN, "io.gtran.lbv.gtran.GtranLbvSystem", SR_SI, null, Map.of("durability", "sync")),
            new Entry("gtran-async", GTRAN, "io.gtran.lbv.gtran.GtranLbvSystem", SR_SI, null, Map.of("durability", "async")),
            new Entry("gtran-remote", GTRAN, "io.gtran.lbv.gtran.GtranRemoteLbvSystem", SR_SI, null, Map.of()),
            new Entry(JVM_CLUSTER, GTRAN, "io.gtran.lbv.gtran.GtranClusterLbvSystem", SR_SI, null, Map.of()),
            new Entry(CLUSTER, GTRAN, "io.gtran.lbv.gtran.GtranProcessClusterLbvSystem", SR_SI, null, Map.of()),
            new Entry(CLUSTER_NOOPT, GTRAN, "io.gtran.lbv.gtran.GtranProcessClusterLbvSystem", SR_SI, null,
                    Map.of("opt", "off")),
            new Entry(CLUSTER_SYNC, GTRAN, "io.gtran.lbv.gtran.GtranProcessClusterLbvSystem", SR_SI, null,
                    Map.of("durability", "sync")),
            new Entry(CLUSTER_ASYNC, GTRAN, "io.gtran.lbv.gtran.GtranProcessClusterLbvSystem", SR_SI, null,
                    Map.of("durability", "async")),
            new Entry("tinkertx", GTRAN, "io.gtran.lbv.gtran.TinkerTxLbvSystem", List.of(), "RC", Map.of()),
            new Entry("janusgraph", "benchmarks/lbv/janusgraph", "io.gtran.lbv.janusgraph.JanusGraphLbvSystem",
                    List.of(), "none", Map.of()),
            new Entry("janusgraph-server", JANUSGRAPH, "io.gtran.lbv.janusgraph.JanusGraphServerLbvSystem",
                    List.of(), "none", Map.of()),
            new Entry("neo4j-bolt", NEO4J, "io.gtran.lbv.neo4j.Neo4jBoltLbvSystem", List.of(), "RC", Map.of()),
            new Entry("neo4j", "benchmarks/lbv/neo4j", "io.gtran.lbv.neo4j.Neo4jLbvSystem", List.of(), "RC", Map.of()),
            // its store and transaction log on disk (java.io.tmpdir), as gtran-sync's log, not on /dev/shm
            new Entry("neo4j-disk", "benchmarks/lbv/neo4j", "io.gtran.lbv.neo4j.Neo4jLbvSystem", List.of(), "RC",
                    Map.of("dir", System.getProperty("java.io.tmpdir"))));

    private SystemCatalog() {
    }

    /**
     * The entry named {@code name}.
     *
     * @throws IllegalArgumentException naming the unknown system and listing the known ones
     */
    static Entry named(String name) {
        for (Entry entry : ALL) {
            if (entry.name().equals(name)) {
                return entry;
            }
        }
        throw new IllegalArgumentException("unknown system: system=" + name + " (known: "
                + ALL.stream().map(Entry::name).toList() + ")");
    }
}
