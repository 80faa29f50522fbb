package io.gtran.lbv;

/**
 * One system under test, as the LBV runner drives it: an adapter in the system's own module and
 * JVM (gtran, TinkerTransactionGraph, JanusGraph, Neo4j, gtran through Gremlin Server).
 *
 * <p>Every {@link #execute} is one transaction, committed before it returns. Thread-safe: the
 * runner calls it from several threads at once.
 */
public interface LbvSystem extends AutoCloseable {
    /** The system's name in result lines, e.g. {@code gtran}, {@code tinkertx}, {@code janusgraph}, {@code neo4j}. */
    String name();

    /**
     * The isolation its transactions actually get, in words for the output, e.g.
     * {@code "serializable"}, {@code "snapshot"}, {@code "read committed (all TinkerTransactionGraph offers)"}.
     */
    String isolation();

    /**
     * Creates the indexes {@code info} asks for (every indexed key, the lookup key) and loads the
     * dataset, calling {@code progress} now and then.
     */
    void load(Dataset dataset, LoadProgress progress);

    /**
     * Runs {@code query} as one committed transaction.
     *
     * @return the number of results (elements read, written or removed), for the output's sanity check
     * @throws RuntimeException if it failed; {@link #isRetryable} says whether a client would retry it
     */
    long execute(LbvQuery query, QueryParams params);

    /** Runs one latency query (one read-only transaction); returns the number of results. */
    long latency(LatencyQuery query, QueryParams params);

    /**
     * The messages the system's nodes sent each other so far, cumulative ({@link Traffic}); the
     * runner takes the difference over the measured run and around each latency query. {@link
     * Traffic#NONE}, the default, for a system that does not count them. May cost a round trip to
     * every node: the runner calls it outside the timed queries.
     */
    default Traffic traffic() {
        return Traffic.NONE;
    }

    /** Whether {@code failure} from {@link #execute} is a transaction conflict a client retries. */
    boolean isRetryable(Throwable failure);

    @Override
    void close();
}
