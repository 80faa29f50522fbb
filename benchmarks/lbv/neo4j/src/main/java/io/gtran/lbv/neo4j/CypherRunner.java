package io.gtran.lbv.neo4j;

import java.util.Map;

/**
 * How a Neo4j system runs one query: {@code text} with {@code params} as one transaction,
 * committed, returning the number of rows, or the count a text ending in {@code AS n} returns (see
 * {@link #returnsCount}). The embedded API ({@link Neo4jLbvSystem}) and the Java driver over Bolt
 * ({@link Neo4jBoltLbvSystem}) implement it, so both run the same texts with the same parameters.
 */
@FunctionalInterface
interface CypherRunner {
    long run(String text, Map<String, Object> params);

    /** Whether {@code text} returns one row with its count in column {@code n} (rather than rows to count). */
    static boolean returnsCount(String text) {
        return text.endsWith(" AS n");
    }
}
