package io.gtran.lbv;

/** Told how far loading has come; see {@link LbvSystem#load}. */
@FunctionalInterface
public interface LoadProgress {
    /** {@code vertices} of the dataset's vertices and {@code edges} of its edges are loaded. */
    void loaded(long vertices, long edges);
}
