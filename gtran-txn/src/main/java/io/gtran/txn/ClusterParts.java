package io.gtran.txn;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import io.gtran.storage.Dictionary;
import io.gtran.storage.ElementIds;
import io.gtran.storage.StoreCapacityException;
import io.gtran.txn.cluster.CommitMessenger;
import io.gtran.txn.cluster.Outcome;
import io.gtran.txn.cluster.Vote;
import io.gtran.txn.cluster.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's side of transactions that span nodes (docs/cluster-transactions.md): as coordinator it
 * sends a transaction's operations on other nodes' elements ({@link #call}); as participant it
 * runs other nodes' transactions' operations here, each under a participant context (a {@link
 * Transaction} with the coordinator's id and begin time, holding this node's part of the read and
 * write sets), and it votes and stamps for them through the {@link CommitMessenger}.
 *
 * <p>Operations go through mailbox {@value #MAILBOX}. A request carries the transaction's id,
 * begin time, isolation and a sequence number; the coordinator sends it again until answered, and
 * a participant answers a repeated sequence number with the reply it gave, so each operation runs
 * once. A participant refuses operations of a transaction it has voted for or finished, and
 * starts no context for a transaction whose begin time is below the GC watermark.
 */
final class ClusterParts implements CommitMessenger.Participant, AutoCloseable {
    static final String MAILBOX = "gtran.ops";
    private static final Logger LOG = LoggerFactory.getLogger(ClusterParts.class);
    private static final int REQUEST = 0;
    private static final int REPLY = 1;
    private static final int PING = 2;
    private static final int HELLO = 3;
    private static final int HELLO_ACK = 4;
    /** Asks the authority for names for a label's or property key's id: not part of any transaction. */
    private static final int NAME = 5;
    private static final int NAME_ACK = 6;
    /** A pushed chain's traversers sent on to their owner, and a node's report to the chain's coordinator (see {@link Chains}). */
    static final int FORWARD = 7;
    static final int RESULT = 8;
    /**
     * The rejoin handshake (docs/cluster-transactions.md, "Rejoining after a partition heals"):
     * REJOIN and REJOIN_ACK carry the sender's incarnation (in the request field), the incarnation
     * it knows of the receiver and its fence; EXCLUDED tells a restarted member that it stays out.
     */
    private static final int REJOIN = 9;
    private static final int REJOIN_ACK = 10;
    private static final int EXCLUDED = 11;
    /** The dictionaries NAME asks about. */
    static final int LABELS = 0;
    static final int PROPERTY_KEYS = 1;
    static final int OK = 0;
    static final int CONFLICT = 1;
    static final int NOT_FOUND = 2;
    static final int ERROR = 3;
    static final int REFUSED = 4;
    /** Whether {@code payload}, sent to mailbox {@value #MAILBOX}, is an operation's request or reply. */
    static boolean isOperation(byte[] payload) {
        return payload.length > 0 && (payload[0] == REQUEST || payload[0] == REPLY || payload[0] == FORWARD || payload[0] == RESULT);
    }

    /** First resend of an unanswered request; doubled up to {@link #MAX_RESEND_MS}. */
    private static final long RESEND_MS = 20;
    private static final long MAX_RESEND_MS = 320;
    private static final long COMMIT_TICK_MS = 20;

    private final TransactionEngine engine;
    private final Fabric fabric;
    private final int node;
    private final Mailbox mailbox;
    private final CommitMessenger messenger;
    private final ExecutorService work;
    private final Thread receiver;
    private final AtomicLong nextRequest = new AtomicLong();
    private final Map<Long, CompletableFuture<byte[]>> waiting = new ConcurrentHashMap<>();
    private final Map<Long, Context> contexts = new ConcurrentHashMap<>();
    private final Set<Integer> lost = ConcurrentHashMap.newKeySet();
    /** When each member was last heard from (System.nanoTime), by node id. */
    private final Map<Integer, Long> lastHeard = new ConcurrentHashMap<>();
    /** Members a message has come from since this node started. */
    private final Set<Integer> heard = ConcurrentHashMap.newKeySet();
    private final Membership members;
    private final Thread heartbeat;
    /** What every member must agree on: the members and the lease (the majority rule relies on both). */
    private final String description;
    /** Members whose description differs from this node's: their operations are refused. */
    private final Set<Integer> foreign = ConcurrentHashMap.newKeySet();
    /** Answers to this node's HELLO: "" when the peer agrees, else how it differs. */
    private final Map<Integer, String> verdicts = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private final Chains chains;
    /** This process's incarnation: random, never 0, sent in every ping (and the request field of rejoin messages). */
    private final long incarnation;
    /** The first incarnation heard from each member. */
    private final Map<Integer, Long> incarnations = new ConcurrentHashMap<>();
    /** Members heard with another incarnation than the first: restarted with a fresh store, out for good. */
    private final Set<Integer> restarted = ConcurrentHashMap.newKeySet();
    /** Members that told this node its incarnation is out (it is the restarted one). */
    private final Set<Integer> excludedBy = ConcurrentHashMap.newKeySet();
    /** When each member now counted lost was counted lost (System.nanoTime). */
    private final Map<Integer, Long> lostAt = new ConcurrentHashMap<>();
    /**
     * Per re-admitted member, its fence: operations and forwards of its transactions that begun at
     * or below it start no part here (they may have had one that was settled without them).
     */
    private final Map<Integer, Long> fences = new ConcurrentHashMap<>();
    private final List<java.util.function.IntConsumer> rejoinListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Set while an {@link #askToRejoin} runs on the work pool: one at a time. */
    private final java.util.concurrent.atomic.AtomicBoolean asking = new java.util.concurrent.atomic.AtomicBoolean();

    /** Another node's transaction here. Its operations run one at a time, under its lock. */
    static final class Context {
        final Transaction txn;
        int lastSeq;
        byte[] lastReply;
        /** Set once an operation here wrote (read by other transactions' validation without the lock). */
        volatile boolean wrote;
        /** Set once VALIDATE entered it in this node's recent committed table. */
        volatile boolean entered;
        /** The ids of the chain forwards taken for it here (see {@link Chains}). */
        final Set<Long> forwards = ConcurrentHashMap.newKeySet();

        Context(Transaction txn) {
            this.txn = txn;
        }
    }

    /** An answer: its status, what the context holds after it, and the result. */
    record Reply(int status, boolean wrote, boolean preReads, Wire.Reader body) {
    }

    ClusterParts(TransactionEngine engine, Fabric fabric) {
        this.engine = engine;
        this.fabric = fabric;
        this.node = fabric.localNode();
        this.members = engine.members();
        this.description = "members=" + members.nodes() + " " + TxnConfig.LEASE_MS + "=" + engine.config().leaseMs;
        this.mailbox = fabric.openMailbox(MAILBOX, 1 << 16);
        long drawn;
        do {
            drawn = new java.security.SecureRandom().nextLong();
        } while (drawn == 0);
        this.incarnation = drawn;
        this.work = Executors.newCachedThreadPool(r -> daemon(r, "gtran-ops-" + node));
        long now = System.nanoTime();
        for (int other : members.others()) {
            lastHeard.put(other, now); // a grace of one lease at start
        }
        fabric.onPeerLost((peer, reason) -> peerLost(peer));
        int lease = engine.config().leaseMs;
        this.messenger = new CommitMessenger(fabric, this, engine.config().remoteTimeoutMs, COMMIT_TICK_MS, this::hasMajority,
                lease + lease / 5, engine.config().decidedKeepMs);
        this.chains = new Chains(this, engine, node, work);
        this.receiver = daemon(this::receive, "gtran-ops-receive-" + node);
        this.heartbeat = daemon(this::beat, "gtran-ops-heartbeat-" + node);
    }

    /** Starts taking messages and sending heartbeats (after the engine has set its dictionaries' authority). */
    void start() {
        receiver.start();
        heartbeat.start();
    }

    /**
     * Sends every other member a ping (with this node's incarnation) five times per lease, so each
     * knows whom it hears from, and REJOIN to each member counted lost that may be taken back.
     */
    private void beat() {
        long interval = Math.max(1, engine.config().leaseMs / 5);
        byte[] ping = new Wire.Writer().putByte(PING).putLong(incarnation).bytes();
        while (!closed) {
            for (int other : members.others()) {
                send(other, ping);
            }
            if (!lost.isEmpty() && asking.compareAndSet(false, true)) {
                // Off this thread: the settled check may wait for a part's record while it validates,
                // and pings must keep going out meanwhile.
                try {
                    work.execute(() -> {
                        try {
                            askToRejoin();
                        } catch (RuntimeException e) {
                            if (!closed) {
                                LOG.warn("node={} could not ask to rejoin", node, e);
                            }
                        } finally {
                            asking.set(false);
                        }
                    });
                } catch (java.util.concurrent.RejectedExecutionException closing) {
                    asking.set(false);
                }
            }
            try {
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Whether this node has heard from a majority of the members (itself included) within the
     * lease: only then does it act on a peer's loss (see {@link CommitMessenger.Quorum}).
     */
    boolean hasMajority() {
        long now = System.nanoTime();
        long lease = TimeUnit.MILLISECONDS.toNanos(engine.config().leaseMs);
        int heard = 1;
        for (int other : members.others()) {
            Long at = lastHeard.get(other);
            if (at != null && now - at < lease && !lost.contains(other)) {
                heard++;
            }
        }
        return heard > members.size() / 2;
    }

    /** The other members this node has heard from within the lease (and at all since it started), not lost. */
    Set<Integer> inContact() {
        long now = System.nanoTime();
        long lease = TimeUnit.MILLISECONDS.toNanos(engine.config().leaseMs);
        Set<Integer> contact = new java.util.TreeSet<>();
        for (int other : members.others()) {
            Long at = lastHeard.get(other);
            if (heard.contains(other) && at != null && now - at < lease && !lost.contains(other)) {
                contact.add(other);
            }
        }
        return contact;
    }

    private static Thread daemon(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    CommitMessenger messenger() {
        return messenger;
    }

    Chains chains() {
        return chains;
    }

    long newRequest() {
        return nextRequest.incrementAndGet();
    }

    /** The other member that owns {@code element}; -1 for this node's, or no member's (an id that is not a gtran element id). */
    int remoteOwner(long element) {
        if (!ElementIds.isWellFormed(element)) {
            return -1;
        }
        int owner = ElementIds.node(element);
        return owner != node && members.nodes().contains(owner) ? owner : -1;
    }

    boolean isLost(int member) {
        return lost.contains(member);
    }

    /** Sends {@code body} to {@code to} as the answer to its request {@code request}. */
    void reply(int to, long request, byte[] body) {
        send(to, new Wire.Writer().putByte(REPLY).putLong(request).putBytes(body).bytes());
    }

    // ------------------------------------------------------------------ coordinator side

    /**
     * Sends operation {@code op} of {@code txn} (sequence number {@code seq}) to node {@code to}
     * and waits for the answer, sending again while none comes.
     *
     * @throws TimeoutException if none came within gtran.txn.remote-timeout-ms, or {@code to} is lost
     */
    Reply call(int to, Transaction txn, int seq, byte[] op) throws TimeoutException {
        return callAll(new int[] {to}, txn, new int[] {seq}, new byte[][] {op})[0];
    }

    /**
     * Runs operation {@code ops[i]} of {@code txn} on node {@code to[i]}, all at once, each request
     * numbered {@code seqs[i]} there, and returns the replies in the same order once all have come.
     *
     * @throws TimeoutException naming the first node that did not answer, or is lost
     */
    Reply[] callAll(int[] to, Transaction txn, int[] seqs, byte[][] ops) throws TimeoutException {
        long[] requests = new long[to.length];
        byte[][] payloads = new byte[to.length][];
        for (int i = 0; i < to.length; i++) {
            requests[i] = nextRequest.incrementAndGet();
            payloads[i] = new Wire.Writer().putByte(REQUEST).putLong(requests[i]).putLong(txn.id()).putLong(txn.beginTime())
                    .putByte(txn.isolation().ordinal()).putInt(seqs[i]).putBytes(ops[i]).bytes();
        }
        byte[][] answers = exchange(to, requests, payloads);
        Reply[] replies = new Reply[to.length];
        for (int i = 0; i < to.length; i++) {
            Wire.Reader in = new Wire.Reader(answers[i]);
            replies[i] = new Reply(in.getByte(), in.getBoolean(), in.getBoolean(), in);
        }
        return replies;
    }

    /**
     * Sends each {@code payloads[i]} (whose request id is {@code requests[i]}) to node {@code to[i]}
     * until its answer comes, all at once: those unanswered are resent after 20 ms, then after twice
     * as long each time, up to 320 ms apart.
     *
     * @throws TimeoutException if one did not come within gtran.txn.remote-timeout-ms, or its node is lost
     * @throws IllegalStateException if this node is closed
     */
    @SuppressWarnings("unchecked")
    byte[][] exchange(int[] to, long[] requests, byte[][] payloads) throws TimeoutException {
        CompletableFuture<byte[]>[] answers = new CompletableFuture[to.length];
        for (int i = 0; i < to.length; i++) {
            answers[i] = new CompletableFuture<>();
            waiting.put(requests[i], answers[i]);
        }
        try {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(engine.config().remoteTimeoutMs);
            long resend = RESEND_MS;
            CompletableFuture<Void> all = CompletableFuture.allOf(answers);
            while (true) {
                for (int i = 0; i < to.length; i++) {
                    if (answers[i].isDone()) {
                        continue;
                    }
                    if (lost.contains(to[i])) {
                        throw new TimeoutException("node " + to[i] + " is lost");
                    }
                    if (closed) {
                        throw new IllegalStateException("transaction engine is closed: node=" + node);
                    }
                    send(to[i], payloads[i]);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new TimeoutException("node " + firstUnanswered(to, answers) + " did not answer within "
                            + TxnConfig.REMOTE_TIMEOUT_MS + "=" + engine.config().remoteTimeoutMs + " ms");
                }
                try {
                    all.get(Math.min(TimeUnit.MILLISECONDS.toNanos(resend), left), TimeUnit.NANOSECONDS);
                    byte[][] result = new byte[to.length][];
                    for (int i = 0; i < to.length; i++) {
                        result[i] = answers[i].join();
                    }
                    return result;
                } catch (TimeoutException notYet) {
                    resend = Math.min(resend * 2, MAX_RESEND_MS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TimeoutException("interrupted while waiting for node " + firstUnanswered(to, answers));
                } catch (ExecutionException e) {
                    throw new IllegalStateException(e.getCause());
                }
            }
        } finally {
            for (long request : requests) {
                waiting.remove(request);
            }
        }
    }

    private byte[] exchange(int to, long request, byte[] payload) throws TimeoutException {
        return exchange(new int[] {to}, new long[] {request}, new byte[][] {payload})[0];
    }

    private static int firstUnanswered(int[] to, CompletableFuture<byte[]>[] answers) {
        for (int i = 0; i < to.length; i++) {
            if (!answers[i].isDone()) {
                return to[i];
            }
        }
        return to[0];
    }

    // ------------------------------------------------------------------ names

    /**
     * The id that node {@code authority} gives {@code name} in its dictionary {@code dictionary}
     * ({@link #LABELS} or {@link #PROPERTY_KEYS}): interning it there if {@code create}, else
     * {@link Dictionary#ABSENT} if it was never interned. Asking is idempotent, so it is sent again
     * until answered, as {@link #call} does.
     *
     * @throws IllegalStateException naming the name, the dictionary, the authority and the reason
     *         if the authority did not answer within gtran.txn.remote-timeout-ms, is lost, or refused
     * @throws StoreCapacityException if the authority's dictionary is full
     */
    int nameId(int authority, int dictionary, String name, boolean create) {
        long request = nextRequest.incrementAndGet();
        byte[] payload = new Wire.Writer().putByte(NAME).putLong(request).putByte(dictionary).putBoolean(create)
                .putString(name).bytes();
        String what = (dictionary == LABELS ? "label '" : "property key '") + name + "'";
        byte[] answer;
        try {
            answer = exchange(authority, request, payload);
        } catch (TimeoutException e) {
            throw new IllegalStateException("node " + node + " cannot " + (create ? "intern " : "look up ") + what
                    + ": node " + authority + ", the authority for names, did not answer: " + e.getMessage());
        }
        Wire.Reader in = new Wire.Reader(answer);
        if (in.getByte() == OK) {
            return in.getInt();
        }
        String type = in.getString();
        String reason = in.getString();
        if (type.equals(StoreCapacityException.class.getName())) {
            throw new StoreCapacityException("node " + authority + ", the authority for names: " + reason);
        }
        throw new IllegalStateException("node " + node + " cannot " + (create ? "intern " : "look up ") + what + ": node "
                + authority + ", the authority for names, refused: " + type + ": " + reason);
    }

    /** Answers NAME from this node's own dictionary, which is the cluster's if this node is the authority. */
    private byte[] serveName(int from, Wire.Reader in) {
        int dictionary = in.getByte();
        boolean create = in.getBoolean();
        String name = in.getString();
        try {
            if (foreign.contains(from)) {
                throw new IllegalStateException("node " + node + " refuses node " + from + ": their cluster descriptions differ");
            }
            if (engine.nameAuthority() != node) {
                throw new IllegalStateException("node " + node + " is not the authority for names; node "
                        + engine.nameAuthority() + " is");
            }
            Dictionary names = dictionary == LABELS ? engine.store().labels() : engine.store().propertyKeys();
            return new Wire.Writer().putByte(OK).putInt(names.answer(name, create)).bytes();
        } catch (RuntimeException e) {
            return new Wire.Writer().putByte(ERROR).putString(e.getClass().getName()).putString(String.valueOf(e.getMessage()))
                    .bytes();
        }
    }

    private void send(int to, byte[] payload) {
        try {
            mailbox.send(to, MAILBOX, payload); // a lost message shows as a missing answer: sent again
        } catch (IllegalStateException e) {
            LOG.debug("node={} could not send to node {}: {}", node, to, e.getMessage());
        }
    }

    // ------------------------------------------------------------------ joining

    /**
     * Compares this node's cluster description with every member that is up: each is sent HELLO
     * and answers whether its own differs. Waits for the answers of the members whose HELLO could
     * be delivered (a member not started yet compares when it starts), at most
     * gtran.txn.remote-timeout-ms.
     *
     * @throws IllegalStateException naming the member and both descriptions if one differs
     */
    void join() {
        byte[] hello = new Wire.Writer().putByte(HELLO).putLong(incarnation).putString(description).bytes();
        Map<Integer, CompletableFuture<Void>> sent = new java.util.TreeMap<>();
        for (int other : members.others()) {
            try {
                sent.put(other, mailbox.send(other, MAILBOX, hello));
            } catch (RuntimeException notUp) {
                // not started yet: it compares when it does
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(engine.config().remoteTimeoutMs);
        for (Map.Entry<Integer, CompletableFuture<Void>> e : sent.entrySet()) {
            int other = e.getKey();
            while (!verdicts.containsKey(other) && !e.getValue().isCompletedExceptionally() && System.nanoTime() < deadline) {
                LockSupport.parkNanos(200_000);
            }
            String verdict = verdicts.get(other);
            if (verdict != null && !verdict.isEmpty()) {
                throw new IllegalStateException("node " + node + " cannot join: node " + other + " describes the cluster"
                        + " differently (" + verdict + "); start every node with the same " + Membership.NODES + " and "
                        + TxnConfig.LEASE_MS);
            }
        }
    }

    private void hello(int from, int type, String theirs) {
        if (type == HELLO_ACK) {
            verdicts.put(from, theirs);
            return;
        }
        String verdict = theirs.equals(description) ? "" : "node " + from + ": " + theirs + "; node " + node + ": " + description;
        if (verdict.isEmpty()) {
            foreign.remove(from); // a node started again, this time as described
        } else {
            foreign.add(from);
            LOG.error("node={} refuses node {}: its cluster description differs ({})", node, from, verdict);
        }
        send(from, new Wire.Writer().putByte(HELLO_ACK).putLong(incarnation).putString(verdict).bytes());
    }

    // ------------------------------------------------------------------ participant side

    private void receive() {
        while (!closed) {
            Message message;
            try {
                message = mailbox.receive(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            } catch (IllegalStateException closedForGood) {
                // The mailbox or its fabric is closed (Mailbox#receive), for good: nothing arrives any more.
                if (!closed) {
                    LOG.warn("node={} stops taking operation messages: {}", node, closedForGood.getMessage());
                }
                return;
            }
            if (message == null) {
                continue;
            }
            try {
                Wire.Reader in = new Wire.Reader(message.payload());
                int type = in.getByte();
                long request = in.getLong();
                lastHeard.put(message.fromNode(), System.nanoTime());
                heard.add(message.fromNode());
                if (type == PING) {
                    pinged(message.fromNode(), request);
                    continue;
                }
                if (type == REJOIN || type == REJOIN_ACK) {
                    int from = message.fromNode();
                    long mine = in.getLong();
                    long theirFence = in.getLong();
                    long heardAt = System.nanoTime();
                    work.execute(() -> rejoin(from, type, request, mine, theirFence, heardAt)); // the settled check may wait
                    continue;
                }
                if (type == EXCLUDED) {
                    excluded(message.fromNode(), in.getLong());
                    continue;
                }
                if (type == HELLO || type == HELLO_ACK) {
                    pinged(message.fromNode(), request);
                    hello(message.fromNode(), type, in.getString());
                    continue;
                }
                if (type == REPLY || type == NAME_ACK) {
                    CompletableFuture<byte[]> answer = waiting.get(request);
                    if (answer != null) {
                        answer.complete(in.getBytes());
                    }
                } else if (type == FORWARD) {
                    chains.forward(message.fromNode(), request, in);
                } else if (type == RESULT) {
                    chains.result(message.fromNode(), request, in);
                } else if (type == NAME) {
                    int from = message.fromNode();
                    work.execute(() -> send(from, new Wire.Writer().putByte(NAME_ACK).putLong(request)
                            .putBytes(serveName(from, in)).bytes()));
                } else {
                    int from = message.fromNode();
                    work.execute(() -> {
                        byte[] reply = serve(from, in);
                        if (reply != null) {
                            send(from, new Wire.Writer().putByte(REPLY).putLong(request).putBytes(reply).bytes());
                        }
                    });
                }
            } catch (RuntimeException e) {
                if (closed) {
                    return;
                }
                LOG.warn("node={} operation message could not be handled", node, e);
            }
        }
    }

    /** Runs a request here; returns the reply, or null for a stale duplicate (nobody waits for it). */
    private byte[] serve(int from, Wire.Reader in) {
        long txnId = in.getLong();
        long beginTime = in.getLong();
        Isolation isolation = Isolation.values()[in.getByte()];
        int seq = in.getInt();
        byte[] op = in.getBytes();
        if (foreign.contains(from)) {
            return refused("node " + node + " refuses node " + from + ": their cluster descriptions differ");
        }
        if (lost.contains(from)) {
            return refused("node " + node + " counts node " + from + " as lost and takes no more of its operations;"
                    + " its transactions there were settled without it");
        }
        if (TxnWords.node(txnId) != from) {
            return refused("node " + from + " sent an operation of " + TxnWords.toString(txnId) + ", which node "
                    + TxnWords.node(txnId) + " coordinates");
        }
        Context context;
        try {
            context = contextFor(txnId, beginTime, isolation);
        } catch (Chains.Refusal refusal) {
            return refused(refusal.getMessage());
        }
        synchronized (context) {
            if (seq == context.lastSeq) {
                return context.lastReply;
            }
            if (seq < context.lastSeq) {
                return null;
            }
            if (!messenger.acceptsOperations(txnId) || contexts.get(txnId) != context) {
                if (context.lastSeq == 0) {
                    contexts.remove(txnId, context); // made for a first operation that raced the decision: nothing to undo
                }
                return refused(TxnWords.toString(txnId) + " no longer takes operations at node " + node
                        + " (it is validating or has finished)");
            }
            byte[] reply = run(context, op);
            context.lastSeq = seq;
            context.lastReply = reply;
            return reply;
        }
    }

    /**
     * {@code txnId}'s part here, made if there is none (its coordinator's loss aborts it from then).
     *
     * @throws Chains.Refusal if this node is closing, or the transaction finished here or began
     *         below the GC watermark
     */
    private Context contextFor(long txnId, long beginTime, Isolation isolation) throws Chains.Refusal {
        Context context = contexts.get(txnId);
        if (context == null) {
            if (closed || engine.isClosed()) {
                throw new Chains.Refusal("node " + node + " is closing");
            }
            String fenced = fenced(TxnWords.node(txnId), beginTime);
            if (fenced != null) {
                throw new Chains.Refusal(fenced);
            }
            messenger.open(txnId); // from here, the coordinator's loss aborts the part
            if (!messenger.acceptsOperations(txnId) || beginTime < engine.lastWatermark()) {
                throw new Chains.Refusal(TxnWords.toString(txnId) + " has finished at node " + node);
            }
            context = contexts.computeIfAbsent(txnId, id -> new Context(new Transaction(engine, id, beginTime, isolation, true)));
            if (!messenger.acceptsOperations(txnId)) {
                // decided between the check and the put: its apply may have run already, so nothing else removes this one
                if (context.lastSeq == 0 && context.forwards.isEmpty()) {
                    contexts.remove(txnId, context);
                }
                throw new Chains.Refusal(TxnWords.toString(txnId) + " has finished at node " + node);
            }
        }
        return context;
    }

    /** {@link #contextFor}, for a chain's forward from {@code from}, which need not be the coordinator. */
    Context contextForForward(int from, long txnId, long beginTime, Isolation isolation) throws Chains.Refusal {
        int coordinator = TxnWords.node(txnId);
        if (foreign.contains(from)) {
            throw new Chains.Refusal("node " + node + " refuses node " + from + ": their cluster descriptions differ");
        }
        if (lost.contains(from) || lost.contains(coordinator)) {
            throw new Chains.Refusal("node " + node + " counts node " + (lost.contains(from) ? from : coordinator)
                    + " as lost and takes no more of its operations");
        }
        if (!members.others().contains(coordinator)) {
            throw new Chains.Refusal("node " + from + " forwarded a chain of " + TxnWords.toString(txnId) + ", whose node "
                    + coordinator + " is not another member");
        }
        return contextFor(txnId, beginTime, isolation);
    }

    /** Why {@code context} (held) takes no more operations, or null if it does. */
    String refusesOperations(Context context) {
        long txnId = context.txn.id();
        if (!messenger.acceptsOperations(txnId) || contexts.get(txnId) != context) {
            return TxnWords.toString(txnId) + " no longer takes operations at node " + node + " (it is validating or has finished)";
        }
        return null;
    }

    private byte[] run(Context context, byte[] op) {
        Transaction txn = context.txn;
        Wire.Writer body = new Wire.Writer();
        int status;
        try {
            RemoteOp.execute(txn, engine.store(), new Wire.Reader(op), body);
            status = OK;
        } catch (TransactionConflictException e) {
            status = CONFLICT;
            body = new Wire.Writer().putByte(e.kind().ordinal()).putLong(e.otherTransaction()).putString(e.on())
                    .putString(e.detail());
        } catch (ElementNotFoundException e) {
            status = NOT_FOUND;
            body = new Wire.Writer().putString(e.getMessage()).putLong(e.elementId());
        } catch (RuntimeException e) {
            status = ERROR;
            body = new Wire.Writer().putString(e.getClass().getName()).putString(e.getMessage());
        }
        if (!txn.isReadOnly()) {
            context.wrote = true;
        }
        return new Wire.Writer().putByte(status).putBoolean(context.wrote).putBoolean(!txn.preReadDependencies.isEmpty())
                .putBytes(body.bytes()).bytes();
    }

    private static byte[] refused(String reason) {
        return new Wire.Writer().putByte(REFUSED).putBoolean(false).putBoolean(false)
                .putBytes(new Wire.Writer().putString(reason).bytes()).bytes();
    }

    /**
     * The other nodes' transactions that wrote here and are not entered in this node's recent
     * committed table yet, for validation here (see CommitProtocol).
     */
    List<Transaction> unenteredWriters(long except) {
        List<Transaction> writers = new ArrayList<>();
        for (Context context : contexts.values()) {
            if (context.wrote && !context.entered && context.txn.id() != except) {
                writers.add(context.txn);
            }
        }
        return writers;
    }

    @Override
    public Vote validate(long txn, long commitTime) {
        Context context = contexts.get(txn);
        if (context == null) {
            return Vote.NO; // aborted here, or never ran here
        }
        synchronized (context) {
            boolean yes = new CommitProtocol(context.txn).voteAsParticipant(commitTime, () -> context.entered = true);
            return yes ? Vote.YES : Vote.NO;
        }
    }

    @Override
    public void apply(long txn, Outcome outcome, long commitTime) {
        Context context = contexts.remove(txn);
        if (context == null) {
            return;
        }
        synchronized (context) {
            new CommitProtocol(context.txn).finishAsParticipant(outcome == Outcome.COMMIT, commitTime);
        }
    }

    private void peerLost(int peer) {
        Runnable count = () -> {
            // A member lost before this node heard its incarnation can never be told from a restart of it:
            // 0, which no incarnation is, makes every incarnation heard later a restart.
            incarnations.putIfAbsent(peer, 0L);
            lostAt.putIfAbsent(peer, System.nanoTime());
            lost.add(peer);
        };
        CommitMessenger m = messenger;
        if (m == null) {
            count.run(); // reported while this node was being built
        } else {
            m.reported(peer, count); // ordered against re-admissions: one that runs after sees this report
        }
    }

    // ------------------------------------------------------------------ rejoining

    /** Tells {@code listener} the id of each member re-admitted (on a receive thread; it must not block). */
    void onRejoin(java.util.function.IntConsumer listener) {
        rejoinListeners.add(listener);
    }

    /** This process's incarnation. */
    long incarnation() {
        return incarnation;
    }

    /** Notes the incarnation a ping or HELLO of {@code from} carried; another than the first means it restarted. */
    private void pinged(int from, long theirs) {
        Long first = incarnations.putIfAbsent(from, theirs);
        if (first != null && first != theirs) {
            if (restarted.add(from)) {
                LOG.warn("node {}: member {} restarted (incarnation {} after {}): its store is new, so it stays out;"
                        + " restart the cluster to take it back", node, from, Long.toHexString(theirs), Long.toHexString(first));
                peerLost(from);
                messenger.forget(from);
            }
        }
        if (restarted.contains(from)) {
            send(from, new Wire.Writer().putByte(EXCLUDED).putLong(incarnation).putLong(theirs).bytes());
        }
    }

    /** REJOIN to each member counted lost, heard again lately with its known incarnation, with which this node is settled. */
    private void askToRejoin() {
        long now = System.nanoTime();
        long lease = TimeUnit.MILLISECONDS.toNanos(engine.config().leaseMs);
        for (int other : lost) {
            Long theirs = incarnations.get(other);
            Long at = lastHeard.get(other);
            Long since = lostAt.get(other);
            if (theirs == null || at == null || now - at >= lease || (since != null && at - since <= 0)
                    || restarted.contains(other) || excludedBy.contains(other)) {
                // not heard since it was counted lost (or not lately), or another process: nothing to ask
                continue;
            }
            if (messenger.settledWith(other)) {
                send(other, new Wire.Writer().putByte(REJOIN).putLong(incarnation).putLong(theirs).putLong(fence()).bytes());
            }
        }
    }

    /** A bound on the begin times of every transaction begun here so far: the clock's last timestamp. */
    private long fence() {
        return engine.clock().current();
    }

    /** REJOIN or REJOIN_ACK from {@code from}, of incarnation {@code theirs}, knowing this node as {@code mine}. */
    private void rejoin(int from, int type, long theirs, long mine, long theirFence, long heardAt) {
        if (mine != incarnation || restarted.contains(from) || !Long.valueOf(theirs).equals(incarnations.get(from))) {
            return; // not between these two processes: a restarted member, or a message for this node's predecessor
        }
        if (type == REJOIN_ACK) {
            if (lost.contains(from)) {
                readmit(from, theirFence, heardAt);
            }
            return;
        }
        if (lost.contains(from) && !readmit(from, theirFence, heardAt)) {
            return; // not settled with it yet: it asks again
        }
        send(from, new Wire.Writer().putByte(REJOIN_ACK).putLong(incarnation).putLong(theirs).putLong(fence()).bytes());
    }

    private boolean readmit(int peer, long theirFence, long heardAt) {
        return messenger.readmit(peer, heardAt, () -> {
            fences.merge(peer, theirFence, Math::max); // before it leaves the lost set: no old operation slips in
            if (!lost.remove(peer)) {
                return; // a repeated REJOIN handled concurrently: re-admitted already
            }
            Long since = lostAt.remove(peer);
            long millis = since == null ? 0 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
            LOG.warn("node {}: member {} rejoined after {} ms lost", node, peer, millis);
            for (java.util.function.IntConsumer listener : rejoinListeners) {
                listener.accept(peer);
            }
        });
    }

    /** A member told this node that its incarnation is out: it restarted, and the member counts it lost for good. */
    private void excluded(int from, long mine) {
        if (mine == incarnation && excludedBy.add(from)) {
            LOG.error("node {}: member {} excludes this process: it counted an earlier process under id {} lost, and this"
                    + " one's store is new; restart the cluster to take this node back", node, from, node);
            peerLost(from);
        }
    }

    /** Why a transaction of {@code coordinator} begun at {@code beginTime} may start no part here, or null. */
    private String fenced(int coordinator, long beginTime) {
        Long fence = fences.get(coordinator);
        if (fence != null && beginTime <= fence) {
            return "node " + node + " counted node " + coordinator + " lost after this transaction began, and may have settled"
                    + " its part here without it: it takes no operation of it (begin time " + beginTime + " <= fence " + fence + ")";
        }
        return null;
    }

    /** Participant contexts held here. */
    int contexts() {
        return contexts.size();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        messenger.close();
        receiver.interrupt();
        heartbeat.interrupt();
        work.shutdownNow();
        mailbox.close();
    }
}
