package io.gtran.rdma;

/** A node id or region name that the cluster never knew; the message names {@code node=} and {@code name=}. */
public final class UnknownRegionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message naming the node and region. */
    public UnknownRegionException(String message) {
        super(message);
    }
}
