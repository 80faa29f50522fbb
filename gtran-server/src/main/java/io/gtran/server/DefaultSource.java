package io.gtran.server;

import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.server.GraphManager;
import org.apache.tinkerpop.gremlin.server.util.ServerGremlinExecutor;
import org.apache.tinkerpop.gremlin.structure.Graph;

/**
 * Binds traversal source {@value #SOURCE} to the graph named {@value #GRAPH}, from Java, where
 * Gremlin Server's configurations usually bind it with an init script. Gremlin Server 3.8 builds a
 * script engine for every session ({@code g.tx()} from a driver opens one per transaction) and
 * evaluates the init scripts in it, compiling them each time: with gtran's init script that was
 * most of the server's CPU for short remote transactions (docs/benchmarks.md, "Short remote
 * transactions"). A source bound here is in the graph manager, which sessions and bytecode requests
 * read, and in the global bindings of the server's script engine, which sessionless scripts see;
 * a session needs no script. A source a configuration's own init script bound is left as it is.
 */
final class DefaultSource {
    static final String GRAPH = "graph";
    static final String SOURCE = "g";

    private DefaultSource() {
    }

    /** Binds {@value #SOURCE} if the server has graph {@value #GRAPH} and nothing bound it; returns whether it did. */
    static boolean bind(ServerGremlinExecutor executor) {
        GraphManager graphs = executor.getGraphManager();
        Graph graph = graphs.getGraphNames().contains(GRAPH) ? graphs.getGraph(GRAPH) : null;
        if (graph == null || graphs.getTraversalSourceNames().contains(SOURCE)) {
            return false;
        }
        GraphTraversalSource g = graph.traversal();
        graphs.putTraversalSource(SOURCE, g);
        executor.getGremlinExecutor().getScriptEngineManager().put(SOURCE, g);
        return true;
    }
}
