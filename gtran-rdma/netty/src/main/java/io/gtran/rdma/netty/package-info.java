/**
 * The Netty TCP transport of the cluster fabric: G-Tran's transport for machines without RDMA
 * (paper §4.1, §5). Its module, {@code gtran-rdma-netty}, is the only one of gtran that compiles
 * against Netty; everything else reaches it through {@link io.gtran.rdma.Fabric} and
 * {@link io.gtran.rdma.Fabrics} (transport name {@code netty}, via
 * {@link io.gtran.rdma.netty.NettyFabricProvider}), with this module on the runtime class path only.
 *
 * <h2>Shape</h2>
 * <ul>
 *   <li>{@link io.gtran.rdma.netty.NettyFabric}: one node. It listens on its configured address;
 *       it reaches each peer over one connection of its own ({@code PeerLink},
 *       {@code ClientConnection}), opened on first use and again after a loss. So a connection has
 *       a client end that sends requests and a server end ({@code ServerHandler}) that answers
 *       them, and two nodes that use each other have two connections.
 *   <li>One-sided operations ({@code OPS} frames, one or many operations each) are applied by the
 *       server end's I/O thread straight to the {@link io.gtran.rdma.spi.RegionMemory}
 *       ({@code RegionService}), as a NIC would; no application thread of the owning node takes
 *       part. Handles to a node's own regions skip the network.
 *   <li>A {@link io.gtran.rdma.Batch} becomes one {@code OPS} frame per destination node (more only
 *       past the frame limit), answered by one reply.
 *   <li>Messages ({@code SEND} frames) are put into the receiving mailbox by the I/O thread
 *       ({@link io.gtran.rdma.spi.AbstractFabric#deliver}); the sender's future completes when
 *       the reply says the message is in the mailbox, or fails with the refusal.
 * </ul>
 *
 * <h2>Wire format</h2>
 * Binary frames: a 20-byte header (magic, version, type, flags, request id, body length;
 * {@code FrameDescriptor}) and a body ({@code BodyDescriptor}, {@code OpDescriptor}). Every
 * connection starts with {@code HELLO}/{@code HELLO_ACK}, which carry the node ids and each node's
 * incarnation, a random number drawn at start: a region handle is bound to the incarnation that
 * answered its look-up and fails with {@code "node restarted"} once the peer has restarted.
 *
 * <h2>Failures</h2>
 * <ul>
 *   <li>Every request fails after the operation timeout ({@link io.gtran.rdma.RegionAccessException},
 *       or {@link io.gtran.rdma.DeliveryException} for a message), naming {@code node=}, the region
 *       or mailbox and the peer's address.
 *   <li>A connection that breaks, ends with {@code GOODBYE}, or hears nothing for peer-lost-after
 *       (idle connections send a heartbeat every heartbeat interval) fails everything waiting on it
 *       at once; when no other connection with the peer (either way) is left open, the peer is
 *       reported to the {@link io.gtran.rdma.PeerListener}s, once per loss.
 *   <li>Hostile or malformed input (bad header, frame out of turn, a length past the limit, a body
 *       that does not parse or points outside a region) closes that connection only, with a WARN
 *       line naming the remote address and the reason. Headers are checked before any body is
 *       buffered, and whole {@code OPS} frames before any operation is applied.
 * </ul>
 *
 * <p>{@link io.gtran.rdma.netty.FabricNodeMain} runs a bare node in a process of its own, for
 * multi-process tests.
 */
package io.gtran.rdma.netty;
