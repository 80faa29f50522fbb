// Over 600 lines: the coordinator's ledger and each node's forwarding of a pushed chain share one run state; to split with Transaction (issue 34).
package io.gtran.txn;

import io.gtran.storage.Dictionary;
import io.gtran.storage.GraphStore;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.protocol.Chain;
import io.gtran.txn.protocol.OpsMessage.ChainReport;
import io.gtran.txn.protocol.OpsMessage;
import io.gtran.txn.protocol.Wire;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongToIntFunction;

/**
 * Runs {@link Chain}s across the cluster (docs/cluster-transactions.md, "Pushed chains"): each
 * node runs the stages on the vertices it owns, under the transaction's part there, and sends the
 * vertices owned elsewhere straight to their owners ({@code FORWARD}); each forward's node reports
 * what it sent on ({@link ChainReport}), to the coordinator with what came out of the last stage
 * ({@code RESULT}), or, when it has nothing else to say, carried by its first forward. The
 * coordinator's ledger of outstanding forwards tells it when the chain is done.
 */
final class Chains {

    private final ClusterParts cluster;
    private final TransactionEngine engine;
    private final int node;
    private final Executor work;
    private final AtomicLong nextId = new AtomicLong();
    /** The runs this node coordinates, by chain id. */
    private final Map<Long, Run> runs = new ConcurrentHashMap<>();

    Chains(ClusterParts cluster, TransactionEngine engine, int node, Executor work) {
        this.cluster = cluster;
        this.engine = engine;
        this.node = node;
        this.work = work;
    }

    /** Traversers: vertices with bulks, equal vertices merged. */
    static final class Bag {
        private final Map<Long, Long> bulks = new LinkedHashMap<>();

        void add(long vertex, long bulk) {
            bulks.merge(vertex, bulk, Long::sum);
        }

        void addAll(Bag other) {
            other.bulks.forEach(this::add);
        }

        boolean isEmpty() {
            return bulks.isEmpty();
        }

        long[] vertices() {
            return bulks.keySet().stream().mapToLong(Long::longValue).toArray();
        }

        long[] bulks() {
            return bulks.values().stream().mapToLong(Long::longValue).toArray();
        }

        static Bag of(long[] vertices, long[] bulks) {
            if (vertices.length != bulks.length) {
                throw new IllegalArgumentException(vertices.length + " vertices with " + bulks.length + " bulks");
            }
            Bag bag = new Bag();
            for (int i = 0; i < vertices.length; i++) {
                bag.add(vertices[i], bulks[i]);
            }
            return bag;
        }
    }

    /** What one node's run of some stages left: traversers to send on (by node, then stage), results, unseen vertices. */
    static final class Piece {
        final Map<Integer, Map<Integer, Bag>> onward = new TreeMap<>();
        final Bag results = new Bag();
        final Transaction.LongList unseen = new Transaction.LongList();

        Bag onward(int owner, int stage) {
            return onward.computeIfAbsent(owner, n -> new TreeMap<>()).computeIfAbsent(stage, s -> new Bag());
        }
    }

    /**
     * Runs {@code chain} from stage {@code stage} on {@code bag} (vertices this node owns) under
     * {@code txn}: vertices a hop reaches on another node ({@code remoteOwner} ≥ 0) go to {@code
     * piece.onward}, those here go on here, those past the last stage to {@code piece.results}.
     */
    static void runHere(Transaction txn, Chain chain, int stage, Bag bag, Piece piece, LongToIntFunction remoteOwner) {
        GraphStore store = txn.store;
        while (!bag.isEmpty()) {
            if (stage == chain.size()) {
                piece.results.addAll(bag);
                return;
            }
            Chain.Stage s = chain.stage(stage++);
            Bag next = new Bag();
            long[] vertices = bag.vertices();
            long[] bulks = bag.bulks();
            if (!s.isHop()) {
                int[] wanted = new int[s.labels().length];
                for (int i = 0; i < wanted.length; i++) {
                    wanted[i] = store.labels().find(s.labels()[i]);
                }
                for (int i = 0; i < vertices.length; i++) {
                    if (!txn.exists(ElementKind.VERTEX, vertices[i])) {
                        piece.unseen.add(vertices[i]);
                    } else if (contains(wanted, txn.vertexLabel(vertices[i]))) {
                        next.add(vertices[i], bulks[i]);
                    }
                }
                bag = next;
                continue;
            }
            int[] labels = new int[s.labels().length];
            for (int i = 0; i < labels.length; i++) {
                labels[i] = store.labels().intern(s.labels()[i]); // as ADJACENT_MANY: the read is recorded under the name's id
            }
            long[][] pairs = txn.adjacency.manyHere(vertices, s.direction(), labels);
            for (int i = 0; i < vertices.length; i++) {
                if (pairs[i] == null) {
                    piece.unseen.add(vertices[i]);
                    continue;
                }
                for (int p = 1; p < pairs[i].length; p += 2) {
                    long neighbour = pairs[i][p];
                    int owner = stage == chain.size() ? -1 : remoteOwner.applyAsInt(neighbour);
                    (owner < 0 ? next : piece.onward(owner, stage)).add(neighbour, bulks[i]);
                }
            }
            bag = next;
        }
    }

