/**
 * LBV systems that speak Gremlin: {@link io.gtran.lbv.gremlin.GremlinQueries} (the LBV and latency
 * query templates as traversals) and {@link io.gtran.lbv.gremlin.GremlinSystem} (loading, id
 * mapping, one transaction per query). Compiled against TinkerPop 3.8.1 here and 3.7.3 by
 * lbv-janusgraph, so only API common to both is used. No gtran classes.
 */
package io.gtran.lbv.gremlin;
