package io.gtran.rdma.netty;

/**
 * Input that breaks the wire protocol: a bad header, a frame out of turn, a body that does not
 * parse or names what does not exist. The connection it came on is closed (with a WARN line naming
 * the remote address and this message); the node goes on serving everyone else.
 */
final class ProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ProtocolException(String message) {
        super(message, null, false, false); // no stack trace: hostile input is not a bug here
    }
}
