package io.gtran.lbv;

/**
 * The single-query latency set of G-Tran's evaluation on the LDBC-like dataset (paper §6.3,
 * Appendix Table 5): LDBC interactive short reads IS1–IS4 and the k-hop
 * {@code g.V().has(lookupKey, value).both()^k}, k = 1..4 (counted, not deduplicated).
 */
public enum LatencyQuery {
    /** A person's profile: names, birthday, IP, browser, and the name of the city it is located in. */
    IS1,
    /** A person's 10 latest messages (by creationDate), each with its original post's author's first name. */
    IS2,
    /** A person's friends (knows, both directions) with the creationDate of each knows edge. */
    IS3,
    /** A message's content (or imageFile) and creationDate. */
    IS4,
    KHOP1, KHOP2, KHOP3, KHOP4
}
