package io.gtran.txn.membership;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.client.retry.RequestTypeDependentRetryPolicy;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.netty.NettyConfigKeys;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RaftClientRequestProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The membership group's log across processes: one Apache Ratis server per node, all of one Raft
 * group ({@link #GROUP_ID}), over Ratis' Netty RPC. An entry {@link #propose proposed} on any member
 * is sent to the group's leader, committed once a majority has it in its log, and handed by each
 * member's state machine to the applier given to {@link #start}, in log order.
 *
 * <p>Thread model: {@link #start}, {@link #close} and {@link #describe} may be called from any
 * thread. The applier runs on the one thread Ratis applies committed entries on (its state
 * machine updater), one entry at a time, never concurrently with itself; it must not block on
 * this log (a proposal waits for that very thread). {@link #propose} does not block: proposals
 * are queued for this log's one daemon proposer thread, which sends them one after the other with
 * Ratis' blocking client; a future completes on that thread (or on the JDK's delayed executor
 * when it times out). One at a time because Ratis' Netty client matches replies to requests by
 * their order on a connection, and two requests in flight on one connection can stall each other
 * when the client switches leaders (it closes the connection under a lock its reply handler
 * needs, seen in 3.2.0; 3.3.0 is used now). A proposal still queued when its timeout passes is not sent.
 *
 * <p>What it promises:
 * <ul>
 *   <li>every member applies the same entries in the same order, each once per start of the
 *       member (a member started again on its storage directory applies its log from the first
 *       entry on again, then what it missed, from the leader);
 *   <li>an entry that does not decode ({@link MemberEntry#decode} throws) is logged and skipped on
 *       every member alike; an applier that throws is logged and the next entry applied;
 *   <li>a proposal's future fails, naming the entry and the cause, if the entry was not committed
 *       within the propose timeout (no leader with a majority reachable); it may still be committed
 *       later. Ratis' client retries the proposal until then, never longer.
 * </ul>
 * What it does not promise: durability beyond what Ratis' own log in the storage directory gives
 * (no snapshots are taken: the state is tiny and rebuilt from the log, which is never purged), a
 * change of the group's members (they are fixed at construction), or an order between proposals
 * of different members, or of one member's proposal that failed and one after it.
 */
public final class RatisMembershipLog implements MembershipLog {
    private static final Logger LOG = LoggerFactory.getLogger(RatisMembershipLog.class);

    /** The one Raft group of a cluster's members: the same on every node, derived from its name. */
    public static final RaftGroupId GROUP_ID =
            RaftGroupId.valueOf(UUID.nameUUIDFromBytes("gtran-membership".getBytes(UTF_8)));

    /*
     * Election timeouts: a follower that hears no leader for a random 1-2 s starts an election (a
     * pre-vote round, then the vote), so a lost leader is replaced within about 2 s, a few seconds
     * if a vote splits; a leader that hears no majority for 2 s steps down. Ratis' defaults
     * (150-300 ms) elect faster but call elections on a GC pause or a busy 2-core CI machine;
     * membership changes are rare and a second's delay costs little, a spurious leader change a
     * proposal's retry. The leader's heartbeat goes every half minimum (500 ms).
     */
    private static final TimeDuration ELECTION_TIMEOUT_MIN = TimeDuration.valueOf(1, TimeUnit.SECONDS);
    private static final TimeDuration ELECTION_TIMEOUT_MAX = TimeDuration.valueOf(2, TimeUnit.SECONDS);
    /** The client's pause between two attempts of one proposal (another server, or a leader being elected). */
    private static final TimeDuration RETRY_SLEEP = TimeDuration.valueOf(100, TimeUnit.MILLISECONDS);
    /** The longest one attempt of a proposal waits for its server's reply. */
    private static final long ATTEMPT_TIMEOUT_MAX_MILLIS = 3_000;

    private final int self;
    private final RaftPeerId selfId;
    private final InetSocketAddress address;
    private final RaftGroup group;
    private final Path storageDir;
    private final long proposeTimeoutMillis;
    private final String membersText;
    private final ThreadPoolExecutor proposer;
    /** Proposals whose future is not complete yet: failed at once by {@link #close}. */
    private final Set<CompletableFuture<Void>> pending = ConcurrentHashMap.newKeySet();

    // Written under this; read without it.
    private volatile RaftServer server;
    private volatile RaftClient client;
    private volatile boolean closed;

    /**
     * A member's part of the group, not started yet.
     *
     * @param self this node's id
     * @param members every member's Ratis address, this node's included, by node id
     * @param storageDir this node's Ratis storage directory, created if it does not exist
     * @param proposeTimeoutMillis how long a proposal may take to be committed before its future fails
     * @throws IllegalArgumentException naming what is wrong if a node id is negative, {@code self}
     *     is not a member, an address is missing or the timeout is not positive
     * @throws UncheckedIOException if the storage directory cannot be created
     */
    public RatisMembershipLog(int self, Map<Integer, InetSocketAddress> members, Path storageDir,
            long proposeTimeoutMillis) {
        checkArguments(self, members, storageDir, proposeTimeoutMillis);
        this.self = self;
        this.selfId = peerId(self);
        this.address = members.get(self);
        this.group = RaftGroup.valueOf(GROUP_ID, peers(members));
        this.storageDir = storageDir;
        this.proposeTimeoutMillis = proposeTimeoutMillis;
        this.membersText = membersText(members);
        this.proposer = proposerPool(self);
        createStorageDir(storageDir);
    }

    /** The Raft peer id of node {@code node}: {@code n<node>}. */
    static RaftPeerId peerId(int node) {
        return RaftPeerId.valueOf("n" + node);
    }

    @Override
    public synchronized void start(Consumer<MemberEntry> applier) {
        Objects.requireNonNull(applier, "applier");
        if (closed) {
            throw new IllegalStateException("the membership log of node " + self + " is closed; it cannot start again");
        }
        if (server != null) {
            throw new IllegalStateException("the membership log of node " + self + " is already started");
        }
        RaftServer started = startServer(new EntryStateMachine(self, applier));
        server = started;
        client = newClient();
        LOG.info("node {}: membership group {} started at {} (storage {}); members {}", self, GROUP_ID.getUuid(),
                hostAndPort(address), storageDir, membersText);
    }

    @Override
    public CompletableFuture<Void> propose(MemberEntry entry) {
        Objects.requireNonNull(entry, "entry");
        RaftClient proposing = client;
        if (proposing == null || closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("cannot propose " + entry
                    + ": the membership log of node " + self + " is " + (closed ? "closed" : "not started")));
        }
        Message message = Message.valueOf(ByteString.copyFrom(MemberEntry.encode(entry)));
        CompletableFuture<Void> result = new CompletableFuture<>();
        pending.add(result);
        result.whenComplete((ok, failure) -> pending.remove(result));
        failAfterTimeout(entry, result);
        try {
            proposer.execute(() -> send(proposing, entry, message, result));
        } catch (RejectedExecutionException closing) {
            result.completeExceptionally(new IllegalStateException("cannot propose " + entry
                    + ": the membership log of node " + self + " is closed", closing));
        }
        return result;
    }

    @Override
    public String describe() {
        String state;
        RaftServer current = server;
        if (closed) {
            state = "closed";
        } else if (current == null) {
            state = "not started";
        } else {
            state = describeDivision(current);
        }
        return "membership group " + GROUP_ID.getUuid() + " on " + selfId + ": " + state + "; members " + membersText;
    }

    @Override
    public GroupState state() {
        RaftServer current = server;
        if (closed || current == null) {
            return GroupState.UNKNOWN;
        }
        try {
            DivisionInfo info = current.getDivision(GROUP_ID).getInfo();
            RaftPeerId leader = info.getLeaderId();
            return new GroupState(leader == null ? -1 : nodeOf(leader), info.getCurrentTerm(),
                    info.getCurrentRole().name().toLowerCase(java.util.Locale.ROOT));
        } catch (IOException | RuntimeException e) {
            return GroupState.UNKNOWN;
        }
    }

    /** The node id of Raft peer {@code id} ({@code n<node>}), or -1 if it is not one of ours. */
    static int nodeOf(RaftPeerId id) {
        String text = id.toString();
        try {
            return text.startsWith("n") ? Integer.parseInt(text.substring(1)) : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public void close() {
        RaftClient closingClient;
        RaftServer closingServer;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            closingClient = client;
            closingServer = server;
            client = null;
            server = null;
        }
        proposer.shutdownNow(); // interrupts the sends under way: their proposals fail
        failPending();
        closeQuietly("client", closingClient);
        closeQuietly("server", closingServer); // up to a second: Ratis' log worker polls its queue each second
        LOG.info("node {}: membership group {} closed", self, GROUP_ID.getUuid());
    }

    private static void checkArguments(int self, Map<Integer, InetSocketAddress> members, Path storageDir,
            long proposeTimeoutMillis) {
        Objects.requireNonNull(members, "members");
        Objects.requireNonNull(storageDir, "storageDir");
        members.forEach((node, address) -> {
            if (node == null || node < 0) {
                throw new IllegalArgumentException("membership group: node ids must be non-negative, not " + node
                        + " in " + members);
            }
            if (address == null) {
                throw new IllegalArgumentException("membership group: no Ratis address for node " + node + " in "
                        + members);
            }
        });
        if (!members.containsKey(self)) {
            throw new IllegalArgumentException("membership group: this node (" + self + ") is not among the members "
                    + members.keySet());
        }
        if (proposeTimeoutMillis <= 0) {
            throw new IllegalArgumentException("membership group: the propose timeout must be positive, not "
                    + proposeTimeoutMillis + " ms");
        }
    }

    private static List<RaftPeer> peers(Map<Integer, InetSocketAddress> members) {
        List<RaftPeer> peers = new ArrayList<>();
        new TreeMap<>(members).forEach((node, address) ->
                peers.add(RaftPeer.newBuilder().setId(peerId(node)).setAddress(hostAndPort(address)).build()));
        return peers;
    }

    private static String membersText(Map<Integer, InetSocketAddress> members) {
        StringJoiner text = new StringJoiner(", ", "[", "]");
        new TreeMap<>(members).forEach((node, address) -> text.add(peerId(node) + "=" + hostAndPort(address)));
        return text.toString();
    }

    /**
     * {@code address} as Ratis is to dial it: its IP literal if resolved, else the name given.
     * Handing Ratis the {@link InetSocketAddress} itself would have it take the address's host name
     * (a reverse lookup: 127.0.0.1 becomes "localhost", which may resolve to ::1 first).
     */
    static String hostAndPort(InetSocketAddress address) {
        String host = host(address);
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.getPort();
    }

    /** The address's IP literal if resolved, else the name given (never a reverse lookup). */
    private static String host(InetSocketAddress address) {
        return address.getAddress() != null ? address.getAddress().getHostAddress() : address.getHostString();
    }

    private static ThreadPoolExecutor proposerPool(int self) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), task -> {
                    Thread thread = new Thread(task, "gtran-membership-propose-n" + self);
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    private static void createStorageDir(Path storageDir) {
        try {
            Files.createDirectories(storageDir);
        } catch (IOException e) {
            throw new UncheckedIOException("membership group: cannot create the Ratis storage directory " + storageDir
                    + ": " + e, e);
        }
    }

    private RaftServer startServer(EntryStateMachine stateMachine) {
        RaftServer built = null;
        try {
            built = RaftServer.newBuilder()
                    .setServerId(selfId)
                    .setGroup(group)
                    .setStateMachine(stateMachine)
                    .setProperties(serverProperties())
                    .setOption(startupOption())
                    .build();
            built.start();
            return built;
        } catch (IOException | RuntimeException e) {
            closeQuietly("server that failed to start", built);
            throw new IllegalStateException("node " + self + ": cannot start the membership group's Ratis server at "
                    + hostAndPort(address) + " (storage " + storageDir + "): " + e, e);
        }
    }

    private RaftProperties serverProperties() {
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.NETTY);
        NettyConfigKeys.Server.setHost(properties, host(address));
        NettyConfigKeys.Server.setPort(properties, address.getPort());
        RaftServerConfigKeys.setStorageDir(properties, List.of(storageDir.toFile()));
        RaftServerConfigKeys.Rpc.setTimeoutMin(properties, ELECTION_TIMEOUT_MIN);
        RaftServerConfigKeys.Rpc.setTimeoutMax(properties, ELECTION_TIMEOUT_MAX);
        // No snapshots, so no purge: a member that catches up gets every entry from the first on.
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, false);
        RaftServerConfigKeys.Snapshot.setTriggerWhenStopEnabled(properties, false);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, false);
        return properties;
    }

    /** RECOVER the group's directory if a former run left one, else FORMAT a new one. */
    private RaftStorage.StartupOption startupOption() {
        return Files.isDirectory(storageDir.resolve(GROUP_ID.getUuid().toString()))
                ? RaftStorage.StartupOption.RECOVER
                : RaftStorage.StartupOption.FORMAT;
    }

    private RaftClient newClient() {
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.NETTY);
        long attemptMillis = Math.min(proposeTimeoutMillis, ATTEMPT_TIMEOUT_MAX_MILLIS);
        RaftClientConfigKeys.Rpc.setRequestTimeout(properties, TimeDuration.valueOf(attemptMillis, TimeUnit.MILLISECONDS));
        return RaftClient.newBuilder()
                .setClientId(ClientId.randomId())
                .setRaftGroup(group)
                .setProperties(properties)
                .setRetryPolicy(retryPolicy())
                .build();
    }

    /** A proposal (a write) is retried every {@link #RETRY_SLEEP} until the propose timeout, then given up. */
    private RetryPolicy retryPolicy() {
        return RequestTypeDependentRetryPolicy.newBuilder()
                .setRetryPolicy(RaftClientRequestProto.TypeCase.WRITE, RetryPolicies.retryForeverWithSleep(RETRY_SLEEP))
                .setTimeout(RaftClientRequestProto.TypeCase.WRITE,
                        TimeDuration.valueOf(proposeTimeoutMillis, TimeUnit.MILLISECONDS))
                .build();
    }

    private void failAfterTimeout(MemberEntry entry, CompletableFuture<Void> result) {
        CompletableFuture.delayedExecutor(proposeTimeoutMillis, TimeUnit.MILLISECONDS).execute(() ->
                result.completeExceptionally(new TimeoutException("node " + self + ": proposal of " + entry
                        + " was not committed within " + proposeTimeoutMillis
                        + " ms (no leader with a majority of the membership group reachable)")));
    }

    private void send(RaftClient proposing, MemberEntry entry, Message message, CompletableFuture<Void> result) {
        if (result.isDone()) {
            return; // timed out (or closed) while it waited for a thread
        }
        try {
            RaftClientReply reply = proposing.io().send(message);
            if (reply.isSuccess()) {
                result.complete(null);
            } else {
                result.completeExceptionally(failed(entry, reply.getException()));
            }
        } catch (IOException | RuntimeException e) {
            result.completeExceptionally(failed(entry, e));
        }
    }

    private IOException failed(MemberEntry entry, Throwable cause) {
        return new IOException("node " + self + ": proposal of " + entry + " was not committed: " + cause, cause);
    }

    private void failPending() {
        for (CompletableFuture<Void> proposal : List.copyOf(pending)) {
            proposal.completeExceptionally(new IllegalStateException("node " + self
                    + ": the membership log was closed before the proposal was committed (it may still be)"));
        }
    }

    private String describeDivision(RaftServer current) {
        try {
            DivisionInfo info = current.getDivision(GROUP_ID).getInfo();
            RaftPeerId leader = info.getLeaderId();
            return "leader " + (leader == null ? "none" : leader) + ", term " + info.getCurrentTerm() + ", " + selfId
                    + " is " + info.getCurrentRole() + ", applied index " + info.getLastAppliedIndex();
        } catch (IOException | RuntimeException e) {
            return "no state of the group (" + e + ")";
        }
    }

    private void closeQuietly(String what, AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.warn("node {}: closing the membership group's Ratis {} failed: {}", self, what, e.toString());
            LOG.debug("node {}: closing the membership group's Ratis {} failed", self, what, e);
        }
    }

    /**
     * Hands each committed entry to the applier, on Ratis' state machine updater thread, in log
     * order. An entry that does not decode, or that the applier throws on, is logged; either way
     * the applied index moves past it.
     */
    private static final class EntryStateMachine extends BaseStateMachine {
        /** This class's logger: the name LOG alone would be StateMachine's, which it inherits. */
        private static final Logger APPLY_LOG = RatisMembershipLog.LOG;
        private final int self;
        private final Consumer<MemberEntry> applier;

        EntryStateMachine(int self, Consumer<MemberEntry> applier) {
            this.self = self;
            this.applier = applier;
        }

        @Override
        public CompletableFuture<Message> applyTransaction(TransactionContext transaction) {
            LogEntryProto logEntry = transaction.getLogEntry();
            try {
                apply(logEntry);
            } finally {
                updateLastAppliedTermIndex(logEntry.getTerm(), logEntry.getIndex());
            }
            return CompletableFuture.completedFuture(Message.EMPTY);
        }

        private void apply(LogEntryProto logEntry) {
            byte[] bytes = logEntry.getStateMachineLogEntry().getLogData().toByteArray();
            MemberEntry entry;
            try {
                entry = MemberEntry.decode(bytes);
            } catch (RuntimeException malformed) {
                APPLY_LOG.warn("node {}: skipped the membership log's entry at index {} (term {}): not a membership entry: {}",
                        self, logEntry.getIndex(), logEntry.getTerm(), malformed.toString());
                return;
            }
            try {
                applier.accept(entry);
            } catch (RuntimeException e) {
                APPLY_LOG.error("node {}: applying {} (membership log index {}) failed; applying the next entries", self,
                        entry, logEntry.getIndex(), e);
            }
        }
    }
}
