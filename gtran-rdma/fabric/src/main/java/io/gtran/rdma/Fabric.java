package io.gtran.rdma;

/**
 * One node's view of the cluster fabric: the memory regions it registered, handles to other
 * nodes' regions, mailboxes for messages between named threads, and news of lost peers.
 *
 * <p>A fabric offers the two primitives of the G-Tran transport (paper §4.1): one-sided access to
 * registered {@link Region}s (read, write, compare-and-swap, fetch-and-add, served without the
 * remote node's application threads running; synchronous, asynchronous, or gathered into a
 * {@link Batch}), and two-sided messages between {@link Mailbox}es. Implementations:
 * {@link InJvmCluster} (all nodes in one JVM), {@code NettyFabric} (TCP), {@code DisniFabric} (RDMA
 * verbs). They behave the same way, which {@code FabricContractTest} checks.
 *
 * <p>Node ids are {@code 0..}{@link #MAX_NODE}.
 *
 * <p>How failures show up:
 * <ul>
 *   <li>any operation on a closed fabric: {@link IllegalStateException} {@code "fabric is closed: node=N"};
 *   <li>a node or region that never existed: {@link UnknownRegionException};
 *   <li>a node that existed but is closed or unreachable (a dead peer), a time-out, or an injected
 *       fault: {@link RegionAccessException} from region operations (in the future, for the
 *       asynchronous ones), a {@link DeliveryException} in the future returned by
 *       {@link Mailbox#send};
 *   <li>misuse (bad size, offset, length, name): {@link IllegalArgumentException} with
 *       {@code name=value}, thrown by the call itself, never put in a future.
 * </ul>
 */
public interface Fabric extends AutoCloseable {
    /** The largest node id. */
    int MAX_NODE = 1023;

    /**
     * The largest message payload and the largest bulk {@link Region#read}/{@link Region#write}
     * length, in bytes (16 MiB). Every transport frames at most this much data in one piece.
     */
    int MAX_TRANSFER_BYTES = 16 << 20;

    /** The longest mailbox name, in UTF-8 bytes. */
    int MAX_MAILBOX_NAME_BYTES = 255;

    /** The number of undelivered messages a mailbox holds unless {@link #openMailbox(String, int)} says otherwise. */
    int DEFAULT_MAILBOX_CAPACITY = 1 << 16;

    /** This node's id, {@code 0..}{@link #MAX_NODE}. */
    int localNode();

    /**
     * The longest message payload that callers should send through this fabric: {@link
     * #MAX_TRANSFER_BYTES}, unless a decorator lowers it (a test of what does not fit in one message,
     * without messages of 16 MiB). Mailboxes still refuse only what exceeds {@link #MAX_TRANSFER_BYTES}.
     */
    default int maxMessageBytes() {
        return MAX_TRANSFER_BYTES;
    }

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
     * A handle to region {@code name} of node {@code node}, which may be this node. For a remote
     * node this may take a round trip, to learn the region's size.
     *
     * @throws UnknownRegionException if there is no such node or no such region on it (the message
     *     names {@code node=} and {@code name=})
     * @throws RegionAccessException if the node is known but closed or unreachable
     * @throws IllegalStateException if this fabric is closed
     */
    Region connect(int node, String name);

    /**
     * A new, empty batch of region operations on handles of this fabric; see {@link Batch}.
     *
     * @throws IllegalStateException if this fabric is closed
     */
    Batch batch();

    /**
     * Opens the mailbox {@code name} on this node, holding up to {@link #DEFAULT_MAILBOX_CAPACITY}
     * undelivered messages. Any node may send to it from then on, until it is closed.
     *
     * @throws IllegalArgumentException if {@code name} is empty or longer than
     *     {@link #MAX_MAILBOX_NAME_BYTES} UTF-8 bytes
     * @throws IllegalStateException if a mailbox of that name is open here (the message names it),
     *     or this fabric is closed
     */
    default Mailbox openMailbox(String name) {
        return openMailbox(name, DEFAULT_MAILBOX_CAPACITY);
    }

    /**
     * Opens the mailbox {@code name} on this node, holding up to {@code capacity} messages that
     * have arrived and not been received; a message arriving at a full mailbox is refused (its
     * sender's future fails naming {@code capacity=}).
     *
     * @throws IllegalArgumentException if {@code name} is empty or too long, or {@code capacity < 1}
     * @throws IllegalStateException if a mailbox of that name is open here, or this fabric is closed
     */
    Mailbox openMailbox(String name, int capacity);

    /**
     * Adds a listener told when a peer this node was in contact with is lost: it closed, its
     * connection broke, it stopped answering, or a partition was injected. Each loss is told once
     * per listener; a peer that comes back and is lost again is told again. Listeners run on a
     * transport thread: they must return quickly and never block.
     *
     * @throws IllegalStateException if this fabric is closed
     */
    void onPeerLost(PeerListener listener);

    /**
     * Leaves the cluster; idempotent. Afterwards every operation on this fabric, its mailboxes and
     * region handles obtained from it throws {@link IllegalStateException} {@code "fabric is closed:
     * node=N"} (a thread blocked in {@link Mailbox#receive} wakes up with it); outstanding
     * asynchronous operations fail. Other nodes see this node as dead: their handles to its regions
     * throw {@link RegionAccessException}, their sends to it fail with {@link DeliveryException},
     * and their peer listeners are told.
     */
    @Override
    void close();
}
