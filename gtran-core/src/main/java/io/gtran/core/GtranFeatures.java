package io.gtran.core;

import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

/**
 * What a {@link GtranGraph} supports, stated truthfully: transactions (thread-bound, no threaded
 * transactions), user-supplied ids (numeric, string, UUID) for vertices, edges and vertex
 * properties, multi- and meta-properties, every value type that is serializable; no null property
 * values, graph variables or graph computer; persistence where the graph's node logs its commits
 * to a data directory (docs/durability.md).
 */
public final class GtranFeatures implements Graph.Features {
    private final GraphFeatures graphFeatures;
    private final VertexFeatures vertexFeatures;
    private final EdgeFeatures edgeFeatures;

    GtranFeatures(GtranGraph graph) {
        this.graphFeatures = new GtranGraphFeatures(graph.node().durability().logs());
        this.vertexFeatures = new GtranVertexFeatures(graph.defaultCardinality, graph.allowNullPropertyValues);
        this.edgeFeatures = new GtranEdgeFeatures(graph.allowNullPropertyValues);
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

    public static final class GtranGraphFeatures implements GraphFeatures {
        private final VariableFeatures variables = new NoVariables();
        private final boolean persistence;

        GtranGraphFeatures(boolean persistence) {
            this.persistence = persistence;
        }

        @Override
        public boolean supportsComputer() {
            return false;
        }

        @Override
        public boolean supportsPersistence() {
            return persistence;
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

    /** The id types gtran accepts from users: integral numbers up to Long, String, UUID. */
    static boolean allowsIdType(Object id) {
        return id instanceof Long || id instanceof Integer || id instanceof Short || id instanceof Byte
                || id instanceof String || id instanceof java.util.UUID;
    }

    /** Graph variables are not supported, so neither is any type of variable value. */
    public static final class NoVariables implements VariableFeatures {
        @Override
        public boolean supportsVariables() {
            return false;
        }

        @Override
        public boolean supportsBooleanValues() {
            return false;
        }

        @Override
        public boolean supportsByteValues() {
            return false;
        }

        @Override
        public boolean supportsDoubleValues() {
            return false;
        }

        @Override
        public boolean supportsFloatValues() {
            return false;
        }

        @Override
        public boolean supportsIntegerValues() {
            return false;
        }

        @Override
        public boolean supportsLongValues() {
            return false;
        }

        @Override
        public boolean supportsMapValues() {
            return false;
        }

        @Override
        public boolean supportsMixedListValues() {
            return false;
        }

        @Override
        public boolean supportsBooleanArrayValues() {
            return false;
        }

        @Override
        public boolean supportsByteArrayValues() {
            return false;
        }

        @Override
        public boolean supportsDoubleArrayValues() {
            return false;
        }

        @Override
        public boolean supportsFloatArrayValues() {
            return false;
        }

        @Override
        public boolean supportsIntegerArrayValues() {
            return false;
        }

        @Override
        public boolean supportsStringArrayValues() {
            return false;
        }

        @Override
        public boolean supportsLongArrayValues() {
            return false;
        }

        @Override
        public boolean supportsSerializableValues() {
            return false;
        }

        @Override
        public boolean supportsStringValues() {
            return false;
        }

        @Override
        public boolean supportsUniformListValues() {
            return false;
        }
    }

    /** User-supplied ids: Long (any integral number), String, UUID. */
    interface GtranIdFeatures extends ElementFeatures {
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
            return allowsIdType(id);
        }
    }

    public static final class GtranVertexFeatures implements VertexFeatures, GtranIdFeatures {
        private final VertexProperty.Cardinality cardinality;
        private final boolean nulls;
        private final VertexPropertyFeatures properties;

        GtranVertexFeatures(VertexProperty.Cardinality cardinality, boolean nulls) {
            this.cardinality = cardinality;
            this.nulls = nulls;
            this.properties = new GtranVertexPropertyFeatures(nulls);
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
            return nulls;
        }
    }

    public static final class GtranEdgeFeatures implements EdgeFeatures, GtranIdFeatures {
        private final EdgePropertyFeatures properties = new EdgePropertyFeatures() {
        };
        private final boolean nulls;

        GtranEdgeFeatures(boolean nulls) {
            this.nulls = nulls;
        }

        @Override
        public EdgePropertyFeatures properties() {
            return properties;
        }

        @Override
        public boolean supportsNullPropertyValues() {
            return nulls;
        }
    }

    public static final class GtranVertexPropertyFeatures implements VertexPropertyFeatures {
        private final boolean nulls;

        GtranVertexPropertyFeatures(boolean nulls) {
            this.nulls = nulls;
        }

        @Override
        public boolean supportsNullPropertyValues() {
            return nulls;
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
            return allowsIdType(id);
        }
    }
}
