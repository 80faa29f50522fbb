package io.gtran.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy on a loopback port in front of a node, for failing every connection through it at
 * once: {@link #cut} resets both sides (linger 0, so an RST and no orderly close), as a dead peer
 * or a failed link would; {@link #silence} drops every byte but keeps the connections open, as a
 * network partition or a peer host losing power would, telling neither side.
 */
final class CuttableProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean silenced;
    private final ExecutorService pumps = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "cuttable-proxy");
        t.setDaemon(true);
        return t;
    });

    CuttableProxy(int target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        pumps.submit(this::accept);
    }

    int port() {
        return listener.getLocalPort();
    }

    /** How many client connections it has accepted so far. */
    int connections() {
        return sockets.size() / 2;
    }

    private Void accept() throws IOException {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException closed) {
                return null;
            }
            Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
            sockets.add(client);
            sockets.add(server);
            pumps.submit(() -> pump(client, server));
            pumps.submit(() -> pump(server, client));
        }
        return null;
    }

    private Void pump(Socket from, Socket to) {
        byte[] buffer = new byte[8192];
        try (InputStream in = from.getInputStream()) {
            OutputStream out = to.getOutputStream();
            for (int n; (n = in.read(buffer)) >= 0; ) {
                if (!silenced) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            }
        } catch (IOException cut) {
            // the connection was cut or closed: nothing more to carry
        }
        return null;
    }

    /** From now on drops whatever either side sends, closing nothing. */
    void silence() {
        silenced = true;
    }

    /** Resets every connection through the proxy, on both sides. */
    void cut() throws IOException {
        for (Socket s : sockets) {
            if (!s.isClosed()) {
                s.setSoLinger(true, 0);
                s.close();
            }
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        cut();
        pumps.shutdownNow();
        try {
            pumps.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
