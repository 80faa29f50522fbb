/**
 * The cluster transport: {@link io.gtran.rdma.Fabric} (one node's view: registered memory regions
 * other nodes read, write, compare-and-swap and fetch-and-add by offset, and reliable ordered
 * messages), {@link io.gtran.rdma.Region} (a handle to one region) and the in-JVM implementation
 * ({@link io.gtran.rdma.InJvmCluster}). The {@code Forwarding*} classes are the base of fabric
 * decorators; the test harness's (fault injection, link latency, traffic counts) live in the
 * {@code gtran-check-fabric} module. Code above this module depends only on these interfaces, never on a
 * particular transport.
 *
 * <p>The networked transports are modules of their own ({@code gtran-rdma-netty}, {@code
 * gtran-rdma-disni}), found on the class path by the name in {@code gtran.fabric.transport}
 * ({@link io.gtran.rdma.Fabrics}); they build on {@link io.gtran.rdma.spi}.
 */
package io.gtran.rdma;
