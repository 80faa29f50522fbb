package io.gtran.rdma.netty;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one node knows of one peer: its address, the connection its requests go over (made on
 * first use, made again after a loss), the incarnation it last answered with, and whether it is in
 * contact. The peer is in contact while at least one connection with it (our connection to it, or
 * its connection to us) has done its handshake and is open; losing it (the last such connection
 * closing or falling silent, a new incarnation turning up) tells the fabric's listeners once,
 * until contact is made again.
 */
final class PeerLink {
    private static final Logger LOG = LoggerFactory.getLogger(PeerLink.class);
    /** How often a request is offered to a fresh connection when the one it met had just closed. */
    private static final int SUBMIT_ATTEMPTS = 3;

    private final NettyFabric fabric;
    private final int node;
    private final InetSocketAddress address;
    private final String addressText;
    private ClientConnection connection; // guarded by this
    private boolean inContact; // guarded by this
    private long incarnation; // guarded by this; 0 until the peer answered once
    private String lostBecause; // guarded by this
    /** The open, handshaken connections with the incarnation in contact: ClientConnections and accepted Channels. */
    private final Set<Object> connections = new HashSet<>(); // guarded by this

    PeerLink(NettyFabric fabric, int node, InetSocketAddress address) {
        this.fabric = fabric;
        this.node = node;
        this.address = address;
        this.addressText = address.getHostString() + ":" + address.getPort();
    }

    int node() {
        return node;
    }

    InetSocketAddress address() {
        return address;
    }

    /** {@code host:port}, for messages. */
    String addressText() {
        return addressText;
    }

    /** Sends {@code request} over the current connection, opening one if needed. */
    void submit(Request request) {
        for (int attempt = 1; ; attempt++) {
            ClientConnection current = connection();
            if (current == null) {
                request.releaseFrame();
                request.fail(fabric.localCloseReason(), addressText);
                return;
            }
            if (current.submit(request)) {
                return;
            }
            if (attempt == SUBMIT_ATTEMPTS) {
                // Each connection closed before it took the request (a refused connect fails at
                // once): say why the last one closed, as a request it had taken would.
                String reason = current.closedBecause();
                request.releaseFrame();
                request.fail(reason != null ? reason : "connection closed", addressText);
                return;
            }
        }
    }

    /**
     * Sends region operations for peer incarnation {@code incarnation}, in order, in as few OPS
     * frames as the frame limit allows (one, unless the requests or their results pass
     * {@link FrameDescriptor#MAX_BODY_LENGTH}).
     */
    void submitOps(List<RegionOp> ops, long incarnation) {
        int from = 0;
        while (from < ops.size()) {
            long body = OpDescriptor.FIRST_OP_OFFSET;
            long results = 0;
            int to = from;
            while (to < ops.size()) {
                RegionOp op = ops.get(to);
                if (to > from && (body + op.encodedLength() > FrameDescriptor.MAX_BODY_LENGTH
                        || OpDescriptor.FIRST_OP_OFFSET + results + op.resultLength() > FrameDescriptor.MAX_BODY_LENGTH)) {
                    break;
                }
                body += op.encodedLength();
                results += op.resultLength();
                to++;
            }
            List<RegionOp> frame = from == 0 && to == ops.size() ? ops : new ArrayList<>(ops.subList(from, to));
            submit(new OpsRequest(incarnation, frame, (int) body, (int) results));
            from = to;
        }
    }

    /** The open connection, a new one if there is none, or null once the fabric is closed. */
    private synchronized ClientConnection connection() {
        if (connection == null || connection.isClosed()) {
            if (fabric.isClosed()) {
                return null;
            }
            connection = new ClientConnection(fabric, this);
            connection.start();
        }
        return connection;
    }

    /**
     * A handshake with the peer succeeded on {@code with} (our ClientConnection, or a Channel it
     * opened to us); it answered as {@code peerIncarnation}.
     */
    void contact(Object with, long peerIncarnation) {
        boolean restarted;
        ClientConnection stale = null;
        synchronized (this) {
            boolean changed = incarnation != 0 && incarnation != peerIncarnation;
            restarted = changed && inContact;
            incarnation = peerIncarnation;
            if (changed) {
                connections.clear(); // the old incarnation's: their closing tells nothing (see lost)
            }
            if (restarted) {
                inContact = false;
                lostBecause = "node restarted";
            }
            if (changed && connection != null && connection.answeredAsOtherThan(peerIncarnation)) {
                stale = connection; // still talking to the old incarnation, which nobody will answer any more
            }
        }
        if (restarted) {
            tellLost("node restarted");
        }
        if (stale != null) {
            stale.close("node restarted"); // outside the lock: closing runs the failed requests' callbacks
        }
        synchronized (this) {
            if (incarnation == peerIncarnation) { // else yet another incarnation turned up meanwhile
                connections.add(with);
                inContact = true;
                lostBecause = null;
            }
        }
    }

    /**
     * Our connection to the peer, which answered as {@code peerIncarnation}, closed; if it had been
     * established, it no longer keeps the peer in contact.
     */
    void connectionClosed(ClientConnection closed, boolean established, long peerIncarnation, String reason) {
        if (established) {
            lost(closed, reason, peerIncarnation);
        }
    }

    /**
     * Connection {@code with} to or from incarnation {@code peerIncarnation} of the peer broke for
     * {@code reason}: if it was the last open one with the incarnation in contact, the peer is lost
     * and the listeners are told. A connection of an earlier incarnation closing tells nothing: that
     * incarnation's loss was told (as {@code "node restarted"}, or before) when the new one turned
     * up. Idempotent for each connection.
     */
    void lost(Object with, String reason, long peerIncarnation) {
        synchronized (this) {
            if (peerIncarnation != incarnation || !connections.remove(with) || !connections.isEmpty() || !inContact) {
                return;
            }
            inContact = false;
            lostBecause = reason;
        }
        tellLost(reason);
    }

    private void tellLost(String reason) {
        if (!fabric.isClosed()) {
            LOG.info("node={}: lost peer node={} at {}: {}", fabric.localNode(), node, addressText, reason);
            fabric.tellPeerLost(node, reason);
        }
    }

    /** Says GOODBYE and closes the connection (failing what waits on it with {@code reason}); the fabric is closing. */
    void close(String reason) {
        ClientConnection current;
        synchronized (this) {
            current = connection;
        }
        if (current != null) {
            current.goodbye(reason);
        }
    }

    @Override
    public synchronized String toString() {
        return "node=" + node + " " + (inContact ? "in contact" : lostBecause != null ? "lost (" + lostBecause + ")"
                : "not in contact") + ", connection=" + (connection == null ? "none" : connection);
    }
}
