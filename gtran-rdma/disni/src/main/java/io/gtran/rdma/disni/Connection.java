package io.gtran.rdma.disni;

import static io.gtran.rdma.disni.FrameDescriptor.FRAME_BYTES;

import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.SVCPostSend;
import io.gtran.rdma.RegionAccessException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The state of one queue pair ({@link DisniEndpoint}) to one peer: work requests in flight, replies
 * awaited, and whether the connection still lives.
 *
 * <p><b>Posting.</b> {@link #post} sends a list of {@link WorkItem}s as one chain of work requests
 * sharing one id, only the last signalled: on a reliable connection a completion implies that every
 * earlier request of the queue pair has completed, and an error completion of any of them carries
 * the same id, so the chain completes (or fails) as one. A semaphore of {@link #SEND_DEPTH} slots
 * keeps the send queue from overflowing; a chain's slots come back with its completion.
 * A WRITE or SEND that could pass an earlier READ or atomic of the queue pair, in its chain or in a
 * chain still in flight, carries {@code IBV_SEND_FENCE} ({@link SendFlags}), so requests take effect
 * in the order posted.
 *
 * <p><b>Order of long writes.</b> A long write that is a compare-and-swap loop ({@link DisniRegion})
 * may take several round trips. {@link #inOrder} runs it after every region operation posted before
 * it, and every region operation posted after it waits until it has succeeded or failed, so a
 * thread's later operations cannot be applied between its attempts ({@link PostOrder}). Frames
 * (heartbeats, lookups, messages and their answers) are not region operations and are never held:
 * a loop contended for longer than {@code peerLostAfter} must not silence this node. When the
 * connection is lost, everything held is posted at once and fails naming the loss.
 *
 * <p><b>Failures.</b> A failed completion moves a reliable queue pair into the error state, so the
 * first one {@link #lost loses} the connection: every request in flight and every awaited reply
 * fails with the reason, and the fabric closes the endpoint and tells peer listeners. Buffers of
 * requests that were in flight stay held until the queue pair is destroyed (the NIC could still
 * write into them). A request that outlives the operation time-out fails its caller, but keeps its
 * buffer until it completes.
 *
 * <p><b>Frames.</b> Incoming frames are copied out of the receive buffer and decoded on the CQ thread.
 * Answers complete their waiting futures there; requests, message chunks and goodbyes are handled in
 * arrival order on the fabric's frame thread, and their answers go back on the same queue pair.
 */
final class Connection {
    /** Send-queue work requests per queue pair (DiSNI's {@code maxWR} for the group). */
    static final int SEND_DEPTH = 256;
    /** The most work requests posted as one chain. */
    static final int MAX_CHAIN = 64;
    /** Why a connection ended when the peer disconnected. */
    static final String DISCONNECTED = "connection closed by the peer";
    /** Why a connection ended when the peer said GOODBYE. */
    static final String NODE_CLOSED = "node closed";

    private final DisniFabric fabric;
    private final DisniEndpoint endpoint;
    private final boolean outgoing;
    private final Semaphore sendSlots = new Semaphore(SEND_DEPTH);
    private final Object postLock = new Object();
    private final ConcurrentHashMap<Long, Posted> posted = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, CompletableFuture<Frame>> replies = new ConcurrentHashMap<>();
    private final AtomicLong workRequestIds = new AtomicLong(); // stays below DisniEndpoint.RECV_TAG
    private final AtomicLong requestIds = new AtomicLong();
    private final MessageAssembly assembly = new MessageAssembly(); // frame thread only
    private final List<WorkItem> orphans = new ArrayList<>(); // guarded by postLock
    private final AtomicInteger readChainsInFlight = new AtomicInteger(); // chains holding a READ or an atomic
    private final PostOrder order = new PostOrder();
    private volatile int peer = -1;
    private volatile long peerIncarnation;
    private volatile String lostBecause;
    private volatile long lastHeard = System.nanoTime();

    Connection(DisniFabric fabric, DisniEndpoint endpoint, boolean outgoing) {
        this.fabric = fabric;
        this.endpoint = endpoint;
        this.outgoing = outgoing;
    }

    /** The peer's node id; -1 on an accepted connection until its HELLO arrives. */
    int peer() {
        return peer;
    }

    void peer(int node, long incarnation) {
        this.peer = node;
        this.peerIncarnation = incarnation;
    }

    /** Whether this node dialled the connection (it carries this node's requests). */
    boolean outgoing() {
        return outgoing;
    }

    /** Why the connection ended, or null while it lives. */
    String lostBecause() {
        return lostBecause;
    }

    long nextRequestId() {
        return requestIds.incrementAndGet();
    }

    void heard() {
        lastHeard = System.nanoTime();
    }

    /** {@link #post(List, long)} waiting up to the operation time-out for send-queue room. */
    CompletableFuture<Void> post(List<? extends RegionOp<?>> items) {
        return post(items, fabric.operationTimeoutMillis());
    }

    /**
     * Posts region operations {@code items} (at most {@link #MAX_CHAIN}) as one chain, in program
     * order: after a long write's loop still running on this connection. Each item learns its own outcome;
     * the returned future completes when all have completed, or fails with a
     * {@link RegionAccessException} naming the reason.
     *
     * @param waitMillis how long to wait for send-queue room (0 on DiSNI's threads, which must not block)
     */
    CompletableFuture<Void> post(List<? extends RegionOp<?>> items, long waitMillis) {
        return order.post(() -> postNow(items, waitMillis));
    }

    /** Posts frames as one chain at once, even while a long write loops: frames are outside program order. */
    private CompletableFuture<Void> postFrames(List<FrameItem> frames, long waitMillis) {
        return order.bypass(() -> postNow(frames, waitMillis));
    }

    /**
     * Runs {@code loop} (a long write's compare-and-swap loop, posting through {@link #postNow}) after
     * everything posted on this connection before, and holds everything posted after until it ends.
     *
     * @return the loop's outcome
     */
    CompletableFuture<Void> inOrder(Supplier<CompletableFuture<Void>> loop) {
        return order.loop(loop);
    }

    /** {@link #post(List, long)} at once, ahead of any long write still looping: for that loop's own attempts. */
    CompletableFuture<Void> postNow(List<? extends WorkItem> items, long waitMillis) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        String lost = lostBecause;
        if (lost != null) {
            return fail(items, done, lost);
        }
        try {
            for (WorkItem item : items) {
                item.prepare(fabric.bounces());
            }
        } catch (IOException | RuntimeException e) {
            items.forEach(WorkItem::release);
            return fail(items, done, "no registered buffer for the request: " + e.getMessage());
        }
        long wait = DisniEndpoint.onTransportThread() ? 0 : waitMillis;
        boolean room;
        try {
            room = sendSlots.tryAcquire(items.size(), wait, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            room = false;
        }
        if (!room) {
            items.forEach(WorkItem::release);
            return fail(items, done, "send queue stayed full for " + wait + " ms (" + SEND_DEPTH + " requests in flight)");
        }
        long id = workRequestIds.incrementAndGet();
        List<IbvSendWR> requests = new ArrayList<>(items.size());
        int[] opcodes = new int[items.size()];
        boolean[] fenceBefore = new boolean[items.size()];
        boolean readsOrAtomics = false;
        for (int i = 0; i < items.size(); i++) {
            IbvSendWR request = items.get(i).workRequest();
            request.setWr_id(id);
            opcodes[i] = request.getOpcode();
            fenceBefore[i] = items.get(i).fenceBefore;
            readsOrAtomics |= SendFlags.readsOrAtomic(opcodes[i]);
            requests.add(request);
        }
        Posted entry = new Posted(items, done, readsOrAtomics);
        String failure;
        boolean postFailed = false;
        synchronized (postLock) {
            failure = lostBecause;
            if (failure == null) {
                int[] flags = SendFlags.of(opcodes, fenceBefore, readChainsInFlight.get() > 0);
                for (int i = 0; i < flags.length; i++) {
                    requests.get(i).setSend_flags(flags[i]);
                }
                posted.put(id, entry);
                entry.counted();
                failure = execute(requests);
                if (failure != null) {
                    forget(id);
                    postFailed = true;
                }
            }
        }
        if (failure != null) {
            sendSlots.release(items.size());
            items.forEach(WorkItem::release);
            fail(items, done, failure);
            if (postFailed) {
                lost(failure);
            }
            return done;
        }
        entry.timeout = fabric.schedule(() -> timedOut(entry), fabric.operationTimeoutMillis());
        return done;
    }

    /** Sends {@code frame}, waiting up to the operation time-out for room. */
    CompletableFuture<Void> send(Frame frame) {
        return postFrames(List.of(new FrameItem(frame)), fabric.operationTimeoutMillis());
    }

    /** Sends {@code frame} if there is room right now; for heartbeats and goodbyes. */
    CompletableFuture<Void> sendNow(Frame frame) {
        return postFrames(List.of(new FrameItem(frame)), 0);
    }

    /** Sends {@code request} and completes with the frame that answers it, or fails after the operation time-out. */
    CompletableFuture<Frame> request(Frame request) {
        CompletableFuture<Frame> reply = expectReply(request.requestId());
        send(request).whenComplete((sent, failure) -> failReply(request.requestId(), failure));
        return reply;
    }

    /**
     * Sends a mailbox message as consecutive chunks and completes with the receiver's
     * {@link Frame.MessageResult}. All chunks are posted before this returns, so a later message from
     * the same thread cannot overtake it.
     */
    CompletableFuture<Frame> sendMessage(String from, String to, byte[] payload) {
        long id = nextRequestId();
        List<Frame.MessageChunk> chunks = FrameCodec.chunks(fabric.localNode(), id, from, to, payload);
        CompletableFuture<Frame> reply = expectReply(id);
        for (int start = 0; start < chunks.size() && !reply.isDone(); start += MAX_CHAIN) {
            List<FrameItem> chain = new ArrayList<>();
            for (Frame.MessageChunk chunk : chunks.subList(start, Math.min(chunks.size(), start + MAX_CHAIN))) {
                chain.add(new FrameItem(chunk));
            }
            postFrames(chain, fabric.operationTimeoutMillis()).whenComplete((sent, failure) -> failReply(id, failure));
        }
        return reply;
    }

    /** A completion for a chain posted here; on the CQ thread. */
    void sendCompleted(long id, int status) {
        Posted entry = forget(id);
        if (entry == null) {
            return; // flushed after an earlier error of its chain, or taken by lost()
        }
        sendSlots.release(entry.items.size());
        entry.cancelTimeout();
        if (status == IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal()) {
            heard();
            for (WorkItem item : entry.items) {
                try {
                    item.succeeded();
                } catch (RuntimeException e) {
                    item.failed("could not read the result: " + e);
                } finally {
                    item.release();
                }
            }
            entry.done.complete(null);
            return;
        }
        String reason = "work request failed: status=" + DisniEndpoint.statusName(status);
        entry.items.forEach(item -> item.failed(reason));
        entry.items.forEach(WorkItem::release); // the queue pair is in error: nothing touches them now
        entry.done.completeExceptionally(new RegionAccessException(reason + ": node=" + peer));
        lost(reason);
    }

    /**
     * A frame arrived (already copied out of its receive buffer); on the CQ thread. Answers to this
     * node's requests complete their futures right here, so a thread waiting for one (even the frame
     * thread, dialling) never waits for itself; everything else is handled on the frame thread, in
     * arrival order.
     */
    void received(byte[] bytes) {
        heard();
        Frame frame;
        try {
            frame = FrameCodec.decode(ByteBuffer.wrap(bytes), bytes.length);
        } catch (IllegalArgumentException e) {
            lost(e.getMessage());
            return;
        }
        boolean answer = frame instanceof Frame.Hello hello && hello.ack() || frame instanceof Frame.RegionInfo
                || frame instanceof Frame.MessageResult
                || frame instanceof Frame.Signal signal && signal.type() == FrameDescriptor.PONG;
        if (answer) {
            CompletableFuture<Frame> reply = replies.remove(frame.requestId());
            if (reply != null) {
                reply.complete(frame);
            }
        } else {
            fabric.onFrameThread(() -> handle(frame));
        }
    }

    /**
     * Ends this connection for {@code reason}; idempotent, from any thread. Fails everything in flight
     * and has the fabric close the endpoint and tell peer listeners.
     */
    void lost(String reason) {
        synchronized (postLock) {
            if (lostBecause != null) {
                return;
            }
            lostBecause = reason;
        }
        for (Long id : List.copyOf(posted.keySet())) {
            Posted entry = forget(id);
            if (entry != null) {
                entry.cancelTimeout();
                sendSlots.release(entry.items.size());
                entry.items.forEach(item -> item.failed(reason));
                entry.done.completeExceptionally(new RegionAccessException(reason + ": node=" + peer));
                synchronized (postLock) {
                    orphans.addAll(entry.items);
                }
            }
        }
        for (Long id : List.copyOf(replies.keySet())) {
            failReply(id, new RegionAccessException(reason + ": node=" + peer));
        }
        order.release(); // what a long write held is posted now and fails fast: lostBecause is set
        fabric.connectionLost(this, reason);
    }

    /** Probes an idle outgoing connection and loses any connection silent for too long; on the timer thread. */
    void heartbeat(long intervalNanos, long lostAfterNanos) {
        if (lostBecause != null) {
            return;
        }
        long silent = System.nanoTime() - lastHeard;
        if (silent > lostAfterNanos) {
            lost("no answer for " + TimeUnit.NANOSECONDS.toMillis(silent) + " ms");
        } else if (outgoing && silent >= intervalNanos) {
            sendNow(new Frame.Signal(fabric.localNode(), nextRequestId(), FrameDescriptor.PING));
        }
    }

    /** Destroys the queue pair and frees what it held; after {@link #lost}, never on DiSNI's threads. */
    void close() {
        endpoint.shutdown();
        synchronized (postLock) {
            orphans.forEach(WorkItem::release);
            orphans.clear();
        }
    }

    @Override
    public String toString() {
        return "Connection[peer=" + peer + ", " + (outgoing ? "outgoing" : "incoming") + ", "
                + (lostBecause == null ? "alive" : "lost: " + lostBecause) + ", inFlight=" + posted.size()
                + ", awaiting=" + replies.size() + ", incarnation=" + Long.toHexString(peerIncarnation) + "]";
    }

    /** Handles a request, a message chunk or a goodbye; on the frame thread. */
    private void handle(Frame frame) {
        if (lostBecause != null) {
            return;
        }
        int local = fabric.localNode();
        if (frame instanceof Frame.Hello hello && !hello.ack()) {
            peer(hello.node(), hello.incarnation());
            send(fabric.helloReceived(this, hello));
        } else if (frame instanceof Frame.RegionLookup lookup) {
            send(fabric.lookUp(lookup));
        } else if (frame instanceof Frame.MessageChunk chunk) {
            MessageAssembly.Assembled message;
            try {
                message = assembly.accept(chunk);
            } catch (IllegalArgumentException e) {
                lost(e.getMessage());
                return;
            }
            if (message != null) {
                String failure = fabric.deliver(peer, message.from(), message.to(), message.payload());
                send(new Frame.MessageResult(local, message.requestId(), failure == null, failure == null ? "" : failure));
            }
        } else if (frame instanceof Frame.Signal signal && signal.type() == FrameDescriptor.PING) {
            sendNow(new Frame.Signal(local, signal.requestId(), FrameDescriptor.PONG));
        } else if (frame instanceof Frame.Signal signal && signal.type() == FrameDescriptor.GOODBYE) {
            lost(NODE_CLOSED);
        }
    }

    private CompletableFuture<Frame> expectReply(long requestId) {
        CompletableFuture<Frame> reply = new CompletableFuture<>();
        replies.put(requestId, reply);
        long timeout = fabric.operationTimeoutMillis();
        Future<?> expiry = fabric.schedule(() -> failReply(requestId, new RegionAccessException("no answer within "
                + timeout + " ms: node=" + peer)), timeout);
        if (expiry != null) {
            reply.whenComplete((answer, failure) -> expiry.cancel(false));
        }
        String lost = lostBecause;
        if (lost != null) { // lost() may have run before the put
            failReply(requestId, new RegionAccessException(lost + ": node=" + peer));
        }
        return reply;
    }

    private void failReply(long requestId, Throwable failure) {
        if (failure != null) {
            CompletableFuture<Frame> reply = replies.remove(requestId);
            if (reply != null) {
                reply.completeExceptionally(failure);
            }
        }
    }

    /** Posts a chain; null on success, else why not. Called holding postLock. */
    private String execute(List<IbvSendWR> requests) {
        SVCPostSend call = null;
        try {
            call = endpoint.postSend(requests);
            for (int i = 0; i < requests.size(); i++) {
                if (AtomicWorkRequests.isAtomic(requests.get(i).getOpcode())) {
                    AtomicWorkRequests.apply(call, i, requests.get(i));
                }
            }
            call.execute();
            return null;
        } catch (IOException | RuntimeException e) {
            return "posting work requests failed: " + e.getMessage();
        } finally {
            if (call != null) {
                call.free();
            }
        }
    }

    private void timedOut(Posted entry) {
        if (!entry.done.isDone()) {
            String reason = "no completion within " + fabric.operationTimeoutMillis() + " ms";
            entry.items.forEach(item -> item.failed(reason));
            entry.done.completeExceptionally(new RegionAccessException(reason + ": node=" + peer));
        }
    }

    private CompletableFuture<Void> fail(List<? extends WorkItem> items, CompletableFuture<Void> done, String reason) {
        items.forEach(item -> item.failed(reason));
        done.completeExceptionally(new RegionAccessException(reason + ": node=" + peer));
        return done;
    }

    /** Takes the chain {@code id} out of the posted ones, or null if it was taken already. */
    private Posted forget(long id) {
        Posted entry = posted.remove(id);
        if (entry != null && entry.readsOrAtomics) {
            readChainsInFlight.decrementAndGet();
        }
        return entry;
    }

    /** A chain in flight. */
    private final class Posted {
        final List<? extends WorkItem> items;
        final CompletableFuture<Void> done;
        final boolean readsOrAtomics;
        volatile Future<?> timeout;

        Posted(List<? extends WorkItem> items, CompletableFuture<Void> done, boolean readsOrAtomics) {
            this.items = items;
            this.done = done;
            this.readsOrAtomics = readsOrAtomics;
        }

        /** Counts the chain among those a later WRITE or SEND must be fenced behind; once posted. */
        void counted() {
            if (readsOrAtomics) {
                readChainsInFlight.incrementAndGet();
            }
        }

        void cancelTimeout() {
            Future<?> pending = timeout;
            if (pending != null) {
                pending.cancel(false);
            }
        }
    }

    /** A control frame to SEND. */
    private static final class FrameItem extends WorkItem {
        private final Frame frame;
        private int length;

        FrameItem(Frame frame) {
            this.frame = frame;
        }

        @Override
        void prepare(BouncePool pool) throws IOException {
            bounce = pool.acquire(FRAME_BYTES);
            length = FrameCodec.encode(frame, bounce.buffer);
        }

        @Override
        IbvSendWR workRequest() {
            return request(IbvSendWR.IBV_WR_SEND, length);
        }

        @Override
        void succeeded() {
        }

        @Override
        void failed(String reason) {
            // the chain's future carries the failure to whoever waits for this frame
        }
    }
}
