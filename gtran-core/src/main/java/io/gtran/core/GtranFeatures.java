package io.gtran.core;

import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

/**
 * What a {@link GtranGraph} supports, stated truthfully: transactions (thread-bound, no threaded
 * transactions), user-supplied ids (numeric, string, UUID) for vertices, edges and vertex
 * properties, multi- and meta-properties, every value type that is serializable; no null property
 * values, graph variables, persistence or graph computer.
 */
final class GtranFeatures implements Graph.Features {
    private final GraphFeatures graphFeatures;
    private final VertexFeatures vertexFeatures;
    private final EdgeFeatures edgeFeatures;

    GtranFeatures(GtranGraph graph) {
        this.graphFeatures = new GtranGraphFeatures();
        this.vertexFeatures = new GtranVertexFeatures(graph.defaultCardinality);
        this.edgeFeatures = new GtranEdgeFeatures();
    }

    @Override
    public GraphFeatures graph() {
        return graphFeatures;
    }

    @Override
    public VertexFeatures vertex() {
        return vertexFeatures;
    }

    @Override
    public EdgeFeatures edge() {
        return edgeFeatures;
    }

    @Override
    public String toString() {
        return StringFactory.featureString(this);
    }

    private static final class GtranGraphFeatures implements GraphFeatures {
        private final VariableFeatures variables = new VariableFeatures() {
            @Override
            public boolean supportsVariables() {
                return false;
            }
        };

        @Override
        public boolean supportsComputer() {
            return false;
        }

        @Override
        public boolean supportsPersistence() {
            return false;
        }

        @Override
        public boolean supportsThreadedTransactions() {
            return false;
        }

        @Override
        public boolean supportsTransactions() {
            return true;
        }

        @Override
        public boolean supportsConcurrentAccess() {
            return true;
        }

        @Override
        public VariableFeatures variables() {
            return variables;
        }
    }

    /** User-supplied ids: Long (any integral number), String, UUID. */
    private interface GtranIdFeatures extends ElementFeatures {
        @Override
        default boolean supportsNullPropertyValues() {
            return false;
        }

        @Override
        default boolean supportsAnyIds() {
            return false;
        }

        @Override
        default boolean supportsCustomIds() {
            return false;
        }

        @Override
        default boolean willAllowId(Object id) {
            return id instanceof Number && !(id instanceof Double || id instanceof Float
                    || id instanceof java.math.BigDecimal || id instanceof java.math.BigInteger)
                    || id instanceof String || id instanceof java.util.UUID;
        }
    }

    private static final class GtranVertexFeatures implements VertexFeatures, GtranIdFeatures {
        private final VertexProperty.Cardinality cardinality;
        private final VertexPropertyFeatures properties = new GtranVertexPropertyFeatures();

        GtranVertexFeatures(VertexProperty.Cardinality cardinality) {
            this.cardinality = cardinality;
        }

        @Override
        public VertexProperty.Cardinality getCardinality(String key) {
            return cardinality;
        }

        @Override
        public VertexPropertyFeatures properties() {
            return properties;
        }

        @Override
        public boolean supportsNullPropertyValues() {
            return false;
        }

        @Override
        public boolean supportsAnyIds() {
            return false;
        }

        @Override
        public boolean supportsCustomIds() {
            return false;
        }

        @Override
        public boolean willAllowId(Object id) {
            return GtranIdFeatures.super.willAllowId(id);
        }
    }

    private static final class GtranEdgeFeatures implements EdgeFeatures, GtranIdFeatures {
        private final EdgePropertyFeatures properties = new EdgePropertyFeatures() {
        };

        @Override
        public EdgePropertyFeatures properties() {
            return properties;
        }

        @Override
        public boolean supportsNullPropertyValues() {
            return false;
        }

        @Override
        public boolean supportsAnyIds() {
            return false;
        }

        @Override
        public boolean supportsCustomIds() {
            return false;
        }

        @Override
        public boolean willAllowId(Object id) {
            return GtranIdFeatures.super.willAllowId(id);
        }
    }

    private static final class GtranVertexPropertyFeatures implements VertexPropertyFeatures {
        @Override
        public boolean supportsNullPropertyValues() {
            return false;
        }

        @Override
        public boolean supportsAnyIds() {
            return false;
        }

        @Override
        public boolean supportsCustomIds() {
            return false;
        }

        @Override
        public boolean willAllowId(Object id) {
            return id instanceof Number && !(id instanceof Double || id instanceof Float
                    || id instanceof java.math.BigDecimal || id instanceof java.math.BigInteger)
                    || id instanceof String || id instanceof java.util.UUID;
        }
    }
}
