package io.gtran.rdma;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Addresses on 127.0.0.1 whose ports were free a moment ago: for clusters of several processes or
 * fabrics on one machine (tests, a local cluster). A port can be taken between this call and the
 * bind, so callers retry a start that fails to bind.
 */
public final class LoopbackPorts {
    private LoopbackPorts() {
    }

    /** {@code count} distinct free addresses on 127.0.0.1. */
    public static List<InetSocketAddress> free(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            InetAddress loopback = InetAddress.getByName("127.0.0.1");
            List<InetSocketAddress> addresses = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, loopback);
                sockets.add(socket);
                addresses.add(new InetSocketAddress("127.0.0.1", socket.getLocalPort()));
            }
            return addresses;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // a port not released stays taken: the caller's bind fails and it tries again
                }
            }
        }
    }
}
