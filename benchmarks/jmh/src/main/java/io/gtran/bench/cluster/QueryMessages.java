package io.gtran.bench.cluster;

import io.gtran.bench.BenchArgs;
import io.gtran.bench.PowerLawGraph;
import io.gtran.core.GtranGraph;
import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.GtranNode;
import io.gtran.txn.QueryTraffic;
import io.gtran.txn.membership.Membership;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.Scope;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;

/**
 * Messages per query on a graph over an in-JVM cluster, in each execution mode: {@code bin/gtran
 * bench messages [--nodes 3] [--vertices 2000] [--edges 20000] [--starts 20] [--seed 1]}. Loads the
 * same power-law graph (vertices spread over the members, each with a user-supplied id) into one
 * cluster per mode, then runs each query (k-hop 1-3, {@code both().values('age').count()}, and
 * {@code both().bothE()} grouped by label with weights summed) from {@code --starts} start
 * vertices, each in a transaction of its own, coordinated by node 0, and counts the messages every
 * node sent to another for it ({@link QueryTraffic}: operation requests and replies and commit
 * messages, with their bytes; heartbeats, clock samples and the GC watermark's reads are left
 * out). The LBV queries' messages come from {@code bin/gtran bench lbv-messages} (lbv-gtran's
 * {@code LbvMessages}), on the LBV dataset. Prints one line per query and mode:
 * {@code MESSAGES mode=M query=Q per_query=X bytes_per_query=Y results=R}.
 */
public final class QueryMessages {
    private QueryMessages() {
    }

    public static void main(String[] args) throws Exception {
        BenchArgs cli = new BenchArgs("bench messages");
        int nodes = 3;
        int vertices = 2000;
        int edges = 20_000;
        int starts = 20;
        long seed = 1;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--nodes" -> nodes = cli.parseInt(option, cli.value(args, ++i, option));
                case "--vertices" -> vertices = cli.parseInt(option, cli.value(args, ++i, option));
                case "--edges" -> edges = cli.parseInt(option, cli.value(args, ++i, option));
                case "--starts" -> starts = cli.parseInt(option, cli.value(args, ++i, option));
                case "--seed" -> seed = cli.parseLong(option, cli.value(args, ++i, option));
                default -> cli.fail("unknown option: " + option);
            }
        }
        PowerLawGraph data = PowerLawGraph.generate(vertices, edges, seed);
        System.out.println("# nodes=" + nodes + " vertices=" + vertices + " edges=" + edges + " starts=" + starts + " seed=" + seed);
        for (String mode : new String[] {"element", "batched", "pushed"}) {
            try (Run run = new Run(nodes, mode, data)) {
                for (int hops = 1; hops <= 3; hops++) {
                    run.measure("khop" + hops, hops, starts);
                }
                run.measureCount("count", starts);
                run.measureGroup("group", starts);
            }
        }
    }

    /** One cluster, loaded, with a counting fabric per node. */
    private static final class Run implements AutoCloseable {
        private final String mode;
        private final PowerLawGraph data;
        private final InJvmCluster cluster = new InJvmCluster();
        private final List<GtranNode> nodes = new ArrayList<>();
        private final List<QueryTraffic> fabrics = new ArrayList<>();
        private final GtranGraph graph;

        Run(int n, String mode, PowerLawGraph data) {
            this.mode = mode;
            this.data = data;
            StringBuilder members = new StringBuilder();
            for (int i = 0; i < n; i++) {
                members.append(i == 0 ? "" : ",").append(i);
            }
            for (int i = 0; i < n; i++) {
                QueryTraffic fabric = new QueryTraffic(cluster.join(i));
                fabrics.add(fabric);
                Map<String, Object> settings = new HashMap<>();
                settings.put(StoreConfig.NODE_ID, i);
                settings.put(Membership.NODES, members.toString());
                nodes.add(GtranNode.open(fabric, settings));
            }
            BaseConfiguration c = new BaseConfiguration();
            c.setProperty(GtranGraph.PLACEMENT, "spread");
            c.setProperty(GtranGraph.EXECUTION, mode);
            graph = GtranGraph.open(nodes.get(0), c);
            load();
        }

        private void load() {
            GraphTraversalSource g = graph.traversal();
            Vertex[] v = new Vertex[data.vertices];
            for (int i = 0; i < data.vertices; i++) {
                v[i] = graph.addVertex(T.label, PowerLawGraph.VERTEX_LABELS[data.vertexLabel[i]], "age", data.age[i]);
                if (i % 500 == 499) {
                    graph.tx().commit();
                }
            }
            for (int e = 0; e < data.edges; e++) {
                v[data.edgeOut[e]].addEdge(PowerLawGraph.EDGE_LABELS[data.edgeLabel[e]], v[data.edgeIn[e]], "weight", data.weight[e]);
                if (e % 500 == 499) {
                    graph.tx().commit();
                }
            }
            graph.tx().commit();
            starts = g.V().limit(data.vertices).id().toList();
            graph.tx().commit();
        }

        private List<Object> starts;

        void measure(String name, int hops, int count) {
            run(name, count, (g, start) -> {
                GraphTraversal<?, ?> t = g.V(start);
                for (int h = 0; h < hops; h++) {
                    t = t.out();
                }
                return t.count().next();
            });
        }

        void measureCount(String name, int count) {
            run(name, count, (g, start) -> g.V(start).both().values("age").count().next());
        }

        /** The edges around a vertex's neighbours grouped by label, weights summed: labels and a property of each edge. */
        void measureGroup(String name, int count) {
            run(name, count, (g, start) -> g.V(start).both().bothE().group().by(T.label).by(__.values("weight").sum())
                    .count(Scope.local).next());
        }

        private void run(String name, int count, java.util.function.BiFunction<GraphTraversalSource, Object, Object> query) {
            GraphTraversalSource g = graph.traversal();
            long before = total(true);
            long bytesBefore = total(false);
            long results = 0;
            for (int i = 0; i < count; i++) {
                Object start = starts.get((int) ((i * 7919L) % starts.size()));
                results += ((Number) query.apply(g, start)).longValue();
                graph.tx().commit();
            }
            long messages = total(true) - before;
            long bytes = total(false) - bytesBefore;
            System.out.printf("MESSAGES mode=%s query=%s per_query=%.1f bytes_per_query=%.0f results=%d%n", mode, name,
                    messages / (double) count, bytes / (double) count, results);
        }

        private long total(boolean messages) {
            long sum = 0;
            for (QueryTraffic f : fabrics) {
                sum += messages ? f.messages() : f.bytes();
            }
            return sum;
        }

        @Override
        public void close() {
            graph.close();
            for (GtranNode node : nodes) {
                node.close();
            }
            cluster.close();
        }
    }
}
