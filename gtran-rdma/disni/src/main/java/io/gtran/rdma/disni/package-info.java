/**
 * The RDMA-verbs transport of the cluster fabric, over IBM DiSNI 2.0: {@link
 * io.gtran.rdma.disni.DisniFabric} (started through {@link io.gtran.rdma.Fabrics} with transport
 * {@code rdma}, {@link io.gtran.rdma.disni.DisniFabricProvider}) and {@link
 * io.gtran.rdma.disni.RdmaSupport}, which says what is missing on a machine without RDMA. The module
 * {@code gtran-rdma-disni}, on the class path of a process that may start an RDMA node, is the only
 * one of gtran that depends on DiSNI. Not yet run on RDMA hardware; see {@code deploy/rdma.md}.
 *
 * <p>Inside: {@code DisniEndpoint} (one queue pair, its receive buffers, DiSNI's events),
 * {@code Connection} (work requests in flight, frames, loss), {@code Peers} (connections per peer,
 * which peers are in contact), {@code DisniRegion}/{@code RegionOp} (one-sided operations),
 * {@code DisniBatch}, {@code FrameDescriptor}/{@code FrameCodec}/{@code MessageAssembly} (control
 * frames), {@code BouncePool} (registered local buffers), {@code AtomicWorkRequests} (posting atomic
 * operands DiSNI 2.0 drops) and {@code AtomicsProbe} (the start-up check of atomics).
 */
package io.gtran.rdma.disni;
