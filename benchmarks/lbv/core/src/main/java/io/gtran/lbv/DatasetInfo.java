package io.gtran.lbv;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link Dataset} holds, as the parameter sampler and the systems need it.
 *
 * @param name the dataset's name and scale, e.g. {@code social-scale10}
 * @param vertices vertex count; dataset vertex ids are {@code 0..vertices-1}
 * @param edges edge count; dataset edge ids are {@code 0..edges-1}
 * @param vertexLabels the vertex labels that occur
 * @param edgeLabels the edge labels that occur
 * @param indexedVertexKeys vertex property keys every system indexes (exact match); the read
 *     queries on vertex properties ({@code g.V().has(key, value)}) draw their key from these
 * @param indexedEdgeKeys edge property keys every system indexes where it can; the read queries
 *     on edge properties draw their key from these
 * @param vertexKeys every vertex property key that occurs (updates and removals draw from these)
 * @param edgeKeys every edge property key that occurs
 * @param lookupKey the vertex key whose value names one vertex (the LDBC {@code ori_id}), used by
 *     the latency queries ({@code g.V().has(lookupKey, value)}); indexed everywhere
 */
public record DatasetInfo(String name, long vertices, long edges, List<String> vertexLabels, List<String> edgeLabels,
                          List<String> indexedVertexKeys, List<String> indexedEdgeKeys, List<String> vertexKeys,
                          List<String> edgeKeys, String lookupKey) {
    public DatasetInfo {
        Objects.requireNonNull(name, "name");
        vertexLabels = List.copyOf(vertexLabels);
        edgeLabels = List.copyOf(edgeLabels);
        indexedVertexKeys = List.copyOf(indexedVertexKeys);
        indexedEdgeKeys = List.copyOf(indexedEdgeKeys);
        vertexKeys = List.copyOf(vertexKeys);
        edgeKeys = List.copyOf(edgeKeys);
        Objects.requireNonNull(lookupKey, "lookupKey");
    }
}
