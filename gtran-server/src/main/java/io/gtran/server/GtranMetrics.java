package io.gtran.server;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.gtran.core.GtranGraph;
import java.util.ArrayList;
import java.util.List;
import org.apache.tinkerpop.gremlin.server.GraphManager;
import org.apache.tinkerpop.gremlin.server.util.MetricManager;
import org.apache.tinkerpop.gremlin.structure.Graph;

/**
 * gtran's gauges in Gremlin Server's metric registry ({@link MetricManager}), which the
 * {@code metrics:} section of the YAML reports (JMX, SLF4J, CSV, console, Graphite). Each key of
 * {@link GtranGraph#stats()} of a graph the server serves becomes a gauge {@code
 * gtran.<graph>.<key>}, e.g. {@code gtran.graph.commits}, {@code gtran.graph.aborts.WRITE_WRITE},
 * {@code gtran.graph.gc.backlog}; docs/server.md lists them. A gauge reads the graph when it is
 * reported, and reports nothing (null) once the graph is closed.
 */
public final class GtranMetrics {
    /** The first part of every gtran metric name. */
    public static final String PREFIX = "gtran";

    private GtranMetrics() {
    }

    /**
     * Registers the gauges of every {@link GtranGraph} that {@code graphs} holds in Gremlin
     * Server's registry; what {@link GtranServer} does once the server has started. A gauge of the
     * same name already there (a graph of the same name served before in this JVM) is replaced.
     *
     * @return the names registered
     */
    public static List<String> register(GraphManager graphs) {
        List<String> names = new ArrayList<>();
        for (String name : graphs.getGraphNames()) {
            Graph graph = graphs.getGraph(name);
            if (graph instanceof GtranGraph gtran) {
                names.addAll(register(MetricManager.INSTANCE.getRegistry(), name, gtran));
            }
        }
        return names;
    }

    /** Registers the gauges of {@code graph}, served as {@code graphName}, in {@code registry}. */
    public static List<String> register(MetricRegistry registry, String graphName, GtranGraph graph) {
        List<String> names = new ArrayList<>();
        for (String key : graph.stats().keySet()) {
            String name = MetricRegistry.name(PREFIX, graphName, key);
            registry.remove(name);
            registry.register(name, (Gauge<Long>) () -> read(graph, key));
            names.add(name);
        }
        return names;
    }

    private static Long read(GtranGraph graph, String key) {
        if (graph.isClosed()) {
            return null; // the server is stopping: its store is gone
        }
        try {
            return graph.stats().get(key);
        } catch (RuntimeException closedMeanwhile) {
            return null; // closed between the check and the read; the reporter must not fail for it
        }
    }
}
