/**
 * LBV systems that speak Gremlin: {@link io.gtran.lbv.gremlin.GremlinQueries} (the LBV and latency
 * query templates as traversals) and {@link io.gtran.lbv.gremlin.GremlinSystem} (loading, id
 * mapping, one transaction per query). Compiled against TinkerPop 3.7.3 (lbv-janusgraph runs them
 * there) and run on 3.8.1 too (lbv-gtran), so only API present in both with the same signatures is
 * used. No gtran classes.
 */
package io.gtran.lbv.gremlin;
