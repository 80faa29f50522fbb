package io.gtran.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.structure.Graph;

/**
 * The graphs and threads one test opens, closed after it ({@link #close} from an {@code
 * @AfterEach}): threads first, so none is left holding a transaction on a closed graph.
 */
public final class TestGraphs implements AutoCloseable {
    private final List<GtranGraph> graphs = new ArrayList<>();
    private final List<ExecutorService> executors = new ArrayList<>();

    /** A GtranGraph configuration with {@code settings} given as key, value, key, value... */
    public static BaseConfiguration config(String... settings) {
        BaseConfiguration c = new BaseConfiguration();
        c.setProperty(Graph.GRAPH, GtranGraph.class.getName());
        for (int i = 0; i < settings.length; i += 2) {
            c.setProperty(settings[i], settings[i + 1]);
        }
        return c;
    }

    /** Opens a graph at {@code isolation} (SR, SI, or their long names) with further settings. */
    GtranGraph open(String isolation, String... settings) {
        BaseConfiguration c = config(settings);
        c.setProperty(GtranGraph.ISOLATION, isolation);
        return track(GtranGraph.open(c));
    }

    /** Opens a graph from {@code settings} alone. */
    GtranGraph openWith(String... settings) {
        return track(GtranGraph.open(config(settings)));
    }

    private GtranGraph track(GtranGraph graph) {
        graphs.add(graph);
        return graph;
    }

    /** A thread of the test's own, shut down after it. */
    ExecutorService thread() {
        return executor(Executors.newSingleThreadExecutor());
    }

    /** A {@link Worker} on a thread of the test's own. */
    Worker worker() {
        return new Worker(thread());
    }

    /** Shuts {@code executor} down after the test. */
    ExecutorService executor(ExecutorService executor) {
        executors.add(executor);
        return executor;
    }

    /** Runs {@code task} in a new thread of its own and waits (30 s at most) for its result. */
    <V> V inThread(Callable<V> task) throws Exception {
        return thread().submit(task).get(30, TimeUnit.SECONDS);
    }

    /** The thread the last {@link #inThread} ran in. */
    ExecutorService lastThread() {
        return executors.get(executors.size() - 1);
    }

    @Override
    public void close() {
        executors.forEach(ExecutorService::shutdownNow);
        graphs.forEach(GtranGraph::close);
    }
}
