package io.gtran.lbv;

import java.util.Map;

/**
 * Receives a dataset as its generator emits it: every vertex, then every edge, in a fixed order.
 * Vertex ids are {@code 0..vertices-1} and edge ids {@code 0..edges-1} (dataset ids; each system
 * maps them to its own ids). Property values are {@code String}, {@code Long}, {@code Integer} or
 * {@code Double}. The maps are not reused, so a sink may keep them.
 */
public interface GraphSink {
    /** One vertex. */
    void vertex(long id, String label, Map<String, Object> properties);

    /** One edge from {@code outId} to {@code inId}, both already emitted. */
    void edge(long id, long outId, long inId, String label, Map<String, Object> properties);
}
