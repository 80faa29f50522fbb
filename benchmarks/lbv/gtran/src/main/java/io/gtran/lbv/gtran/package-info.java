/**
 * LBV systems on TinkerPop 3.8.1, each run by {@code io.gtran.lbv.LbvChildMain --system <class>}
 * in a child JVM whose class path is {@code benchmarks/lbv/gtran/target/classes} followed by
 * {@code benchmarks/lbv/gtran/target/lbv-classpath.txt} (written at {@code package}; it lists the
 * dependencies only) and gtran's JDK 17 flags ({@code gtran.jdk17.args} of the root pom, for
 * Chronicle Map):
 *
 * <table>
 * <caption>Systems</caption>
 * <tr><th>class</th><th>name</th><th>options</th><th>ids</th><th>indexes</th><th>retryable</th></tr>
 * <tr><td>{@link io.gtran.lbv.gtran.GtranLbvSystem}</td><td>gtran, gtran-noopt</td>
 *     <td>isolation=SR|SI, opt=on|off, gtran.*=...</td><td>user-supplied Long = dataset id</td>
 *     <td>gtran hash indexes, {@code graph.indexes().create}</td><td>TransactionAbortedException</td></tr>
 * <tr><td>{@link io.gtran.lbv.gtran.GtranRemoteLbvSystem}</td><td>gtran-remote(-noopt)</td>
 *     <td>as above, gremlinPool=N</td><td>as above</td><td>as above, on the node's graph</td>
 *     <td>ResponseException 596 naming a conflict</td></tr>
 * <tr><td>{@link io.gtran.lbv.gtran.GtranClusterLbvSystem}</td><td>gtran-jvm-cluster(-noopt)</td>
 *     <td>as gtran, nodes=N, link-latency-us=L</td><td>as gtran, placed on the members by id</td>
 *     <td>as gtran, each member indexing its own elements</td><td>TransactionAbortedException</td></tr>
 * <tr><td>{@link io.gtran.lbv.gtran.GtranProcessClusterLbvSystem}</td><td>gtran-cluster(-noopt)</td>
 *     <td>as gtran-remote, nodes=N, node-heap=SIZE</td><td>as gtran, placed on the members by id,
 *     loaded by scripts through the driver</td><td>as gtran-jvm-cluster, created by a script on node 0</td>
 *     <td>as gtran-remote</td></tr>
 * <tr><td>{@link io.gtran.lbv.gtran.TinkerTxLbvSystem}</td><td>tinkertx</td><td>none</td>
 *     <td>user-supplied Long, LONG id managers</td><td>{@code createIndex(key, Vertex/Edge)}</td>
 *     <td>TransactionException (commit conflict)</td></tr>
 * </table>
 *
 * <p>Every option {@code batch=N} sets the elements per committed load transaction (default
 * 10,000; 500 elements per script for gtran-cluster). Logging goes to stderr ({@link io.gtran.lbv.gtran.StderrLogging}). {@link
 * io.gtran.lbv.gtran.LbvMessages} ({@code bin/gtran bench lbv-messages}) counts the messages each
 * LBV query sends on the cluster system.
 */
package io.gtran.lbv.gtran;
