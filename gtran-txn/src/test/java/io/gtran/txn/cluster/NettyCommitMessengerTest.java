package io.gtran.txn.cluster;

import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Fabrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** {@link CommitMessengerContract} over the Netty TCP transport on 127.0.0.1, started by name. */
class NettyCommitMessengerTest extends CommitMessengerContract {
    private static final int ATTEMPTS = 5;

    @Override
    protected Fabric[] startNodes(int n) {
        IllegalStateException last = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            List<InetSocketAddress> addresses = freeAddresses(n);
            Fabric[] fabrics = new Fabric[n];
            try {
                for (int i = 0; i < n; i++) {
                    fabrics[i] = Fabrics.start(ClusterConfig.builder(i).transport("netty").nodes(addresses)
                            .heartbeatInterval(Duration.ofMillis(200)).peerLostAfter(Duration.ofSeconds(1)).build());
                }
                return fabrics;
            } catch (IllegalStateException e) { // a port was taken between finding and binding it
                for (Fabric fabric : fabrics) {
                    if (fabric != null) {
                        fabric.close();
                    }
                }
                last = e;
            }
        }
        throw new IllegalStateException("could not start " + n + " Netty nodes on free ports", last);
    }

    private static List<InetSocketAddress> freeAddresses(int count) {
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
                    // a port not released stays taken: the start fails and is tried again
                }
            }
        }
    }
}
