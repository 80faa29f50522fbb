package io.gtran.rdma;

import java.util.concurrent.CompletableFuture;

/**
 * One node's view of the cluster fabric: the memory regions it registered, handles to other
 * nodes' regions, and reliable messages to other nodes.
 *
 * <p>A fabric offers the two primitives of the G-Tran transport (paper §4.1): one-sided access to
 * registered {@link Region}s (read, write, compare-and-swap, fetch-and-add, served without the
 * remote node's code running) and two-sided messages delivered to a {@link MessageHandler}.
 * Implementations: {@link InJvmCluster} (all nodes in one JVM); TCP and RDMA verbs implementations
 * must behave the same way, which {@code FabricContractTest} checks.
 *
 * <p>Node ids are {@code 0..}{@link #MAX_NODE}, channels {@code 0..}{@link #MAX_CHANNEL}.
 *
 * <p>How failures show up:
 * <ul>
 *   <li>any operation on a closed fabric: {@link IllegalStateException} {@code "fabric is closed: node=N"};
 *   <li>a node or region that never existed: {@link UnknownRegionException};
 *   <li>a node that existed but is closed or unreachable (a dead peer), or an injected fault:
 *       {@link RegionAccessException} from region operations, a {@link DeliveryException} in the
 *       future returned by {@link #send};
 *   <li>misuse (bad size, offset, channel): {@link IllegalArgumentException} with {@code name=value}.
 * </ul>
 */
public interface Fabric extends AutoCloseable {
    /** The largest node id. */
    int MAX_NODE = 1023;

    /** The largest message channel. */
    int MAX_CHANNEL = 255;

    /** This node's id, {@code 0..}{@link #MAX_NODE}. */
    int localNode();

    /**
     * Registers a zero-filled region of {@code bytes} bytes under {@code name}, readable and
     * writable by every node of the cluster through {@link #connect}.
     *
     * @param name region name, unique on this node, not empty
     * @param bytes size, a positive multiple of 8
     * @return a handle to the new region; {@code node()} is {@link #localNode()}
     * @throws IllegalArgumentException if {@code bytes} is not a positive multiple of 8, or is larger
     *     than the implementation supports (the message names {@code bytes=} and the limit)
     * @throws IllegalStateException if a region named {@code name} is already registered here (the
     *     message names it), or this fabric is closed
     */
    Region register(String name, long bytes);

    /**
     * A handle to region {@code name} of node {@code node}, which may be this node.
     *
     * @throws UnknownRegionException if there is no such node or no such region on it (the message
     *     names {@code node=} and {@code name=})
     * @throws RegionAccessException if the node is known but closed or unreachable
     * @throws IllegalStateException if this fabric is closed
     */
    Region connect(int node, String name);

    /**
     * Sends {@code payload} to the handler installed for {@code channel} on {@code node} (which may
     * be this node). Delivery is reliable, and messages from this node to one receiver are handled
     * in the order the {@code send} calls were made. The payload is copied before this method
     * returns, so the caller may reuse the array.
     *
     * <p>The returned future completes normally after the receiver's handler has returned (the
     * acknowledgement). It completes exceptionally with a {@link DeliveryException} naming
     * {@code node=} and {@code channel=} if the node is unknown or closed, has no handler for the
     * channel when the message arrives, or the handler throws (the handler's exception is the
     * cause). Dependent stages attached with non-async methods may run on a transport thread of
     * either node; never block in them (use the {@code *Async} variants, or {@code get()}).
     *
     * @throws IllegalArgumentException if {@code channel} is outside {@code 0..}{@link #MAX_CHANNEL}
     * @throws IllegalStateException if this fabric is closed
     */
    CompletableFuture<Void> send(int node, int channel, byte[] payload);

    /**
     * Installs the handler for messages arriving on {@code channel}. Handlers of one node run one
     * at a time on that node's delivery thread, so a handler that blocks delays every later message
     * to this node.
     *
     * @throws IllegalArgumentException if {@code channel} is outside {@code 0..}{@link #MAX_CHANNEL}
     * @throws IllegalStateException if a handler is already installed for {@code channel}, or this
     *     fabric is closed
     */
    void onMessage(int channel, MessageHandler handler);

    /**
     * Leaves the cluster; idempotent. Afterwards every operation on this fabric and on region
     * handles obtained from it throws {@link IllegalStateException} {@code "fabric is closed:
     * node=N"}; other nodes see this node as dead: their handles to its regions throw
     * {@link RegionAccessException} and their sends to it fail with {@link DeliveryException}.
     * Messages queued for this node and not yet handled fail the same way.
     */
    @Override
    void close();
}
