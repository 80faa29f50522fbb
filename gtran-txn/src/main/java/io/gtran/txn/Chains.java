// Over 600 lines: the coordinator's ledger and each node's forwarding of a pushed chain share one run state; to split with Transaction (issue 34).
package io.gtran.txn;

import io.gtran.storage.Dictionary;
import io.gtran.storage.GraphStore;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.protocol.OpsMessage;
import io.gtran.txn.protocol.Wire;
import io.gtran.txn.query.Chain;
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
 * what it sent on ({@link Report}), to the coordinator with what came out of the last stage
 * ({@code RESULT}), or, when it has nothing else to say, carried by its first forward. The
 * coordinator's ledger of outstanding forwards tells it when the chain is done.
 */
final class Chains {
    private static final byte[] NO_BODY = new byte[0];

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

        void write(Wire.Writer w) {
            w.putLongs(vertices()).putLongs(bulks());
        }

        static Bag read(Wire.Reader in) {
            return of(in.getLongs(), in.getLongs());
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

    /** Why a run failed: a node's status and body, or an exception thrown here. */
    private record Failure(int node, int status, byte[] body, RuntimeException thrown) {
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
            Report root = new Report(node, run.id, false, false, onward.ids, onward.to);
            report(run, node, ClusterParts.OK, List.of(root), piece.results, piece.unseen.toArray(), NO_BODY);
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
        return new Failure(node, ClusterParts.REFUSED, new Wire.Writer().putString(reason).bytes(), null);
    }

    /** The exception a failed run throws, in the client's thread; the transaction is aborted. */
    private static RuntimeException failed(Transaction txn, Failure failure) {
        if (failure.thrown() instanceof TransactionConflictException e) {
            return e; // aborted the transaction when thrown
        }
        Wire.Reader body = new Wire.Reader(failure.body());
        switch (failure.status()) {
            case ClusterParts.CONFLICT -> {
                ConflictKind kind = ConflictKind.values()[body.getByte()];
                long other = body.getLong();
                String on = body.getString();
                String detail = body.getString();
                return txn.remoteConflict(kind, other, on, "at node " + failure.node() + (detail == null ? "" : ": " + detail));
            }
            case ClusterParts.REFUSED -> {
                return txn.conflict(ConflictKind.PARTICIPANT_UNREACHABLE, 0, null, body.getString());
            }
            default -> {
                String what = failure.thrown() != null ? failure.thrown().toString() : body.getString() + ": " + body.getString();
                txn.abortQuietly();
                return new IllegalStateException("a pushed chain failed at node " + failure.node() + ": " + what
                        + "; the transaction was rolled back", failure.thrown());
            }
        }
    }

    /**
     * What a node did with one forward: the forward id, whether the transaction's part there has
     * written or pre-read, and the forwards it sent on (ids and nodes). Sent to the coordinator in
     * a {@code RESULT}, or carried by the first forward sent on when there is nothing else to report.
     */
    record Report(int node, long forward, boolean wrote, boolean preReads, long[] spawned, int[] spawnedNodes) {
        void write(Wire.Writer w) {
            w.putInt(node).putLong(forward).putBoolean(wrote).putBoolean(preReads).putLongs(spawned).putParticipants(spawnedNodes);
        }

        static Report read(Wire.Reader in) {
            return new Report(in.getInt(), in.getLong(), in.getBoolean(), in.getBoolean(), in.getLongs(), in.getParticipants());
        }

        static void writeAll(Wire.Writer w, List<Report> reports) {
            w.putInt(reports.size());
            reports.forEach(r -> r.write(w));
        }

        static List<Report> readAll(Wire.Reader in) {
            int n = in.getInt();
            List<Report> reports = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                reports.add(read(in));
            }
            return reports;
        }
    }

