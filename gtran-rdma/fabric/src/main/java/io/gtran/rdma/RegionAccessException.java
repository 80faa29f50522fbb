package io.gtran.rdma;

/**
 * A region operation that could not reach the region: its node is closed or unreachable (a dead
 * peer), or a fault was injected (the test harness's fault decorator, gtran-check-fabric). The message names {@code node=} and the
 * region. It is an {@link IllegalStateException} because the operation was sound but the remote
 * side is not in a state to serve it; callers that handle dead peers catch this type.
 */
public final class RegionAccessException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message naming the node and region. */
    public RegionAccessException(String message) {
        super(message);
    }
}