    private static boolean contains(int[] values, int value) {
        for (int v : values) {
            if (v == value && v != Dictionary.ABSENT) {
                return true;
            }
        }
        return false;
    }

    private long newId() {
        return ((long) node << 40) | nextId.incrementAndGet();
    }

    // ------------------------------------------------------------------ coordinator

    /** A chain this node coordinates, while it runs. */
    private static final class Run {
        final long id;
        final Transaction txn;
        /** Held while a stage runs on {@link #txn} here: by the client's thread, or a forward's. */
        final Object lock = new Object();
        /** Forward ids taken here (a repeat is acknowledged and dropped). */
        final Set<Long> seen = ConcurrentHashMap.newKeySet();
        // guarded by this
        final Map<Long, Integer> pending = new HashMap<>();
        final Set<Long> early = new HashSet<>();
        final Set<Long> reported = new HashSet<>();
        final Bag results = new Bag();
        final Transaction.LongList unseen = new Transaction.LongList();
        final Set<Integer> nodes = new TreeSet<>();
        int messages;
        long lastProgress;
        Failure failure;
        boolean done;
        /** Set under {@link #lock} when the client's thread has left: no stage runs on {@link #txn} after. */
        boolean finished;

        Run(long id, Transaction txn) {
            this.id = id;
            this.txn = txn;
        }
    }

    /** Why a run failed: what a node answered (a conflict, a failure or a refusal), or an exception thrown here. */
    record Failure(int node, OpsMessage.Answer why, RuntimeException thrown) {
        /**
         * What a run that failed with this keeps when {@code next} comes: this, unless this is a
         * refusal and {@code next} a conflict a stage threw here. That conflict aborted the
         * transaction as it was thrown, sending ABORT to every member, so a member's refusal that
         * came meanwhile ("has finished") is its echo: the client is told the conflict.
         */
        Failure then(Failure next) {
            return why instanceof OpsMessage.Refused && next.thrown() instanceof TransactionConflictException ? next : this;
        }
    }

    /**
     * Runs {@code chain} for {@code txn} (coordinated here) from {@code vertices} with {@code bulks}
     * and returns what its last stage reached.
     */
    Chain.Outcome run(Transaction txn, Chain chain, long[] vertices, long[] bulks) {
        Run run = new Run(newId(), txn);
        run.lastProgress = engine.time().nanos();
        RemoteParts remote = txn.remote;
        remote.partsUnknown = true; // until the ledger empties, an abort goes to every member
        runs.put(run.id, run);
        try {
            Piece piece = new Piece();
            Bag own = new Bag();
            Bag start = Bag.of(vertices, bulks);
            start.bulks.forEach((v, b) -> {
                int owner = cluster.remoteOwner(v);
                (owner < 0 ? own : piece.onward(owner, 0)).add(v, b);
            });
            synchronized (run) {
                run.pending.put(run.id, node);
            }
            synchronized (run.lock) {
                runHere(txn, chain, 0, own, piece, cluster::remoteOwner);
            }
            Onward onward = onward(txn.id(), txn.beginTime(), txn.isolation(), run.id, chain, piece);
            ChainReport root = new ChainReport(node, run.id, false, false, onward.ids, onward.to);
            report(run, node, null, List.of(root), piece.results, piece.unseen.toArray());
            String refused = onward.send(List.of(), node, 0, null);
            if (refused != null) {
                finish(run); // no stage runs on txn here while it aborts
                throw txn.conflict(ConflictKind.PARTICIPANT_UNREACHABLE, 0, null, refused);
            }
            await(run);
            finish(run);
            Failure failure;
            synchronized (run) {
                failure = run.failure;
            }
            if (failure != null) {
                throw failed(txn, failure);
            }
            remote.partsUnknown = false;
            synchronized (run) {
                return new Chain.Outcome(run.results.vertices(), run.results.bulks(), run.unseen.toArray(),
                        run.nodes.stream().mapToInt(Integer::intValue).toArray(), run.messages);
            }
        } finally {
            finish(run);
            runs.remove(run.id);
        }
    }

