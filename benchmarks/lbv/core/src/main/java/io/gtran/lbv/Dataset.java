package io.gtran.lbv;

/**
 * A graph generated deterministically from its name, scale and seed, the same in every system and
 * every JVM: {@link #generate} emits exactly the same elements each time. {@link #info} describes
 * it for the parameter sampler (counts, labels, which properties exist with which values) and for
 * the systems (which keys to index).
 */
public interface Dataset {
    /** The name given on the command line, e.g. {@code social}, {@code kronecker}, {@code grateful-dead}. */
    String name();

    /** What {@link #generate} will emit. */
    DatasetInfo info();

    /** Emits every vertex, then every edge, into {@code sink}. */
    void generate(GraphSink sink);
}
