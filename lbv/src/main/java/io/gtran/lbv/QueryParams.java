package io.gtran.lbv;

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
 */
public record QueryParams(long vertex, long otherVertex, long edge, String label, String key, Object value,
                          Map<String, Object> properties, int fanout, Object lookupValue) {
}
