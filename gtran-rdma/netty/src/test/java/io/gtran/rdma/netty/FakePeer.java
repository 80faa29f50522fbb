package io.gtran.rdma.netty;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A peer that speaks just enough of the protocol to be connected to, and then goes quiet: it
 * answers HELLO and LOOKUP (every region exists, id 0, {@value #REGION_BYTES} bytes), PINGs only if
 * asked to, and never anything else. For tests of time-outs and silent peers.
 */
final class FakePeer implements AutoCloseable {
    static final long REGION_BYTES = 64;

    private final int node;
    private final boolean answersPings;
    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    /** Listens as node {@code node} on {@code address}. */
    FakePeer(int node, InetSocketAddress address, boolean answersPings) throws IOException {
        this.node = node;
        this.answersPings = answersPings;
        this.server = new ServerSocket(address.getPort(), 50, InetAddress.getByName(address.getHostString()));
        threads.submit(this::accept);
    }

    private Void accept() throws IOException {
        while (!server.isClosed()) {
            Socket socket = server.accept();
            sockets.add(socket);
            threads.submit(() -> serve(socket));
        }
        return null;
    }

    private Void serve(Socket socket) throws IOException {
        try (socket) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            while (true) {
                byte[] header = new byte[FrameDescriptor.LENGTH];
                in.readFully(header);
                ByteBuffer fields = ByteBuffer.wrap(header);
                byte type = fields.get(FrameDescriptor.TYPE_OFFSET);
                long requestId = fields.getLong(FrameDescriptor.REQUEST_ID_OFFSET);
                in.readFully(new byte[fields.getInt(FrameDescriptor.BODY_LENGTH_OFFSET)]);
                if (type == FrameDescriptor.HELLO) {
                    out.write(frame(FrameDescriptor.HELLO_ACK, 0, ByteBuffer.allocate(BodyDescriptor.HELLO_ACK_LENGTH)
                            .putInt(node).putLong(0xFA4EL).array()));
                } else if (type == FrameDescriptor.LOOKUP) {
                    out.write(frame(FrameDescriptor.LOOKUP_REPLY, requestId, ByteBuffer.allocate(
                            BodyDescriptor.LOOKUP_REPLY_LENGTH).put(BodyDescriptor.LOOKUP_FOUND).putInt(0).putLong(REGION_BYTES)
                            .array()));
                } else if (type == FrameDescriptor.PING && answersPings) {
                    out.write(frame(FrameDescriptor.PONG, requestId, new byte[0]));
                }
                out.flush();
            }
        }
    }

    private static byte[] frame(byte type, long requestId, byte[] body) {
        return ByteBuffer.allocate(FrameDescriptor.LENGTH + body.length).putInt(FrameDescriptor.MAGIC)
                .put(FrameDescriptor.VERSION).put(type).putShort((short) 0).putLong(requestId).putInt(body.length).put(body)
                .array();
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
        threads.shutdownNow();
        try {
            threads.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
