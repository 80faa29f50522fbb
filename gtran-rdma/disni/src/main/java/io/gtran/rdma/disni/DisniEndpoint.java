package io.gtran.rdma.disni;

import static io.gtran.rdma.disni.FrameDescriptor.FRAME_BYTES;

import com.ibm.disni.RdmaActiveEndpoint;
import com.ibm.disni.RdmaActiveEndpointGroup;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.SVCPostRecv;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.LinkedList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reliable-connected queue pair, as a DiSNI active endpoint: it owns {@link #RECV_DEPTH}
 * pre-posted receive buffers of {@link FrameDescriptor#FRAME_BYTES} each (posted in {@link #init},
 * before the connection is accepted or established, so a peer's first SEND always finds one),
 * reposts each as soon as its frame is copied out, and hands completions and connection-manager
 * events to its {@link Connection}.
 *
 * <p>DiSNI 2.0's {@code RdmaEndpoint.connect} waits for ESTABLISHED with no time limit and ignores
 * the failure events (REJECTED, UNREACHABLE, ADDR/ROUTE/CONNECT_ERROR): {@link #dial} therefore
 * interrupts the waiting thread on such an event or when the connect time-out passes.
 */
final class DisniEndpoint extends RdmaActiveEndpoint {
    private static final Logger LOG = LoggerFactory.getLogger(DisniEndpoint.class);

    /** Receive buffers per queue pair. */
    static final int RECV_DEPTH = 64;
    /** Set in the work-request id of receives; send ids stay below it. */
    static final long RECV_TAG = Long.MIN_VALUE;

    final Connection connection;
    private final Object interruptLock = new Object();
    private ByteBuffer receiveArea;
    private IbvMr receiveMr;
    private volatile SVCPostRecv[] reposts; // null once shut down
    private Thread waiting; // guarded by interruptLock: the thread blocked in connect or accept
    private String failure; // guarded by interruptLock: why we interrupted it
    private boolean interruptedByUs; // guarded by interruptLock

    DisniEndpoint(RdmaActiveEndpointGroup<DisniEndpoint> group, RdmaCmId id, boolean serverSide, DisniFabric fabric)
            throws IOException {
        super(group, id, serverSide);
        this.connection = new Connection(fabric, this, !serverSide);
        if (serverSide) {
            expectWaiter(fabric.acceptor()); // DiSNI's accept() waits for ESTABLISHED with no time limit too
        }
    }

    /** Whether the current thread is one of DiSNI's CQ or CM threads, which must never block or join themselves. */
    static boolean onTransportThread() {
        return FabricThreads.onDisniThread();
    }

    @Override
    protected synchronized void init() throws IOException {
        super.init();
        receiveArea = ByteBuffer.allocateDirect(RECV_DEPTH * FRAME_BYTES);
        receiveMr = getPd().regMr(receiveArea, IbvMr.IBV_ACCESS_LOCAL_WRITE).execute().free().getMr();
        SVCPostRecv[] built = new SVCPostRecv[RECV_DEPTH];
        for (int slot = 0; slot < RECV_DEPTH; slot++) {
            IbvSge sge = new IbvSge();
            sge.setAddr(receiveMr.getAddr() + (long) slot * FRAME_BYTES);
            sge.setLength(FRAME_BYTES);
            sge.setLkey(receiveMr.getLkey());
            LinkedList<IbvSge> sges = new LinkedList<>();
            sges.add(sge);
            IbvRecvWR receive = new IbvRecvWR();
            receive.setWr_id(RECV_TAG | slot);
            receive.setSg_list(sges);
            built[slot] = postRecv(List.of(receive)); // one stateful call per slot, re-executed to repost it
        }
        reposts = built;
        for (SVCPostRecv repost : built) {
            repost.execute();
        }
    }

    @Override
    public void dispatchCqEvent(IbvWC wc) {
        FabricThreads.mark(FabricThreads.COMPLETION_QUEUE);
        long id = wc.getWr_id(); // wc is reused by DiSNI's poller: read everything now
        int status = wc.getStatus();
        if ((id & RECV_TAG) == 0) {
            connection.sendCompleted(id, status);
            return;
        }
        if (status != IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal()) {
            connection.lost("receive failed: status=" + statusName(status));
            return;
        }
        SVCPostRecv[] slots = reposts;
        if (slots == null) {
            return; // shut down under us
        }
        int slot = (int) (id & 0xffff);
        byte[] frame = new byte[Math.min(wc.getByte_len(), FRAME_BYTES)];
        receiveArea.get(slot * FRAME_BYTES, frame);
        try {
            slots[slot].execute();
        } catch (IOException | RuntimeException e) {
            connection.lost("cannot repost a receive buffer: " + e.getMessage());
            return;
        }
        connection.received(frame);
    }

    @Override
    public synchronized void dispatchCmEvent(RdmaCmEvent event) throws IOException {
        FabricThreads.mark(FabricThreads.CONNECTION_MANAGER);
        super.dispatchCmEvent(event);
        int type = event.getEvent();
        if (type == RdmaCmEvent.EventType.RDMA_CM_EVENT_DISCONNECTED.ordinal()) {
            connection.lost(Connection.DISCONNECTED);
        } else if (isFailure(type)) {
            String name = RdmaCmEvent.EventType.values()[type].name() + " (status=" + event.getStatus() + ")";
            interruptWaiter(name);
            connection.lost("connection failed: " + name);
        }
    }

    /**
     * Connects to {@code address}, failing instead of hanging on a failure event or after
     * {@code timeoutMillis}.
     *
     * @throws IOException saying why the connection was not made
     */
    void dial(InetSocketAddress address, int timeoutMillis, ScheduledExecutorService timer) throws IOException {
        expectWaiter(Thread.currentThread());
        ScheduledFuture<?> watchdog = timer.schedule(() -> interruptWaiter("no connection within " + timeoutMillis
                + " ms"), timeoutMillis, TimeUnit.MILLISECONDS);
        Exception error = null;
        try {
            connect(address, timeoutMillis);
        } catch (Exception e) {
            error = e;
        } finally {
            watchdog.cancel(false);
        }
        String why = stopWaiting();
        if (error instanceof InterruptedException && why == null) {
            Thread.currentThread().interrupt(); // someone else's interrupt: keep it
        }
        if (error != null) {
            throw new IOException(why != null ? why : error.toString(), error);
        }
    }

    /** Makes failure events interrupt {@code thread} (the acceptor, for a server-side endpoint). */
    void expectWaiter(Thread thread) {
        synchronized (interruptLock) {
            waiting = thread;
            failure = null;
            interruptedByUs = false;
        }
    }

    /**
     * Stops interrupting the waiting thread and clears an interrupt we caused (restoring none that
     * someone else caused).
     *
     * @return why we interrupted it, or null
     */
    String stopWaiting() {
        synchronized (interruptLock) {
            waiting = null;
            if (interruptedByUs) {
                Thread.interrupted();
            }
            return failure;
        }
    }

    /**
     * Closes the connection and frees this endpoint's resources; for a thread that is neither the
     * CQ nor the CM thread (DiSNI's close waits for the DISCONNECTED event).
     */
    void shutdown() {
        try {
            close();
        } catch (IOException | RuntimeException e) {
            LOG.debug("closing endpoint {} failed", getEndpointId(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            SVCPostRecv[] slots = reposts;
            reposts = null;
            if (slots != null) {
                for (SVCPostRecv repost : slots) {
                    if (repost != null) {
                        repost.free();
                    }
                }
            }
            if (receiveMr != null) {
                try {
                    deregisterMemory(receiveMr);
                } catch (IOException | RuntimeException e) {
                    LOG.debug("deregistering the receive buffers of endpoint {} failed", getEndpointId(), e);
                }
                receiveMr = null;
            }
        }
    }

    /** The name of a work-completion status, for messages. */
    static String statusName(int status) {
        IbvWC.IbvWcStatus[] all = IbvWC.IbvWcStatus.values();
        return status >= 0 && status < all.length ? all[status].name() : Integer.toString(status);
    }

    private void interruptWaiter(String why) {
        synchronized (interruptLock) {
            if (waiting != null) {
                failure = why;
                interruptedByUs = true;
                waiting.interrupt();
            }
        }
    }

    private static boolean isFailure(int type) {
        return type == RdmaCmEvent.EventType.RDMA_CM_EVENT_ADDR_ERROR.ordinal()
                || type == RdmaCmEvent.EventType.RDMA_CM_EVENT_ROUTE_ERROR.ordinal()
                || type == RdmaCmEvent.EventType.RDMA_CM_EVENT_CONNECT_ERROR.ordinal()
                || type == RdmaCmEvent.EventType.RDMA_CM_EVENT_UNREACHABLE.ordinal()
                || type == RdmaCmEvent.EventType.RDMA_CM_EVENT_REJECTED.ordinal()
                || type == RdmaCmEvent.EventType.RDMA_CM_EVENT_DEVICE_REMOVAL.ordinal();
    }
}
