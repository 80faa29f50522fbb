package io.gtran.rdma;

/** Told when a peer is lost; see {@link Fabric#onPeerLost}. */
@FunctionalInterface
public interface PeerListener {
    /**
     * Peer {@code node} is lost. Runs on a transport thread: return quickly, never block.
     *
     * @param node the lost peer's id
     * @param reason what happened, for logs (for example {@code "node closed"}, {@code "connection reset"})
     */
    void peerLost(int node, String reason);
}
