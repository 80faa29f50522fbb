package io.gtran.txn;

import io.gtran.rdma.Fabric;
import io.gtran.storage.Dictionary;
import io.gtran.storage.ElementIds;
import io.gtran.storage.StoreCapacityException;
import io.gtran.txn.agent.AgentHandle;
import io.gtran.txn.commit.CommitMessenger;
import io.gtran.txn.common.ElementNotFoundException;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.ReplyTooLargeException;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.durable.CommitLog;
import io.gtran.txn.durable.ImageVotes;
import io.gtran.txn.durable.LogWriteException;
import io.gtran.txn.durable.RedoRecord;
import io.gtran.txn.membership.HeardMajority;
import io.gtran.txn.membership.LossQuorum;
import io.gtran.txn.membership.MemberGroup;
import io.gtran.txn.membership.MemberView;
import io.gtran.txn.membership.Membership;
import io.gtran.txn.membership.MembershipLog;
import io.gtran.txn.protocol.Family;
import io.gtran.txn.protocol.NodeMailbox;
import io.gtran.txn.protocol.Op;
import io.gtran.txn.protocol.OpsMessage;
import io.gtran.txn.protocol.Outcome;
import io.gtran.txn.protocol.Vote;
import io.gtran.txn.protocol.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's side of transactions that span nodes (docs/cluster-transactions.md): as coordinator it
 * sends a transaction's operations on other nodes' elements ({@link #callAll}); as participant it
 * runs other nodes' transactions' operations here, each under a participant context (a {@link
 * Transaction} with the coordinator's id and begin time, holding this node's part of the read and
 * write sets), and it votes and stamps for them through the {@link CommitMessenger}.
 *
 * <p>It holds the node's one mailbox ({@link NodeMailbox}): operations, membership's messages, the
 * commit protocol's and the clock's all arrive through its one receive path. A request carries the transaction's id,
 * begin time, isolation and a sequence number; the coordinator sends it again until answered, and
 * a participant answers a repeated sequence number with the reply it gave, so each operation runs
 * once. A participant refuses operations of a transaction it has voted for or finished, and
 * starts no context for a transaction whose begin time is below the GC watermark.
 */
final class ClusterParts implements CommitMessenger.Participant, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterParts.class);
    /** The dictionaries a {@link OpsMessage.Name} asks about. */
    static final int LABELS = 0;
    static final int PROPERTY_KEYS = 1;
    /** Whether {@code payload}, sent to a node's mailbox, is an operation's request or reply, or a chain's. */
    static boolean isOperation(byte[] payload) {
        return Family.of(payload) == Family.OPS && OpsMessage.isOperation(payload[0]);
    }

    /** First look at an unanswered request; doubled up to {@link #MAX_RESEND_MS}. */
    private static final long RESEND_MS = 20;
    private static final long MAX_RESEND_MS = 320;
    /**
     * How long a request the fabric delivered (or is still delivering) waits for its answer before it
     * is sent again: a delivered request is answered unless a node or a connection is lost, so sooner
     * would only repeat it on a loaded node (docs/cluster-transactions.md, "Execution").
     */
    private static final long LATE_NANOS = TimeUnit.MILLISECONDS.toNanos(MAX_RESEND_MS);
    private static final long COMMIT_TICK_MS = 20;

    private final TransactionEngine engine;
    private final Fabric fabric;
    private final int node;
    private final NodeMailbox mailbox;
    private final CommitMessenger messenger;
    private final ExecutorService work;
    private final AtomicLong nextRequest = new AtomicLong();
    /** Requests sent and not yet answered: each answer, read past its header, goes to whoever waits. */
    private final Map<Long, CompletableFuture<Wire.Reader>> waiting = new ConcurrentHashMap<>();
    private final Map<Long, Context> contexts = new ConcurrentHashMap<>();
    private final Membership members;
    private final MemberView view;
    private volatile AgentHandle heartbeat;
    /** The membership group's log and this node's part of the group, or null (a cluster in one JVM). */
    private final MembershipLog groupLog;
    private final MemberGroup group;
    private volatile AgentHandle groupAgent;
    private volatile boolean closed;
    private final Chains chains;
    /** This node's commits the next request to each participant carries (docs: "Decisions carried"). */
    private final CarriedCommits carried;

    /** Another node's transaction here. Its operations run one at a time, under its lock. */
    /** Parts a restart found in doubt: what settles each (see {@link #settle}). */
    private final Map<Long, Consumer<Outcome>> restoredParts = new ConcurrentHashMap<>();
    /** True while this node restores its store from its log: it takes no other member's operation then. */
    private volatile boolean restoring;

    static final class Context {
        final ParticipantPart txn;
        int lastSeq;
        OpsMessage.Answer lastReply;
        /** Set once an operation here wrote (read by other transactions' validation without the lock). */
        volatile boolean wrote;
        /** Set once VALIDATE entered it in this node's recent committed table. */
        volatile boolean entered;
        /** Set once its YES vote is in this node's log: its decision is logged before it is applied. */
        volatile boolean voteLogged;
        /** The ids of the chain forwards taken for it here (see {@link Chains}). */
        final Set<Long> forwards = ConcurrentHashMap.newKeySet();

        Context(ParticipantPart txn) {
            this.txn = txn;
        }
    }

    /**
     * @param groupLog the membership group's log that decides losses ({@link MemberGroup}), or null
     *     for a cluster in one JVM, whose members decide by {@link HeardMajority}
     */
    ClusterParts(TransactionEngine engine, Fabric fabric, MembershipLog groupLog) {
        this.engine = engine;
        this.fabric = fabric;
        this.node = fabric.localNode();
        this.members = engine.members();
        this.mailbox = new NodeMailbox(fabric, engine.agents());
        this.work = engine.agents().workers("ops-" + node);
        int lease = engine.config().leaseMs;
        String description = "members=" + members.nodes() + " " + TxnConfig.LEASE_MS + "=" + lease;
        this.view = new MemberView(node, members.others(), lease, description, engine.time(),
                this::send, work, () -> engine.clock().fenceSent());
        fabric.onPeerLost(view::peerLost); // the only subscriber: the rest are told by the view
        mailbox.onHeard(view::heard);
        mailbox.on(Family.MEMBER, view::onMessage);
        mailbox.on(Family.OPS, this::onMessage);
        mailbox.onArrival(Family.OPS, this::onArrival);
        this.groupLog = groupLog;
        this.group = groupLog == null ? null : new MemberGroup(view, node, members.nodes(), groupLog, lease);
        LossQuorum quorum = group != null ? group : new HeardMajority(view);
        this.messenger = new CommitMessenger(mailbox, this, engine.config().remoteTimeoutMs, COMMIT_TICK_MS, quorum,
                lease + lease / 5, engine.config().decidedKeepMs, engine.agents());
        view.attach(messenger);
        messenger.onActedOn(view::actedOn);
        this.chains = new Chains(this, engine, node, work);
        this.carried = new CarriedCommits(node);
    }

    /** Starts taking messages and sending heartbeats (after the engine has set its dictionaries' authority). */
    void start() {
        if (group != null) {
            try {
                group.start(); // an applied loss counts before any message of the lost member is taken
            } catch (RuntimeException e) {
                close(); // the Ratis server could not start (a port taken, a directory not writable): it names why
                throw e;
            }
            groupAgent = engine.agents().start(group.agent());
        }
        mailbox.start();
        heartbeat = engine.agents().start(view.heartbeat());
    }

    /** The membership group, for {@code status}; null for a cluster in one JVM. */
    MemberGroup group() {
        return group;
    }

    /** The node's one mailbox, for the roles outside the transaction engine (the clock's synchronisation). */
    NodeMailbox mailbox() {
        return mailbox;
    }

    /** This node's view of the members: whom it hears from, whom it counts lost. */
    MemberView view() {
        return view;
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
        return view.isLost(member);
    }

    /** Tells {@code to} that its chain message {@code request} was taken, or refused ({@code refusal}: why). */
    void acknowledge(int to, long request, String refusal) {
        send(to, OpsMessage.encode(new OpsMessage.ChainAck(request, refusal)));
    }

    // ------------------------------------------------------------------ coordinator side

    /**
     * Runs operation {@code ops[i]} of {@code txn} on node {@code to[i]}, all at once, each request
     * numbered {@code seqs[i]} there, and returns the replies in the same order once all have come.
     *
     * @throws TimeoutException naming the first node that did not answer, or is lost
     */
    OpsMessage.Answer[] callAll(int[] to, Transaction txn, int[] seqs, byte[][] ops) throws TimeoutException {
        long[] requests = new long[to.length];
        byte[][] payloads = new byte[to.length][];
        for (int i = 0; i < to.length; i++) {
            requests[i] = nextRequest.incrementAndGet();
            payloads[i] = OpsMessage.encode(new OpsMessage.Request(requests[i], txn.id(), txn.beginTime(), txn.isolation(), seqs[i], ops[i],
                    carried.take(to[i])));
        }
        Wire.Reader[] answers = exchange(to, requests, payloads,
                i -> "operation " + Op.typeName(ops[i]) + " of " + TxnWords.toString(txn.id()) + " in");
        OpsMessage.Answer[] replies = new OpsMessage.Answer[to.length];
        for (int i = 0; i < to.length; i++) {
            replies[i] = OpsMessage.answerOf(answers[i]);
        }
        return replies;
    }

    /**
     * {@code txn}, which this node coordinates, committed at {@code commitTime} (its status says so
     * here): the next request to each of {@code participants} carries it, so a participant that
     * meets its id before its DECIDE arrives need not read its status here.
     */
    void committed(long txn, long commitTime, int[] participants) {
        carried.committed(txn, commitTime, participants);
    }

    /**
     * Sends each {@code payloads[i]} (whose request id is {@code requests[i]}) to node {@code to[i]}
     * until its answer comes, all at once. Those unanswered are looked at after 20 ms, then after
     * twice as long each time, up to 320 ms apart, and when the oldest becomes {@value
     * #MAX_RESEND_MS} ms old; each is sent again if the fabric failed to deliver it or it went that
     * long ago ({@link #mayBeLost}).
     *
     * @throws TimeoutException if one did not come within gtran.txn.remote-timeout-ms, or its node is lost
     * @throws IllegalStateException if this node is closed
     * @throws IllegalArgumentException if a payload is longer than one message carries; then none was sent
     */
    Wire.Reader[] exchange(int[] to, long[] requests, byte[][] payloads) throws TimeoutException {
        return exchange(to, requests, payloads, i -> "");
    }

    /** {@link #exchange(int[], long[], byte[][])}, a payload too long named by {@code what} (words before "a message"). */
    @SuppressWarnings("unchecked")
    private Wire.Reader[] exchange(int[] to, long[] requests, byte[][] payloads, IntFunction<String> what) throws TimeoutException {
        for (int i = 0; i < to.length; i++) {
            if (payloads[i].length > fabric.maxMessageBytes()) {
                String named = what.apply(i);
                throw new IllegalArgumentException("node " + node + " cannot send node " + to[i] + " " + named
                        + (named.isEmpty() ? "" : " ") + "a message of " + payloads[i].length + " bytes, more than the "
                        + fabric.maxMessageBytes() + " one message carries; nothing was sent");
            }
        }
        CompletableFuture<Wire.Reader>[] answers = new CompletableFuture[to.length];
        CompletableFuture<Void>[] sent = new CompletableFuture[to.length];
        long[] sentNanos = new long[to.length];
        for (int i = 0; i < to.length; i++) {
            answers[i] = new CompletableFuture<>();
            waiting.put(requests[i], answers[i]);
        }
        try {
            long deadline = engine.time().nanos() + TimeUnit.MILLISECONDS.toNanos(engine.config().remoteTimeoutMs);
            long resend = RESEND_MS;
            CompletableFuture<Void> all = CompletableFuture.allOf(answers);
            while (true) {
                long now = engine.time().nanos();
                long untilLate = Long.MAX_VALUE; // until the oldest unanswered request is late: looked at then
                for (int i = 0; i < to.length; i++) {
                    if (answers[i].isDone()) {
                        continue;
                    }
                    if (view.isLost(to[i])) {
                        throw new TimeoutException("node " + to[i] + " is lost");
                    }
                    if (closed) {
                        throw new IllegalStateException("transaction engine is closed: node=" + node);
                    }
                    if (sent[i] == null || mayBeLost(sent[i], now - sentNanos[i])) {
                        sent[i] = send(to[i], payloads[i]);
                        sentNanos[i] = now;
                    }
                    untilLate = Math.min(untilLate, sentNanos[i] + LATE_NANOS - now);
                }
                long left = deadline - engine.time().nanos();
                if (left <= 0) {
                    throw new TimeoutException("node " + firstUnanswered(to, answers) + " did not answer within "
                            + TxnConfig.REMOTE_TIMEOUT_MS + "=" + engine.config().remoteTimeoutMs + " ms");
                }
                try {
                    long wait = Math.min(Math.min(TimeUnit.MILLISECONDS.toNanos(resend), Math.max(0, untilLate)), left);
                    all.get(wait, TimeUnit.NANOSECONDS);
                    Wire.Reader[] result = new Wire.Reader[to.length];
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

    /**
     * Whether a request sent {@code agoNanos} ago, whose send is {@code sent}, may not have reached its
     * node or its answer may be lost: the fabric failed to deliver it (a dropped message, a broken
     * connection), or it is {@link #LATE_NANOS} old (a loss nothing reported, such as a message
     * dropped by a node still starting). One the fabric delivered, or is still delivering, is not
     * sent again sooner: the owner answers a repeat from its last reply, but a loaded node would
     * still decode, queue and answer it.
     */
    static boolean mayBeLost(CompletableFuture<Void> sent, long agoNanos) {
        return sent.isCompletedExceptionally() || agoNanos >= LATE_NANOS;
    }

    private Wire.Reader exchange(int to, long request, byte[] payload) throws TimeoutException {
        return exchange(new int[] {to}, new long[] {request}, new byte[][] {payload})[0];
    }

    private static int firstUnanswered(int[] to, CompletableFuture<Wire.Reader>[] answers) {
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
     * until answered, as {@link #callAll} does.
     *
     * @throws IllegalStateException naming the name, the dictionary, the authority and the reason
     *         if the authority did not answer within gtran.txn.remote-timeout-ms, is lost, or refused
     * @throws StoreCapacityException if the authority's dictionary is full
     */
    int nameId(int authority, int dictionary, String name, boolean create) {
        long request = nextRequest.incrementAndGet();
        byte[] payload = OpsMessage.encode(new OpsMessage.Name(request, dictionary, create, name));
        String what = (dictionary == LABELS ? "label '" : "property key '") + name + "'";
        OpsMessage.NameAck answer;
        try {
            answer = OpsMessage.nameAckOf(request, exchange(authority, request, payload));
        } catch (TimeoutException e) {
            throw new IllegalStateException("node " + node + " cannot " + (create ? "intern " : "look up ") + what
                    + ": node " + authority + ", the authority for names, did not answer: " + e.getMessage());
        }
        if (answer.failure() == null) {
            return answer.id();
        }
        String type = answer.failure();
        String reason = answer.reason();
        if (type.equals(StoreCapacityException.class.getName())) {
            throw new StoreCapacityException("node " + authority + ", the authority for names: " + reason);
        }
        throw new IllegalStateException("node " + node + " cannot " + (create ? "intern " : "look up ") + what + ": node "
                + authority + ", the authority for names, refused: " + type + ": " + reason);
    }

    /** Answers NAME from this node's own dictionary, which is the cluster's if this node is the authority. */
    private OpsMessage.NameAck serveName(int from, OpsMessage.Name asked) {
        try {
            if (view.isForeign(from)) {
                throw new IllegalStateException("node " + node + " refuses node " + from + ": their cluster descriptions differ");
            }
            if (engine.nameAuthority() != node) {
                throw new IllegalStateException("node " + node + " is not the authority for names; node "
                        + engine.nameAuthority() + " is");
            }
            if (restoring) { // its dictionaries are not whole yet: a new name could take a restored one's id
                throw new IllegalStateException("node " + node + ", the authority for names, is restoring its data from its"
                        + " log; try again");
            }
            Dictionary names = asked.dictionary() == LABELS ? engine.store().labels() : engine.store().propertyKeys();
            return new OpsMessage.NameAck(asked.request(), names.answer(asked.name(), asked.create()), null, null);
        } catch (RuntimeException e) {
            return new OpsMessage.NameAck(asked.request(), 0, e.getClass().getName(), String.valueOf(e.getMessage()));
        }
    }

    /** Sends {@code payload} to {@code to}'s mailbox; the future fails if it was not delivered (never throws). */
    private CompletableFuture<Void> send(int to, byte[] payload) {
        try {
            return mailbox.send(to, payload); // a lost message shows as a missing answer: sent again
        } catch (IllegalStateException e) { // this node's mailbox or fabric is closed
            LOG.debug("node={} could not send to node {}: {}", node, to, e.getMessage());
            return CompletableFuture.failedFuture(e);
        }
    }

    // ------------------------------------------------------------------ joining

    /**
     * Compares this node's cluster description with every member that is up, waiting at most
     * gtran.txn.remote-timeout-ms ({@link MemberView#join}).
     *
     * @throws IllegalStateException naming the member and both descriptions if one differs
     */
    void join() {
        view.join(engine.config().remoteTimeoutMs, Membership.NODES + " and " + TxnConfig.LEASE_MS);
    }

    // ------------------------------------------------------------------ participant side

    /**
     * Takes an {@link Family#OPS} message of {@code from} as it arrives, on the transport's thread:
     * an answer (its waiter is woken), or a request (handed to the pool) unless an earlier message
     * of {@code from} is still with the receive path: that may be what tells this node the sender
     * restarted or differs, which serving checks. Leaves a pushed chain's messages to the receive
     * path, which runs their first steps itself.
     */
    private boolean onArrival(int from, byte[] payload, long nowNanos, boolean afterQueued) {
        Wire.Reader in = new Wire.Reader(payload);
        OpsMessage.Header header = OpsMessage.headerOf(in);
        boolean take = switch (header.type()) {
            case OpsMessage.REPLY, OpsMessage.NAME_ACK -> true;
            case OpsMessage.REQUEST, OpsMessage.NAME -> !afterQueued;
            default -> false;
        };
        if (take) {
            handle(from, header, in);
        }
        return take;
    }

    /** Handles an {@link Family#OPS} message of {@code from}: the node's receive path calls it; none may wait here. */
    private void onMessage(int from, byte[] payload, long nowNanos) {
        Wire.Reader in = new Wire.Reader(payload);
        handle(from, OpsMessage.headerOf(in), in);
    }

    private void handle(int from, OpsMessage.Header header, Wire.Reader in) {
        int type = header.type();
        long request = header.request();
        switch (type) {
            case OpsMessage.REPLY, OpsMessage.NAME_ACK -> {
                CompletableFuture<Wire.Reader> answer = waiting.get(request);
                if (answer != null) {
                    answer.complete(in); // read by the waiter, who knows what it asked
                }
                return;
            }
            default -> {
            }
        }
        OpsMessage decoded = OpsMessage.decode(type, request, in);
        try {
            if (decoded instanceof OpsMessage.Forward forward) {
                chains.forward(from, forward); // acknowledges it and leaves the work to another thread
            } else if (decoded instanceof OpsMessage.Result result) {
                chains.result(from, result);
            } else if (decoded instanceof OpsMessage.Name name) {
                work.execute(() -> send(from, OpsMessage.encode(serveName(from, name))));
            } else if (decoded instanceof OpsMessage.Request asked) {
                work.execute(() -> {
                    OpsMessage.Answer reply = serve(from, asked);
                    if (reply != null) {
                        send(from, replyThatFits(request, asked, reply));
                    }
                });
            } else {
                LOG.warn("node={} ignored an operations message of unknown type {} from node {}", node, type, from);
            }
        } catch (RejectedExecutionException closing) {
            // the engine is closing: the asker sees no answer, as from a node that stopped
        }
    }

    /**
     * {@code reply} to {@code asked}, encoded; or, if that would not fit in one message, a failure
     * saying so: the asker is told at once rather than left waiting for an answer that cannot leave.
     * Only reads answer with more than a few bytes, so the operation changed nothing here.
     */
    private byte[] replyThatFits(long request, OpsMessage.Request asked, OpsMessage.Answer reply) {
        byte[] encoded = OpsMessage.encode(new OpsMessage.Reply(request, reply));
        if (encoded.length <= fabric.maxMessageBytes()) {
            return encoded;
        }
        String why = "the answer to " + Op.typeName(asked.op()) + " of " + TxnWords.toString(asked.txn()) + " at node " + node
                + " is " + encoded.length + " bytes, more than the " + fabric.maxMessageBytes() + " one message carries";
        LOG.debug("node={} {}", node, why);
        return OpsMessage.encode(new OpsMessage.Reply(request,
                new OpsMessage.Failed(reply.wrote(), reply.preReads(), ReplyTooLargeException.class.getName(), why)));
    }

    /** Runs a request here; returns the reply, or null for a stale duplicate (nobody waits for it). */
    private OpsMessage.Answer serve(int from, OpsMessage.Request asked) {
        long txnId = asked.txn();
        long beginTime = asked.beginTime();
        Isolation isolation = asked.isolation();
        int seq = asked.seq();
        byte[] op = asked.op();
        if (view.isForeign(from)) {
            return refused("node " + node + " refuses node " + from + ": their cluster descriptions differ");
        }
        if (restoring) {
            return refused("node " + node + " is restoring its data from its log and takes no operation yet; try again");
        }
        if (view.isLost(from)) {
            return refused("node " + node + " counts node " + from + " as lost and takes no more of its operations;"
                    + " its transactions there were settled without it");
        }
        if (TxnWords.node(txnId) != from) {
            return refused("node " + from + " sent an operation of " + TxnWords.toString(txnId) + ", which node "
                    + TxnWords.node(txnId) + " coordinates");
        }
        long[] committed = asked.committed();
        for (int i = 0; i < committed.length; i += 2) {
            if (TxnWords.node(committed[i]) == from) { // a node speaks only for the transactions it coordinates
                engine.statusTable().learnCommitted(committed[i], committed[i + 1]);
            }
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
            OpsMessage.Answer reply = run(context, op);
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
            String fenced = view.fenced(TxnWords.node(txnId), beginTime);
            if (fenced != null) {
                throw new Chains.Refusal(fenced);
            }
            messenger.open(txnId); // from here, the coordinator's loss aborts the part
            if (!messenger.acceptsOperations(txnId)) {
                throw new Chains.Refusal(TxnWords.toString(txnId) + " has finished at node " + node + " ("
                        + messenger.whyNoOperations(txnId) + ")");
            }
            long watermark = engine.lastWatermark();
            if (beginTime < watermark) {
                throw new Chains.Refusal(TxnWords.toString(txnId) + " began at " + beginTime + ", below node " + node
                        + "'s GC watermark " + watermark + ": what it would read there may be gone");
            }
            context = contexts.computeIfAbsent(txnId, id -> new Context(new ParticipantPart(engine, id, beginTime, isolation)));
            if (!messenger.acceptsOperations(txnId)) {
                // decided between the check and the put: its apply may have run already, so nothing else removes this one
                if (context.lastSeq == 0 && context.forwards.isEmpty()) {
                    contexts.remove(txnId, context);
                }
                throw new Chains.Refusal(TxnWords.toString(txnId) + " has finished at node " + node + " ("
                        + messenger.whyNoOperations(txnId) + ")");
            }
        }
        return context;
    }

    /** {@link #contextFor}, for a chain's forward from {@code from}, which need not be the coordinator. */
    Context contextForForward(int from, long txnId, long beginTime, Isolation isolation) throws Chains.Refusal {
        int coordinator = TxnWords.node(txnId);
        if (view.isForeign(from)) {
            throw new Chains.Refusal("node " + node + " refuses node " + from + ": their cluster descriptions differ");
        }
        if (view.isLost(from) || view.isLost(coordinator)) {
            throw new Chains.Refusal("node " + node + " counts node " + (view.isLost(from) ? from : coordinator)
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

    private OpsMessage.Answer run(Context context, byte[] op) {
        Transaction txn = context.txn;
        Wire.Writer result = new Wire.Writer();
        RuntimeException failure = null;
        try {
            RemoteOp.execute(txn, engine.store(), Op.decode(op), result);
        } catch (RuntimeException e) {
            failure = e;
        }
        if (!txn.isReadOnly()) {
            context.wrote = true;
        }
        boolean wrote = context.wrote;
        boolean preReads = !txn.visibility.preReadDependencies.isEmpty();
        if (failure == null) {
            return new OpsMessage.Done(wrote, preReads, result.bytes());
        }
        if (failure instanceof TransactionConflictException e) {
            return new OpsMessage.Conflict(wrote, preReads, e.kind(), e.otherTransaction(), e.on(), e.detail());
        }
        if (failure instanceof ElementNotFoundException e) {
            return new OpsMessage.NotFound(wrote, preReads, e.getMessage(), e.elementId());
        }
        return new OpsMessage.Failed(wrote, preReads, failure.getClass().getName(), failure.getMessage());
    }

    private static OpsMessage.Answer refused(String reason) {
        return new OpsMessage.Refused(reason);
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

    /**
     * Settles the votes this member's log left in doubt (docs/durability.md, "Nodes of a cluster",
     * restart step 2): each becomes a part holding YES in the messenger, which learns its outcome
     * from the coordinator's DECIDE or, for one this node coordinated, from a recovery; the decision
     * is logged, then applied to the image. Returns once every one is settled; waits as long as that
     * takes (in doubt, it waits), saying every 10 s which it waits for. Also restores the decisions
     * this node still owes its participants.
     */
    void settle(ImageVotes votes, CommitLog log, long snapshotTime) {
        messenger.restoredThrough(snapshotTime);
        votes.decided().forEach((txn, commit) -> messenger.restoreDecided(txn, commit ? Outcome.COMMIT : Outcome.ABORT));
        for (RedoRecord.Pending owed : votes.owed()) {
            messenger.restoreOwed(owed.txn(), owed.commit() ? Outcome.COMMIT : Outcome.ABORT, owed.commitTime(),
                    owed.participants());
        }
        List<ImageVotes.InDoubt> doubts = votes.inDoubt();
        if (doubts.isEmpty()) {
            messenger.historyRestored();
            return;
        }
        CountDownLatch settled = new CountDownLatch(doubts.size());
        for (ImageVotes.InDoubt doubt : doubts) {
            restoredParts.put(doubt.txn(), outcome -> {
                log.decision(new RedoRecord.Decision(doubt.txn(), doubt.commitTime(), outcome == Outcome.COMMIT)).join();
                synchronized (votes) {
                    votes.settle(doubt.txn(), outcome == Outcome.COMMIT);
                }
                LOG.info("node={} settled txn {}, in doubt since the restart: {}", node, TxnWords.toString(doubt.txn()), outcome);
                settled.countDown();
            });
        }
        LOG.info("node={} restarts with {} transactions in doubt; it serves once each is settled with the other members",
                node, doubts.size());
        for (ImageVotes.InDoubt doubt : doubts) {
            messenger.restoreInDoubt(doubt.txn(), doubt.commitTime(), doubt.participants());
        }
        messenger.historyRestored();
        try {
            while (!settled.await(10, TimeUnit.SECONDS)) {
                LOG.warn("node={} still waits for the outcome of {} transactions in doubt (their coordinators and participants"
                        + " must be reachable): {}", node, settled.getCount(), restoredParts.keySet().stream().limit(5)
                        .map(TxnWords::toString).toList());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("node " + node + " was interrupted while settling the transactions in doubt", e);
        }
    }

    /** Takes no other member's operation until {@link #restored}: this node restores its store from its log. */
    void restoring() {
        restoring = true;
        messenger.holdUntilRestored();
    }

    /** Opens this node to other members' operations once its store is restored. */
    void restored() {
        restoring = false;
        messenger.historyRestored(); // a node without a log has no history to wait for
    }

    @Override
    public Vote validate(long txn, long commitTime, int[] participants) {
        Context context = contexts.get(txn);
        if (context == null) {
            return Vote.NO; // aborted here, or never ran here
        }
        synchronized (context) {
            PartCommit part = context.txn.commitProtocol();
            if (!part.vote(commitTime, () -> context.entered = true)) {
                return Vote.NO;
            }
            CommitLog log = engine.commitLog();
            if (log.logs()) {
                // The YES leaves only once it is on disk (docs/durability.md, "Nodes of a cluster", C1).
                try {
                    log.vote(CommitRecords.vote(context.txn, commitTime, participants));
                } catch (LogWriteException e) {
                    LOG.error("node={} votes NO on txn {}: its vote could not be logged: {}", engine.store().nodeId(), txn,
                            e.getMessage());
                    part.abort();
                    return Vote.NO;
                }
                context.voteLogged = true;
            }
            return Vote.YES;
        }
    }

    /**
     * Stamps or undoes this node's part of {@code txn}. A part whose vote is in the log has its
     * decision logged first (C2, C3): if that fails this throws, and the decision is neither applied
     * nor acknowledged, so its coordinator keeps sending it.
     */
    @Override
    public void apply(long txn, Outcome outcome, long commitTime) {
        Context context = contexts.get(txn);
        if (context == null) {
            Consumer<Outcome> restoredPart = restoredParts.remove(txn);
            if (restoredPart != null) {
                restoredPart.accept(outcome);
            }
            return;
        }
        synchronized (context) {
            if (context.voteLogged) {
                engine.commitLog().decision(new RedoRecord.Decision(txn, commitTime, outcome == Outcome.COMMIT)).join();
            }
            contexts.remove(txn);
            context.txn.commitProtocol().finish(outcome == Outcome.COMMIT, commitTime);
        }
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
        view.close();
        if (group != null) {
            group.close();
            if (groupAgent != null) {
                groupAgent.close();
            }
            groupLog.close();
        }
        messenger.close();
        if (heartbeat != null) {
            heartbeat.close();
        }
        work.shutdownNow();
        mailbox.close();
    }
}