    /** Marks {@code run} finished once no stage runs on its transaction here; none starts after. */
    private static void finish(Run run) {
        synchronized (run.lock) {
            run.finished = true;
        }
    }

    /**
     * Waits until the ledger is empty or the run failed. A member lost, or no report for twice
     * gtran.txn.remote-timeout-ms (a node that hands its report on sends nothing until the forward
     * carrying it reports, so a chain whose stages take that long between reports fails too),
     * fails it.
     */
    private void await(Run run) {
        // Twice a node's own wait for an acknowledgement, so that a node whose forward went unanswered reports why first.
        long timeout = 2 * TimeUnit.MILLISECONDS.toNanos(engine.config().remoteTimeoutMs);
        synchronized (run) {
            while (!run.done && run.failure == null) {
                // Any member, not only those the ledger waits on: one may hold a report another handed on.
                for (int member : engine.members().others()) {
                    if (cluster.isLost(member)) {
                        run.failure = unreachable("node " + member + " is lost");
                    }
                }
                if (run.failure == null && engine.time().nanos() - run.lastProgress > timeout) {
                    run.failure = unreachable("node " + run.pending.values().iterator().next() + " did not report its part of"
                            + " the chain within twice " + TxnConfig.REMOTE_TIMEOUT_MS + "=" + engine.config().remoteTimeoutMs + " ms");
                }
                if (run.failure != null) {
                    return;
                }
                try {
                    run.wait(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    run.failure = unreachable("interrupted while waiting for the chain's results");
                }
            }
        }
    }

    private Failure unreachable(String reason) {
        return new Failure(node, new OpsMessage.Refused(reason), null);
    }

    /** The exception a failed run throws, in the client's thread; the transaction is aborted. */
    private static RuntimeException failed(Transaction txn, Failure failure) {
        if (failure.thrown() instanceof TransactionConflictException e) {
            return e; // aborted the transaction when thrown
        }
        if (failure.why() instanceof OpsMessage.Conflict c) {
            return txn.remoteConflict(c.kind(), c.other(), c.on(), "at node " + failure.node() + (c.detail() == null ? "" : ": " + c.detail()));
        }
        if (failure.why() instanceof OpsMessage.Refused refused) {
            return txn.conflict(ConflictKind.PARTICIPANT_UNREACHABLE, 0, null, refused.reason());
        }
        String what = failure.thrown() != null ? failure.thrown().toString()
                : ((OpsMessage.Failed) failure.why()).type() + ": " + ((OpsMessage.Failed) failure.why()).message();
        txn.abortQuietly();
        return new IllegalStateException("a pushed chain failed at node " + failure.node() + ": " + what
                + "; the transaction was rolled back", failure.thrown());
    }

    /**
     * Enters reports in {@code run}'s ledger (each forward once), with the results and unseen
     * vertices that came with the last of them (the sender's own, the others it carried); a
     * failure ends the run.
     */
    private void report(Run run, int from, OpsMessage.Answer failure, List<ChainReport> reports, Bag results, long[] unseen) {
        synchronized (run) {
            if (run.done || run.failure != null) {
                return;
            }
            run.lastProgress = engine.time().nanos();
            if (from != node) {
                run.messages++;
            }
            boolean fresh = false; // whether the last report, the sender's own, which the results go with, is new
            for (ChainReport r : reports) {
                fresh = run.reported.add(r.forward());
                if (!fresh) {
                    continue;
                }
                run.nodes.add(r.node());
                if (r.node() != node) {
                    run.txn.remote.adopt(r.node(), r.wrote(), r.preReads());
                }
                for (int i = 0; i < r.spawned().length; i++) {
                    run.messages++;
                    if (!run.early.remove(r.spawned()[i])) {
                        run.pending.put(r.spawned()[i], r.spawnedNodes()[i]);
                    }
                }
                if (run.pending.remove(r.forward()) == null) {
                    run.early.add(r.forward());
                }
            }
            if (failure != null) {
                run.failure = new Failure(from, failure, null);
                run.notifyAll();
                return;
            }
            if (fresh) {
                run.results.addAll(results);
                run.unseen.addAll(unseen);
            }
            if (run.pending.isEmpty() && run.early.isEmpty()) {
                run.done = true;
                run.notifyAll();
            }
        }
    }

    /** A forward for a chain this node coordinates: its stages run on the coordinator's own transaction. */
    private void runAtCoordinator(Run run, long forward, Chain chain, int stage, Bag bag, List<ChainReport> carried) {
        Piece piece = new Piece();
        synchronized (run.lock) {
            if (run.finished) {
                return;
            }
            try {
                runHere(run.txn, chain, stage, bag, piece, cluster::remoteOwner);
            } catch (RuntimeException e) {
                // Recorded before the lock is let go: the client's thread takes it (finish) before it reads the failure.
                report(run, node, null, carried, new Bag(), new long[0]);
                synchronized (run) {
                    Failure here = new Failure(node, null, e);
                    run.failure = run.failure == null ? here : run.failure.then(here);
                    run.notifyAll();
                }
                return;
            }
        }
        Transaction txn = run.txn;
        synchronized (run.lock) {
            if (run.finished) {
                return; // the run failed meanwhile: nothing more is sent for it
            }
        }
        Onward onward = onward(txn.id(), txn.beginTime(), txn.isolation(), run.id, chain, piece);
        List<ChainReport> reports = new ArrayList<>(carried);
        reports.add(new ChainReport(node, forward, false, false, onward.ids, onward.to));
        report(run, node, null, reports, piece.results, piece.unseen.toArray());
        String refused = onward.send(List.of(), node, 0, null);
        if (refused != null) {
            report(run, node, new OpsMessage.Refused(refused), List.of(), new Bag(), new long[0]);
        }
    }

    // ------------------------------------------------------------------ messages

    /** A forward's node refused it: the reason. */
    static final class Refusal extends Exception {
        Refusal(String reason) {
            super(reason, null, false, false);
        }
    }

    /** A piece's onward bags as forwards, with their ids given before any is sent (a report names them). */
    private final class Onward {
        final int[] to;
        final long[] ids;
        final long[] requests;
        final OpsMessage.Traversers[] heads;

        Onward(int n) {
            to = new int[n];
            ids = new long[n];
            requests = new long[n];
            heads = new OpsMessage.Traversers[n];
        }

        /**
         * Sends every forward, the first carrying {@code carried}, and with them {@code result} (a
         * {@code RESULT} numbered {@code resultRequest}) to the coordinator, if not null; waits
         * until each is acknowledged. Returns null, or why a forward was not taken.
         */
        String send(List<ChainReport> carried, int coordinator, long resultRequest, OpsMessage.Result result) {
            int n = to.length + (result == null ? 0 : 1);
            if (n == 0) {
                return null;
            }
            int[] all = java.util.Arrays.copyOf(to, n);
            long[] numbers = java.util.Arrays.copyOf(requests, n);
            byte[][] payloads = new byte[n][];
            for (int i = 0; i < to.length; i++) {
                payloads[i] = OpsMessage.encode(new OpsMessage.Forward(requests[i], heads[i], i == 0 ? carried : List.of()));
            }
            if (result != null) {
                all[n - 1] = coordinator;
                numbers[n - 1] = resultRequest;
                payloads[n - 1] = OpsMessage.encode(result);
            }
            engine.remoteCalls.add(to.length);
            try {
                Wire.Reader[] answers = cluster.exchange(all, numbers, payloads);
                for (int i = 0; i < to.length; i++) {
                    OpsMessage.ChainAck ack = OpsMessage.chainAckOf(numbers[i], answers[i]);
                    if (ack.refusal() != null) {
                        return ack.refusal();
                    }
                }
                return null;
            } catch (TimeoutException | RuntimeException e) { // a node lost, or this one closing
                return e.getMessage();
            }
        }
    }

    /** The forwards that carry {@code piece}'s onward bags: one per node and stage. */
    private Onward onward(long txnId, long beginTime, Isolation isolation, long chainId, Chain chain, Piece piece) {
        Onward onward = new Onward(piece.onward.values().stream().mapToInt(Map::size).sum());
        int i = 0;
        for (Map.Entry<Integer, Map<Integer, Bag>> byNode : piece.onward.entrySet()) {
            for (Map.Entry<Integer, Bag> byStage : byNode.getValue().entrySet()) {
                onward.to[i] = byNode.getKey();
                onward.requests[i] = cluster.newRequest();
                onward.ids[i] = newId();
                Bag bag = byStage.getValue();
                onward.heads[i] = new OpsMessage.Traversers(onward.ids[i], txnId, beginTime, isolation, chainId, chain,
                        byStage.getKey(), bag.vertices(), bag.bulks());
                i++;
            }
        }
        return onward;
    }

    /** Takes a FORWARD (on the receiving thread: acknowledges it and leaves the work to another). */
    void forward(int from, OpsMessage.Forward message) {
        long request = message.request();
        OpsMessage.Traversers head = message.traversers();
        long forward = head.forward();
        long txnId = head.txn();
        long beginTime = head.beginTime();
        Isolation isolation = head.isolation();
        long chainId = head.chainId();
        Chain chain = head.chain();
        int stage = head.stage();
        Bag bag = Bag.of(head.vertices(), head.bulks());
        List<ChainReport> carried = message.carried();
        if (TxnWords.node(txnId) == node) {
            Run run = runs.get(chainId);
            boolean fresh = run != null && run.txn.id() == txnId && run.seen.add(forward);
            ack(from, request, null); // a run that ended has nothing left to do with it
            if (fresh) {
                work.execute(() -> runAtCoordinator(run, forward, chain, stage, bag, carried));
            }
            return;
        }
        ClusterParts.Context context;
        try {
            context = cluster.contextForForward(from, txnId, beginTime, isolation);
        } catch (Refusal refusal) {
            ack(from, request, refusal.getMessage());
            return;
        }
        boolean fresh = context.forwards.add(forward);
        ack(from, request, null);
        if (fresh) {
            work.execute(() -> runAtPart(context, chainId, forward, chain, stage, bag, carried));
        }
    }

    private void ack(int to, long request, String refusal) {
        cluster.acknowledge(to, request, refusal);
    }

    /**
     * A forward for another node's transaction: runs under its part here and sends on. A piece
     * with nothing for the coordinator but its report hands the report, with those it carried, to
     * its first forward; any other reports in a {@code RESULT}.
     */
    private void runAtPart(ClusterParts.Context context, long chainId, long forward, Chain chain, int stage, Bag bag,
            List<ChainReport> carried) {
        Transaction txn = context.txn;
        Piece piece = new Piece();
        OpsMessage.Answer failure = null;
        boolean wrote;
        boolean preReads;
        synchronized (context) {
            String refused = cluster.refusesOperations(context);
            if (refused != null) {
                failure = new OpsMessage.Refused(refused);
            } else {
                try {
                    runHere(txn, chain, stage, bag, piece, cluster::remoteOwner);
                } catch (TransactionConflictException e) {
                    failure = new OpsMessage.Conflict(false, false, e.kind(), e.otherTransaction(), e.on(), e.detail());
                } catch (RuntimeException e) {
                    failure = new OpsMessage.Failed(false, false, e.getClass().getName(), String.valueOf(e.getMessage()));
                }
            }
            wrote = context.wrote;
            preReads = !txn.visibility.preReadDependencies.isEmpty();
        }
        int coordinator = TxnWords.node(txn.id());
        Onward onward = failure == null ? onward(txn.id(), txn.beginTime(), txn.isolation(), chainId, chain, piece)
                : new Onward(0);
        List<ChainReport> reports = new ArrayList<>(carried);
        reports.add(new ChainReport(node, forward, wrote, preReads, onward.ids, onward.to));
        if (failure != null) {
            sendResult(coordinator, chainId, failure, reports, new Piece());
            return;
        }
        boolean handOn = onward.to.length > 0 && piece.results.isEmpty() && piece.unseen.size() == 0;
        long request = cluster.newRequest();
        OpsMessage.Result result = handOn ? null : result(request, chainId, null, reports, piece);
        // The result goes with the forwards, not after their acknowledgements: the ledger holds the forwards until they report.
        String refused = onward.send(handOn ? reports : List.of(), coordinator, request, result);
        if (refused != null) {
            sendResult(coordinator, chainId, new OpsMessage.Refused(refused), reports, new Piece());
        }
    }

    private static OpsMessage.Result result(long request, long chainId, OpsMessage.Answer failure, List<ChainReport> reports,
            Piece piece) {
        return new OpsMessage.Result(request, chainId, failure, reports, piece.results.vertices(), piece.results.bulks(),
                piece.unseen.toArray());
    }

    /**
     * Sends a {@code RESULT} until acknowledged; a coordinator gone or cut off times the chain out
     * (or its loss aborts the part here).
     */
    private void sendResult(int coordinator, long chainId, OpsMessage.Answer failure, List<ChainReport> reports, Piece piece) {
        long request = cluster.newRequest();
        try {
            byte[] payload = OpsMessage.encode(result(request, chainId, failure, reports, piece));
            cluster.exchange(new int[] {coordinator}, new long[] {request}, new byte[][] {payload});
        } catch (TimeoutException | RuntimeException e) {
            // nothing more to do here
        }
    }

    /** Takes a RESULT for a run this node coordinates (on the receiving thread). */
    void result(int from, OpsMessage.Result message) {
        ack(from, message.request(), null);
        Run run = runs.get(message.chainId());
        if (run != null) {
            report(run, from, message.failure(), message.reports(), Bag.of(message.vertices(), message.bulks()), message.unseen());
        }
    }
}
