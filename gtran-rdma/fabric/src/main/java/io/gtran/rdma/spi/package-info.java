/**
 * What a networked transport builds on, and nothing code above the transport uses:
 * {@link io.gtran.rdma.spi.FabricProvider} (how {@link io.gtran.rdma.Fabrics} finds a transport by
 * name, listed in the transport module's {@code META-INF/services/io.gtran.rdma.spi.FabricProvider}),
 * {@link io.gtran.rdma.spi.AbstractFabric} (mailboxes, peer listeners and closing, the same in every
 * transport), {@link io.gtran.rdma.spi.RegionMemory} and {@link io.gtran.rdma.spi.MemoryRegion} (a
 * region's memory and a handle that goes straight to it), {@link io.gtran.rdma.spi.OpBatch} and
 * {@link io.gtran.rdma.spi.DeferredOp} (batches issued operation by operation), and
 * {@link io.gtran.rdma.spi.FabricChecks} (the argument checks whose messages the contract tests
 * match).
 */
package io.gtran.rdma.spi;