    /**
     * Enters reports in {@code run}'s ledger (each forward once), with the results and unseen
     * vertices that came with the last of them (the sender's own, the others it carried); a
     * failed status ends the run.
     */
    private void report(Run run, int from, int status, List<Report> reports, Bag results, long[] unseen, byte[] body) {
        synchronized (run) {
            if (run.done || run.failure != null) {
                return;
            }
            run.lastProgress = engine.time().nanos();
            if (from != node) {
                run.messages++;
            }
            boolean fresh = false; // whether the last report, the sender's own, which the results go with, is new
            for (Report r : reports) {
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
            if (status != ClusterParts.OK) {
                run.failure = new Failure(from, status, body, null);
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
    private void runAtCoordinator(Run run, long forward, Chain chain, int stage, Bag bag, List<Report> carried) {
        Piece piece = new Piece();
        RuntimeException thrown = null;
        synchronized (run.lock) {
            if (run.finished) {
                return;
            }
            try {
                runHere(run.txn, chain, stage, bag, piece, cluster::remoteOwner);
            } catch (RuntimeException e) {
                thrown = e;
            }
        }
        if (thrown != null) {
            report(run, node, ClusterParts.OK, carried, new Bag(), new long[0], NO_BODY);
            synchronized (run) {
                if (run.failure == null) {
                    run.failure = new Failure(node, ClusterParts.ERROR, NO_BODY, thrown);
                }
                run.notifyAll();
            }
            return;
        }
        Transaction txn = run.txn;
        synchronized (run.lock) {
            if (run.finished) {
                return; // the run failed meanwhile: nothing more is sent for it
            }
        }
        Onward onward = onward(txn.id(), txn.beginTime(), txn.isolation(), run.id, chain, piece);
        List<Report> reports = new ArrayList<>(carried);
        reports.add(new Report(node, forward, false, false, onward.ids, onward.to));
        report(run, node, ClusterParts.OK, reports, piece.results, piece.unseen.toArray(), NO_BODY);
        String refused = onward.send(List.of(), node, 0, null);
        if (refused != null) {
            byte[] why = new Wire.Writer().putString(refused).bytes();
            report(run, node, ClusterParts.REFUSED, List.of(), new Bag(), new long[0], why);
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
        final byte[][] heads;

        Onward(int n) {
            to = new int[n];
            ids = new long[n];
            requests = new long[n];
            heads = new byte[n][];
        }

        /**
         * Sends every forward, the first carrying {@code carried}, and with them {@code result} (a
         * {@code RESULT} numbered {@code resultRequest}) to the coordinator, if not null; waits
         * until each is acknowledged. Returns null, or why a forward was not taken.
         */
        String send(List<Report> carried, int coordinator, long resultRequest, byte[] result) {
            int n = to.length + (result == null ? 0 : 1);
            if (n == 0) {
                return null;
            }
            int[] all = java.util.Arrays.copyOf(to, n);
            long[] numbers = java.util.Arrays.copyOf(requests, n);
            byte[][] payloads = new byte[n][];
            for (int i = 0; i < to.length; i++) {
                Wire.Writer w = new Wire.Writer().putByte(OpsMessage.FORWARD).putLong(requests[i]).putBytes(heads[i]);
                Report.writeAll(w, i == 0 ? carried : List.of());
                payloads[i] = w.bytes();
            }
            if (result != null) {
                all[n - 1] = coordinator;
                numbers[n - 1] = resultRequest;
                payloads[n - 1] = result;
            }
            engine.remoteCalls.add(to.length);
            try {
                Wire.Reader[] answers = cluster.exchange(all, numbers, payloads);
                for (int i = 0; i < to.length; i++) {
                    Wire.Reader answer = new Wire.Reader(OpsMessage.chainAckOf(answers[i]));
                    if (answer.getByte() != ClusterParts.OK) {
                        return answer.getString();
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
                Wire.Writer w = new Wire.Writer().putLong(onward.ids[i]).putLong(txnId).putLong(beginTime)
                        .putByte(isolation.ordinal()).putLong(chainId);
                chain.write(w);
                w.putInt(byStage.getKey());
                byStage.getValue().write(w);
                onward.heads[i++] = w.bytes();
            }
        }
        return onward;
    }

    /** Takes a FORWARD (on the receiving thread: acknowledges it and leaves the work to another). */
    void forward(int from, long request, Wire.Reader in) {
        Wire.Reader head = new Wire.Reader(in.getBytes());
        long forward = head.getLong();
        long txnId = head.getLong();
        long beginTime = head.getLong();
        Isolation isolation = Isolation.values()[head.getByte()];
        long chainId = head.getLong();
        Chain chain = Chain.read(head);
        int stage = head.getInt();
        Bag bag = Bag.read(head);
        List<Report> carried = Report.readAll(in);
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
        Wire.Writer body = new Wire.Writer().putByte(refusal == null ? ClusterParts.OK : ClusterParts.REFUSED);
        if (refusal != null) {
            body.putString(refusal);
        }
        cluster.reply(to, request, body.bytes());
    }

    /**
     * A forward for another node's transaction: runs under its part here and sends on. A piece
     * with nothing for the coordinator but its report hands the report, with those it carried, to
     * its first forward; any other reports in a {@code RESULT}.
     */
    private void runAtPart(ClusterParts.Context context, long chainId, long forward, Chain chain, int stage, Bag bag,
            List<Report> carried) {
        Transaction txn = context.txn;
        Piece piece = new Piece();
        int status = ClusterParts.OK;
        byte[] body = NO_BODY;
        boolean wrote;
        boolean preReads;
        synchronized (context) {
            String refused = cluster.refusesOperations(context);
            if (refused != null) {
                status = ClusterParts.REFUSED;
                body = new Wire.Writer().putString(refused).bytes();
            } else {
                try {
                    runHere(txn, chain, stage, bag, piece, cluster::remoteOwner);
                } catch (TransactionConflictException e) {
                    status = ClusterParts.CONFLICT;
                    body = new Wire.Writer().putByte(e.kind().ordinal()).putLong(e.otherTransaction()).putString(e.on())
                            .putString(e.detail()).bytes();
                } catch (RuntimeException e) {
                    status = ClusterParts.ERROR;
                    body = new Wire.Writer().putString(e.getClass().getName()).putString(String.valueOf(e.getMessage())).bytes();
                }
            }
            wrote = context.wrote;
            preReads = !txn.visibility.preReadDependencies.isEmpty();
        }
        int coordinator = TxnWords.node(txn.id());
        Onward onward = status == ClusterParts.OK ? onward(txn.id(), txn.beginTime(), txn.isolation(), chainId, chain, piece)
                : new Onward(0);
        List<Report> reports = new ArrayList<>(carried);
        reports.add(new Report(node, forward, wrote, preReads, onward.ids, onward.to));
        if (status != ClusterParts.OK) {
            sendResult(coordinator, chainId, status, reports, new Piece(), body);
            return;
        }
        boolean handOn = onward.to.length > 0 && piece.results.isEmpty() && piece.unseen.size() == 0;
        long request = cluster.newRequest();
        byte[] result = handOn ? null : result(request, chainId, ClusterParts.OK, reports, piece, NO_BODY);
        // The result goes with the forwards, not after their acknowledgements: the ledger holds the forwards until they report.
        String refused = onward.send(handOn ? reports : List.of(), coordinator, request, result);
        if (refused != null) {
            byte[] why = new Wire.Writer().putString(refused).bytes();
            sendResult(coordinator, chainId, ClusterParts.REFUSED, reports, new Piece(), why);
        }
    }

    private static byte[] result(long request, long chainId, int status, List<Report> reports, Piece piece, byte[] body) {
        Wire.Writer w = new Wire.Writer().putByte(OpsMessage.RESULT).putLong(request).putLong(chainId).putByte(status);
        Report.writeAll(w, reports);
        piece.results.write(w);
        return w.putLongs(piece.unseen.toArray()).putBytes(body).bytes();
    }

    /**
     * Sends a {@code RESULT} until acknowledged; a coordinator gone or cut off times the chain out
     * (or its loss aborts the part here).
     */
    private void sendResult(int coordinator, long chainId, int status, List<Report> reports, Piece piece, byte[] body) {
        long request = cluster.newRequest();
        try {
            byte[] payload = result(request, chainId, status, reports, piece, body);
            cluster.exchange(new int[] {coordinator}, new long[] {request}, new byte[][] {payload});
        } catch (TimeoutException | RuntimeException e) {
            // nothing more to do here
        }
    }

    /** Takes a RESULT for a run this node coordinates (on the receiving thread). */
    void result(int from, long request, Wire.Reader in) {
        long chainId = in.getLong();
        int status = in.getByte();
        List<Report> reports = Report.readAll(in);
        Bag results = Bag.read(in);
        long[] unseen = in.getLongs();
        byte[] body = in.getBytes();
        ack(from, request, null);
        Run run = runs.get(chainId);
        if (run != null) {
            report(run, from, status, reports, results, unseen, body);
        }
    }
}
