package io.gtran.core.suites;

import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Property;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.service.Service;
import org.apache.tinkerpop.gremlin.structure.util.CloseableIterator;
import org.apache.tinkerpop.gremlin.util.iterator.IteratorUtils;

/**
 * The two services the Gherkin {@code @TinkerServiceRegistry} scenarios call, written against
 * the plain Graph API and registered in a gtran graph's service registry: they exercise gtran's
 * {@code call()} support with the names and behaviour the scenarios expect.
 */
final class TestServices {
    private TestServices() {
    }

    static void register(Graph graph) {
        graph.getServiceRegistry().registerService(new TextSearch(graph));
        graph.getServiceRegistry().registerService(new DegreeCentrality());
    }

    /** {@code tinker.search}: properties whose value's string form matches a regex (or contains a term). */
    static final class TextSearch implements Service.ServiceFactory<Object, Object>, Service<Object, Object> {
        private final Graph graph;

        TextSearch(Graph graph) {
            this.graph = graph;
        }

        @Override
        public String getName() {
            return "tinker.search";
        }

        @Override
        public Set<Type> getSupportedTypes() {
            return Collections.singleton(Type.Start);
        }

        @Override
        public Type getType() {
            return Type.Start;
        }

        @Override
        public Map describeParams() {
            return Map.of("search", "Specify a search term - will be converted to regex via .*(search).*",
                    "regex", "Directly specify the regex",
                    "type", "Specify the type of Element to search for, one of Vertex/Edge/VertexProperty (optional)");
        }

        @Override
        public Service<Object, Object> createService(boolean isStart, Map params) {
            if (!isStart) {
                throw new UnsupportedOperationException(Service.Exceptions.cannotUseMidTraversal);
            }
            return this;
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public CloseableIterator<Object> execute(ServiceCallContext ctx, Map params) {
            String regex;
            if (params.containsKey("regex")) {
                regex = (String) params.get("regex");
            } else if (params.containsKey("search")) {
                regex = ".*(" + params.get("search") + ").*";
            } else {
                throw new IllegalStateException("Missing search/regex parameter");
            }
            String type = (String) params.get("type");
            Iterator<Element> elements;
            if ("Vertex".equals(type)) {
                elements = IteratorUtils.cast(graph.vertices());
            } else if ("Edge".equals(type)) {
                elements = IteratorUtils.cast(graph.edges());
            } else if ("VertexProperty".equals(type)) {
                elements = IteratorUtils.flatMap(graph.vertices(), v -> IteratorUtils.cast(v.properties()));
            } else if (type == null) {
                elements = IteratorUtils.concat(IteratorUtils.cast(graph.vertices()), IteratorUtils.cast(graph.edges()),
                        IteratorUtils.flatMap(graph.vertices(), v -> IteratorUtils.cast(v.properties())));
            } else {
                throw new IllegalArgumentException("Type must be one of Vertex/Edge/VertexProperty: " + type);
            }
            Pattern pattern = Pattern.compile(regex);
            Iterator<Property> properties = IteratorUtils.flatMap(elements, e -> IteratorUtils.cast(e.properties()));
            return CloseableIterator.of((Iterator) IteratorUtils.filter(properties, p -> pattern.matcher(String.valueOf(p.value())).matches()));
        }

        @Override
        public void close() {
        }
    }

    /** {@code tinker.degree.centrality}: the number of edges of each incoming vertex (IN by default). */
    static final class DegreeCentrality implements Service.ServiceFactory<Vertex, Long>, Service<Vertex, Long> {
        @Override
        public String getName() {
            return "tinker.degree.centrality";
        }

        @Override
        public Set<Type> getSupportedTypes() {
            return Collections.singleton(Type.Streaming);
        }

        @Override
        public Type getType() {
            return Type.Streaming;
        }

        @Override
        public Map describeParams() {
            return Map.of("direction", "Specify the edge direction (optional), default is Direction.IN");
        }

        @Override
        public Service<Vertex, Long> createService(boolean isStart, Map params) {
            if (isStart) {
                throw new UnsupportedOperationException(Service.Exceptions.cannotStartTraversal);
            }
            return this;
        }

        @Override
        public CloseableIterator<Long> execute(ServiceCallContext ctx, Traverser.Admin<Vertex> in, Map params) {
            Direction direction = (Direction) params.getOrDefault("direction", Direction.IN);
            Iterator<Edge> edges = in.get().edges(direction);
            long count = IteratorUtils.count(edges);
            return CloseableIterator.of(LongStream.range(0, in.bulk()).map(i -> count).iterator());
        }

        @Override
        public void close() {
        }
    }
}
