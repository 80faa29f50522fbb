package io.gtran.lbv;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The parameters of one query, drawn by {@link ParamSampler}; each query reads the fields its
 * template needs (see {@link LbvQuery}) and ignores the others.
 *
 * @param vertex a dataset vertex id (may have been deleted by an earlier query: then the query finds nothing)
 * @param otherVertex a second dataset vertex id (the in-vertex of a new edge)
 * @param edge a dataset edge id
 * @param label an edge label (Q3, Q4, Q13, Q24) or a vertex label (Q2, Q7)
 * @param key a property key
 * @param value a property value (for has(), or the value to set)
 * @param properties the properties of a new element (Q2, Q4, Q7)
 * @param fanout how many edges Q7 adds from its new vertex
 * @param lookupValue a value of the dataset's lookup key (latency queries)
 * @param targets Q7's existing in-vertices (dataset ids), {@code fanout} of them: edge {@code i}
 *     goes from the new vertex to {@code targets.get(i)}
 * @param edgeLabel the label of Q7's edges
 */
public record QueryParams(long vertex, long otherVertex, long edge, String label, String key, Object value,
                          Map<String, Object> properties, int fanout, Object lookupValue, List<Long> targets,
                          String edgeLabel) {
    public QueryParams {
        properties = properties == null ? Map.of() : Collections.unmodifiableMap(properties);
        targets = targets == null ? List.of() : List.copyOf(targets);
    }

    /**
     * The original nine-field form: Q7's edges all go to {@code otherVertex} and take {@code label}
     * as their label too.
     */
    public QueryParams(long vertex, long otherVertex, long edge, String label, String key, Object value,
                       Map<String, Object> properties, int fanout, Object lookupValue) {
        this(vertex, otherVertex, edge, label, key, value, properties, fanout, lookupValue,
                Collections.nCopies(Math.max(0, fanout), otherVertex), label);
    }
}
