// Over 600 lines: the coordinator's rounds, the participants' parts and recovery share one message path and the locks that order a loss against a re-admission.
package io.gtran.txn.commit;

import io.gtran.txn.agent.Agent;
import io.gtran.txn.agent.AgentHandle;
import io.gtran.txn.agent.AgentHost;
import io.gtran.txn.agent.TimeSource;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.membership.LossQuorum;
import io.gtran.txn.membership.MemberView;
import io.gtran.txn.protocol.CommitMessage;
import io.gtran.txn.protocol.Family;
import io.gtran.txn.protocol.NodeMailbox;
import io.gtran.txn.protocol.Outcome;
import io.gtran.txn.protocol.Vote;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's side of the cross-node commit protocol over its fabric (docs/cluster-transactions.md):
 * as coordinator, {@link #commit} sends VALIDATE, collects votes, fences late voters, decides, and
 * DECIDEs every participant until acknowledged; as participant, it answers VALIDATE through its
 * {@link Participant}, applies decisions once, answers RECOVER, and recovers the transactions of
 * a coordinator the fabric reports lost. Every control message is retried until answered (a
 * ticker thread resends what is outstanding) and handled idempotently, by the rules of {@link
 * CoordinatorRound}, {@link ParticipantRecord} and {@link Recovery}.
 *
 * <p>A transaction's coordinator is the node in its id ({@link TxnWords#node}). Its messages
 * ({@link CommitMessage}) go through the node's one mailbox, whose receive path hands it those of
 * {@link Family#COMMIT}.
 */
public final class CommitMessenger implements MemberView.Commitments, AutoCloseable {
    /** How long a decided part of a restarted coordinator is kept, unless another constructor says. */
    public static final long FORGET_MILLIS_DEFAULT = 30_000;
    private static final Logger LOG = LoggerFactory.getLogger(CommitMessenger.class);

    /** What a participant node does for the protocol; both calls may block, neither on the messenger. */
    public interface Participant {
        /**
         * This node's final vote for {@code txn}: its validation at {@code commitTime}, dependencies
         * resolved; {@code participants} are the coordinator's other participants, this node among them.
         */
        Vote validate(long txn, long commitTime, int[] participants);

        /** Stamps or undoes {@code txn}'s writes here; called once per transaction and node. */
        void apply(long txn, Outcome outcome, long commitTime);
    }

    /**
     * Where the coordinator's decisions go before DECIDE leaves (docs/durability.md, "Nodes of a
     * cluster", C3): a node with a log makes each durable; one without has nothing to write.
     */
    public interface DecisionLog {
        /** Nothing is logged: every decision is durable at once. */
        DecisionLog NONE = new DecisionLog() {
            @Override
            public CompletableFuture<Void> decided(long txn, Outcome outcome, long commitTime, int[] participants) {
                return CompletableFuture.completedFuture(null);
            }

            @Override
            public void released(long txn) {
            }
        };

        /** Makes the decision of a round this node coordinates durable; completes once it is. */
        CompletableFuture<Void> decided(long txn, Outcome outcome, long commitTime, int[] participants);

        /** Every participant acknowledged {@code txn}'s decision: it need not be sent again after a restart. */
        void released(long txn);
    }

    /** A logged decision not every participant has acknowledged: see {@link #undelivered}. */
    public record Undelivered(long txn, long commitTime, int[] participants, Outcome outcome) {
    }

    private volatile DecisionLog decisionLog = DecisionLog.NONE;
    /** Set while this node replays its log: see {@link #holdUntilRestored}. */
    private volatile boolean holding;
    /** Decisions a restart found in the log, of transactions this node voted YES for (see {@link #restoreDecided}). */
    private final Map<Long, Outcome> restoredDecisions = new ConcurrentHashMap<>();
    /** The cut of the snapshot this node restarted from; {@link Long#MIN_VALUE} without one. */
    private volatile long restoredThrough = Long.MIN_VALUE;
    private final int node;
    private final LossQuorum quorum;
    private final long lossDelayMillis;
    /** Losses reported and waiting out {@link #lossDelayMillis} before they are acted on: the tick's to act on. */
    private final Queue<PendingLoss> pendingLosses = new ConcurrentLinkedQueue<>();
    private final TimeSource time;
    private final Participant participant;
    private final NodeMailbox mailbox;
    private final long voteTimeoutNanos;
    private final ExecutorService work;
    private final AgentHandle ticker;
    private final long tickMillis;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Set<Integer> lost = ConcurrentHashMap.newKeySet();
    /** Told each loss this node acts on (see {@link #onActedOn}). */
    private final List<IntConsumer> actedListeners = new CopyOnWriteArrayList<>();
    /** Members known to have restarted under their id: nothing is owed to them any more. */
    private final Set<Integer> gone = ConcurrentHashMap.newKeySet();
    /** Per member, how often it was re-admitted: a loss reported before a re-admission is not acted on. */
    private final Map<Integer, Integer> epochs = new ConcurrentHashMap<>();
    /** Serialises acting on a loss with re-admitting the member (see {@link #readmit}). */
    private final Object lossLock = new Object();
    /**
     * When the fabric last reported each member lost. A rejoin message heard before that report
     * cannot re-admit the member: it may be the last word of a process that died since.
     */
    private final Map<Integer, Long> reportedAt = new ConcurrentHashMap<>();
    /** Orders loss reports against re-admissions: taken briefly, by the fabric's listener thread too. */
    private final Object reportLock = new Object();
    /** Losses reported while this node had no majority, by epoch: acted on once it has one again. */
    private final Map<Integer, Integer> unacted = new ConcurrentHashMap<>();
    private final long forgetNanos;
    /** Transactions this node coordinates. */
    private final Map<Long, Round> rounds = new ConcurrentHashMap<>();
    /**
     * Decided rounds whose status entry is freed (every participant not lost acknowledged) but
     * whose DECIDE a lost participant has not acknowledged: sent to it again every tick, lost or
     * not, so it learns the decision when messages flow again (docs: rejoining).
     */
    private final Map<Long, Round> owed = new ConcurrentHashMap<>();
    /** This node's parts of other nodes' transactions, and what it forgot of them. */
    private final PartTable<Part> parts;
    /** Read-only transactions' DECIDEs and their ACKs, waiting for a bundle (docs: "Bundles"); the ticker sends them. */
    private final Bundles bundles = new Bundles();
    /** The parts in recovery: the ticker resends their messages every tick. */
    private final Set<Long> recovering = ConcurrentHashMap.newKeySet();
    /**
     * How often the ticker looks through every part for those it may forget. A node holds a part
     * for each status slot of its peers that was used since, thousands under load; one pass a
     * tick cost several per cent of a loaded node's CPU (docs/benchmarks.md, "Profiles").
     */
    private static final long SWEEP_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** When the ticker last looked through every part (the time source's nanos); the ticker's alone. */
    private long lastSweepNanos;

    /** A coordinated transaction: its round, its answer, and who has acknowledged the decision. */
    private static final class Round {
        final CoordinatorRound round;
        final long commitTime;
        final long startNanos;
        final CompletableFuture<Outcome> answer = new CompletableFuture<>();
        /** Completed once every participant acknowledged the decision (or is lost). */
        final CompletableFuture<Void> done = new CompletableFuture<>();
        final Set<Integer> acked = ConcurrentHashMap.newKeySet();
        /** When the round's messages were last sent: the ticker resends only what has waited a tick. */
        volatile long sentNanos;
        final AtomicBoolean decideSent = new AtomicBoolean();
        /** Whether VALIDATE was sent (votes exist, so the decision is logged); false for a round that only aborts parts. */
        final boolean voted;
        /** Set when the decision is first seen: it is logged once. */
        final AtomicBoolean logging = new AtomicBoolean();
        /** Set once the decision is durable: only then does DECIDE leave (and an ABORT reach the client). */
        volatile boolean logged;
        /** Whether its DECIDEs travel in bundles (a read-only transaction's release). */
        final boolean bundled;

        Round(int[] participants, long commitTime, long nowNanos, boolean voted, boolean bundled) {
            this.round = new CoordinatorRound(participants);
            this.commitTime = commitTime;
            this.startNanos = nowNanos;
            this.sentNanos = nowNanos; // the first sends are the caller's: the tick resends a tick later
            this.voted = voted;
            this.bundled = bundled;
        }
    }

    /** This node's part of a transaction: its record, and a recovery it runs, if any. */
    private static final class Part {
        final ParticipantRecord record;
        volatile long commitTime;
        volatile boolean applied;
        /** Set once {@link Participant#apply} returned: no word here names the transaction any more. */
        volatile boolean done;
        /**
         * Nodes whose DECIDE is not acknowledged yet, each with whether it came in a bundle (its ACK
         * then goes in one). Whoever removes a node acknowledges it: the apply when it returns, or the
         * DECIDE's thread if it finds the apply done; so each DECIDE gets one ACK.
         */
        final Map<Integer, Boolean> ackWhenDone = new ConcurrentHashMap<>();
        /** When this part was decided here (the time source's nanos), 0 before. */
        volatile long decidedNanos;
        /** While recovering: the reports collected; null otherwise. */
        volatile Map<Integer, ParticipantRecord.Report> recovery;
        /** Whether a recovery that cannot decide (a participant forgot) has said so. */
        final AtomicBoolean waitLogged = new AtomicBoolean();
        /** After a decision this node spreads (recovery): who has acknowledged it. */
        final Set<Integer> acked = ConcurrentHashMap.newKeySet();
        volatile long sentNanos;

        Part(int node) {
            this.record = new ParticipantRecord(node);
        }
    }

    /** A loss of {@code peer} reported in re-admission epoch {@code epoch}, to act on from {@code dueNanos}. */
    private record PendingLoss(int peer, int epoch, long dueNanos) {
    }

    /**
     * Starts the messenger on its node's {@code mailbox}.
     *
     * @param voteTimeoutMillis how long the coordinator waits for votes before it fences the missing ones
     * @param tickMillis        how often outstanding messages are sent again
     */
    public CommitMessenger(NodeMailbox mailbox, Participant participant, long voteTimeoutMillis, long tickMillis) {
        this(mailbox, participant, voteTimeoutMillis, tickMillis, peer -> true, 0);
    }

    /**
     * A messenger that acts on a peer's loss (the coordinator aborts rounds waiting for it; a
     * participant recovers the transactions it coordinated) only if {@code quorum} holds {@code
     * lossDelayMillis} after the fabric reported the loss. A node on the minority side of a
     * partition then leaves every decision to the majority: its rounds wait (the client is told
     * the outcome is unknown) and are settled by the majority's recovery when messages flow again.
     */
    public CommitMessenger(NodeMailbox mailbox, Participant participant, long voteTimeoutMillis, long tickMillis, LossQuorum quorum,
            long lossDelayMillis) {
        this(mailbox, participant, voteTimeoutMillis, tickMillis, quorum, lossDelayMillis, FORGET_MILLIS_DEFAULT,
                AgentHost.threads(TimeSource.SYSTEM));
    }

    /**
     * As above, keeping a decided part of a coordinator known restarted {@code forgetMillis} (any
     * other decided part is kept until its coordinator reuses its slot: {@link SlotSequences}), and
     * running its loops and work on {@code host}, which also tells it the time.
     *
     * <p>The messenger does not listen to the fabric for lost peers: its node's member view tells
     * it ({@link #lossReported}, {@link #reported}); a messenger used alone is told by its owner.
     */
    public CommitMessenger(NodeMailbox mailbox, Participant participant, long voteTimeoutMillis, long tickMillis, LossQuorum quorum,
            long lossDelayMillis, long forgetMillis, AgentHost host) {
        this.time = host.time();
        this.lastSweepNanos = time.nanos();
        this.forgetNanos = TimeUnit.MILLISECONDS.toNanos(forgetMillis);
        this.mailbox = mailbox;
        this.node = mailbox.node();
        this.parts = new PartTable<>(() -> new Part(node));
        this.quorum = quorum;
        this.lossDelayMillis = lossDelayMillis;
        this.participant = participant;
        this.voteTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(voteTimeoutMillis);
        this.tickMillis = tickMillis;
        this.work = host.workers("commit-work-" + node);
        quorum.onOutcome(this::quorumDecided);
        mailbox.on(Family.COMMIT, this::onMessage);
        this.ticker = host.start(new Ticker());
    }

    /** Runs {@code task} on the work pool, unless this messenger is closed (the mailbox outlives it). */
    private void execute(Runnable task) {
        if (closed.get()) {
            return;
        }
        try {
            work.execute(task);
        } catch (RejectedExecutionException closedMeanwhile) {
            // closed between the check and the call: nothing is owed to a closed node
        }
    }

    /**
     * Commits {@code txn}, which this node coordinates and has validated itself (its own vote was
     * YES), with the other nodes that hold parts of it.
     *
     * @return the outcome to tell the client; DECIDE reaches the participants afterwards
     * @throws IllegalArgumentException if this node does not coordinate {@code txn}, or the participants include it
     */
    public CompletableFuture<Outcome> commit(long txn, long commitTime, int[] participants) {
        if (TxnWords.node(txn) != node) {
            throw new IllegalArgumentException("node " + node + " does not coordinate txn " + txn);
        }
        for (int p : participants) {
            if (p == node) {
                throw new IllegalArgumentException("the coordinator is not one of the other participants: node=" + node);
            }
        }
        Round round = new Round(participants, commitTime, time.nanos(), true, false);
        if (rounds.putIfAbsent(txn, round) != null) {
            throw new IllegalStateException("txn " + txn + " is already committing");
        }
        for (int p : participants) {
            if (lost.contains(p)) {
                round.round.onLost(p);
            }
        }
        decided(txn, round);
        sendValidates(txn, round);
        return round.answer;
    }

    /**
     * Aborts {@code txn}, which this node coordinates and which never sent VALIDATE (its own part
     * failed, or the client rolled back): DECIDE ABORT reaches every participant in {@code
     * participants}, retried until each acknowledged or is lost. Returns when that is done.
     */
    public CompletableFuture<Void> abort(long txn, int[] participants) {
        return abandon(txn, participants, false);
    }

    /**
     * Releases the parts of {@code txn}, a read-only transaction this node coordinates, as {@link
     * #abort} does, but its DECIDE ABORTs (and their ACKs) travel in bundles: each waits at most for
     * the next tick (docs/cluster-transactions.md, "Bundles"). Returns once every part acknowledged.
     */
    public CompletableFuture<Void> release(long txn, int[] participants) {
        return abandon(txn, participants, true);
    }

    private CompletableFuture<Void> abandon(long txn, int[] participants, boolean bundled) {
        if (TxnWords.node(txn) != node) {
            throw new IllegalArgumentException("node " + node + " does not coordinate txn " + txn);
        }
        Round round = new Round(participants, 0, time.nanos(), false, bundled);
        round.round.abandon();
        Round before = rounds.putIfAbsent(txn, round);
        if (before != null) {
            return before.done;
        }
        decided(txn, round);
        return round.done;
    }

    /** Completes once every participant of {@code txn}'s round acknowledged the decision (at once if there is no round). */
    public CompletableFuture<Void> acknowledged(long txn) {
        Round round = rounds.get(txn);
        return round == null ? CompletableFuture.completedFuture(null) : round.done;
    }

    /**
     * Notes that this node holds a part of {@code txn} (a participant context): if its coordinator
     * is lost before VALIDATE arrives, the part is aborted here ({@link Participant#apply}).
     */
    public void open(long txn) {
        if (!parts.forgotten(txn)) {
            parts.part(txn);
        }
    }

    /**
     * Whether operations of {@code txn} may still run here: false once it voted, was fenced or
     * decided, and for one this node forgot (see {@link SlotSequences}).
     */
    public boolean acceptsOperations(long txn) {
        Part part = parts.get(txn);
        return part == null ? !parts.forgotten(txn) : part.record.acceptsOperations();
    }

    /** Why operations of {@code txn} no longer run here, for a refusal's message (see {@link #acceptsOperations}). */
    public String whyNoOperations(long txn) {
        Part part = parts.get(txn);
        if (part != null) {
            return "its part here: " + part.record;
        }
        return "no part here, and sequence " + parts.highestSeen(txn) + " of its slot seen here: decided and forgotten";
    }

    private void sendValidates(long txn, Round round) {
        for (int p : round.round.participants()) {
            if (round.round.decision() == null && !lost.contains(p)) {
                send(p, new CommitMessage.Validate(txn, round.commitTime, round.round.participants()));
            }
        }
    }

    /**
     * A restart found this node's YES vote for {@code txn} in its log, without a decision
     * (docs/durability.md, "Nodes of a cluster", restart step 2): the part holds YES for whoever
     * asks, fenced; its outcome comes with its coordinator's DECIDE (the coordinator still owes it,
     * C3) and is applied through {@link Participant#apply}. For a transaction this node coordinated,
     * a recovery starts now: RECOVER to every other participant, the outcome from their reports.
     */
    public void restoreInDoubt(long txn, long commitTime, int[] participants) {
        Part part = parts.part(txn);
        part.commitTime = commitTime;
        boolean own = TxnWords.node(txn) == node;
        int[] all = participants;
        if (own && !contains(participants, node)) {
            all = Arrays.copyOf(participants, participants.length + 1);
            all[participants.length] = node;
        }
        part.record.restoreYes(all);
        if (own) {
            startRecovery(txn, part, all);
            execute(() -> finishRecovery(txn, part));
        }
    }

    /**
     * A restart found the decision of {@code txn}, which this node coordinated, and no record that
     * every participant acknowledged it: DECIDE is sent again every tick until each has (C3).
     */
    public void restoreOwed(long txn, Outcome outcome, long commitTime, int[] participants) {
        Round round = new Round(participants, commitTime, time.nanos(), true, false);
        round.round.adopt(outcome);
        round.logging.set(true);
        round.logged = true;
        round.decideSent.set(true);
        round.answer.complete(outcome);
        owed.put(txn, round);
    }

    /**
     * A restart found this node's vote and the decision of {@code txn} in its log: a recovery that
     * asks (a member that restarted in doubt) gets the decision, not a fresh NO.
     */
    public void restoreDecided(long txn, Outcome outcome) {
        restoredDecisions.put(txn, outcome);
    }

    /**
     * The logged decisions of rounds this node coordinates that not every participant has
     * acknowledged yet (a snapshot keeps them: docs/durability.md, "Nodes of a cluster", C3).
     */
    public List<Undelivered> undelivered() {
        List<Undelivered> out = new ArrayList<>();
        BiConsumer<Long, Round> add = (txn, round) -> {
            Outcome decision = round.round.decision();
            if (round.voted && round.logged && decision != null) {
                out.add(new Undelivered(txn, round.commitTime, round.round.participants(), decision));
            }
        };
        rounds.forEach(add);
        owed.forEach(add);
        return out;
    }

    /** This node restarted from a snapshot whose cut is {@code snapshotTime}: see the RECOVER handling. */
    public void restoredThrough(long snapshotTime) {
        this.restoredThrough = snapshotTime;
    }

    /**
     * Uses {@code log} for the decisions of the rounds this node coordinates from now on; set
     * before the first round.
     */
    public void useDecisionLog(DecisionLog log) {
        this.decisionLog = log;
    }

    /**
     * Once a round has a decision: it is logged (a round that sent VALIDATE), then answered (a
     * COMMIT at once: it is committed by its durable votes), then DECIDE goes out until every
     * participant acknowledged or is lost.
     */
    private void decided(long txn, Round round) {
        Outcome decision = round.round.decision();
        if (decision == null) {
            return;
        }
        if (round.logging.compareAndSet(false, true)) {
            if (decision == Outcome.COMMIT) {
                round.answer.complete(decision);
            }
            CompletableFuture<Void> durable = round.voted
                    ? decisionLog.decided(txn, decision, round.commitTime, round.round.participants())
                    : CompletableFuture.completedFuture(null);
            // On the work pool: a log's completion runs on its own thread, which must not wait for sends.
            durable.whenCompleteAsync((ok, failure) -> {
                if (failure != null) {
                    // Not durable: no DECIDE may leave (C3), and an ABORT is not told (the client hears the outcome is unknown).
                    LOG.error("node={} could not log the decision {} of txn {}; it is not sent: {}", node, decision, txn,
                            failure.toString());
                    return;
                }
                round.logged = true;
                decided(txn, round);
            }, durable.isDone() ? Runnable::run : work);
            return;
        }
        if (!round.logged) {
            return;
        }
        round.answer.complete(decision);
        if (round.decideSent.compareAndSet(false, true)) {
            round.sentNanos = time.nanos();
            sendDecides(txn, round, decision); // later sends are the ticker's
        }
        if (allAcked(round.acked, round.round.participants())) {
            boolean every = everyAcked(round.acked, round.round.participants());
            if (!every) {
                owed.put(txn, round); // before the removal: settledWith never misses it
            }
            if (rounds.remove(txn) != null && every && round.voted) {
                decisionLog.released(txn);
            }
            round.done.complete(null);
        }
    }

    /** Whether every participant acknowledged, lost or not, except those known restarted. */
    private boolean everyAcked(Set<Integer> acked, int[] participants) {
        for (int p : participants) {
            if (!acked.contains(p) && !gone.contains(p)) {
                return false;
            }
        }
        return true;
    }

    private void sendDecides(long txn, Round round, Outcome decision) {
        for (int p : round.round.participants()) {
            if (!round.acked.contains(p) && !gone.contains(p)) { // lost or not: it may be back, and owed the decision
                send(p, new CommitMessage.Decide(txn, decision, round.commitTime), round.bundled);
            }
        }
    }

    private boolean allAcked(Set<Integer> acked, int[] participants) {
        for (int p : participants) {
            if (!acked.contains(p) && !lost.contains(p)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Drops every commit message until {@link #historyRestored}: a node that replays its log does
     * not know yet what it voted, and must not answer as if it had voted nothing (senders resend
     * every tick).
     */
    public void holdUntilRestored() {
        holding = true;
    }

    /** The node's votes and decisions from its log are known here now ({@link #restoreInDoubt}, ...): it answers again. */
    public void historyRestored() {
        holding = false;
    }

    /** Handles the commit message {@code payload} of {@code from}: the node's receive path calls it; malformed, it is dropped. */
    private void onMessage(int from, byte[] payload, long nowNanos) {
        if (closed.get() || holding) {
            return;
        }
        CommitMessage message;
        try {
            message = CommitMessage.decode(payload);
        } catch (IllegalArgumentException e) {
            LOG.warn("node={} ignored a message from node {}: {}", node, from, e.getMessage());
            return;
        }
        if (message instanceof CommitMessage.Bundle bundle) {
            for (CommitMessage m : bundle.messages()) {
                handleOrLog(from, m, true); // one refused does not hold back those behind it
            }
        } else {
            handleOrLog(from, message, false);
        }
    }

    private void handleOrLog(int from, CommitMessage message, boolean bundled) {
        try {
            handle(from, message, bundled);
        } catch (IllegalArgumentException e) {
            LOG.warn("node={} ignored a message from node {}: {}", node, from, e.getMessage());
        } catch (IllegalStateException e) {
            if (!closed.get()) {
                LOG.warn("node={} commit message refused: {}", node, e.getMessage());
            }
        }
    }

    /** Handles {@code message} of {@code from}; {@code bundled} if it came in a bundle (a DECIDE's ACK then goes in one). */
    private void handle(int from, CommitMessage message, boolean bundled) {
        long txn = message.txn();
        if (message instanceof CommitMessage.Validate m) {
            if (parts.forgotten(txn)) {
                LOG.debug("node={} ignored VALIDATE of txn {} from node {}: its round is over", node, txn, from);
                return;
            }
            Part part = parts.part(txn);
            part.commitTime = m.commitTime();
            execute(() -> {
                Vote vote = part.record.validate(m.participants(), () -> participant.validate(txn, m.commitTime(), m.participants()));
                send(from, new CommitMessage.VoteOf(txn, vote));
            });
        } else if (message instanceof CommitMessage.VoteOf m) {
            Round round = rounds.get(txn);
            if (round != null) {
                round.round.onVote(from, m.vote());
                decided(txn, round);
            }
        } else if (message instanceof CommitMessage.Recover m) {
            Outcome restored = parts.holds(txn) ? null : restoredDecisions.get(txn);
            if (restored != null) {
                send(from, new CommitMessage.Report(txn, Vote.YES, restored));
                return;
            }
            if (parts.forgotten(txn) || !parts.holds(txn) && m.commitTime() != 0 && m.commitTime() <= restoredThrough) {
                // The second: this node restarted from a snapshot taken after that commit time, whose log
                // before it is gone; it may have voted YES and applied a decision (docs/durability.md).
                send(from, new CommitMessage.Forgotten(txn)); // never a fresh NO: it may have voted YES and committed
                return;
            }
            Part part = parts.part(txn);
            // Off the receiver: the record is locked while this node validates the transaction,
            // which may wait for other transactions' DECIDEs, which this thread must go on receiving.
            execute(() -> {
                ParticipantRecord.Report report = part.record.recover(m.participants());
                send(from, new CommitMessage.Report(txn, report.vote(), report.decision()));
            });
        } else if (message instanceof CommitMessage.Report || message instanceof CommitMessage.Forgotten) {
            ParticipantRecord.Report report = message instanceof CommitMessage.Report m
                    ? new ParticipantRecord.Report(from, m.vote(), m.decision())
                    : ParticipantRecord.Report.forgottenAt(from);
            Round round = rounds.get(txn);
            if (round != null) {
                round.round.onReport(report);
                decided(txn, round);
            }
            Part part = parts.get(txn);
            if (part != null && part.recovery != null) {
                part.recovery.putIfAbsent(from, report);
                finishRecovery(txn, part);
            }
        } else if (message instanceof CommitMessage.Decide m) {
            Outcome outcome = m.outcome();
            long commitTime = m.commitTime();
            if (!parts.holds(txn) && (outcome == Outcome.COMMIT || parts.forgotten(txn))) {
                // COMMIT needs this node's YES, so its part was decided, applied and forgotten; and a
                // forgotten part was applied when it was decided: the acknowledgement was lost (a
                // decision owed to a node that was cut off, sent again). Nothing is applied twice.
                send(from, new CommitMessage.Ack(txn), bundled);
                return;
            }
            Part part = parts.part(txn);
            // Off the receiver, as RECOVER: an ABORT decided on another participant's NO may come
            // while this node is still validating, holding the record's lock.
            execute(() -> {
                part.commitTime = commitTime;
                if (outcome == Outcome.COMMIT && part.record.vote() != Vote.YES && part.record.decision() == null) {
                    LOG.error("node={} told to commit txn {} it did not vote YES for; ignored", node, txn);
                    return;
                }
                boolean appliedBefore = part.done;
                part.ackWhenDone.put(from, bundled);
                decideHere(txn, part, outcome);
                if ((appliedBefore || part.done) && part.ackWhenDone.remove(from) != null) {
                    // A repeated DECIDE: acknowledged again; or an apply that began before this DECIDE (a
                    // loss, a recovery) returned meanwhile and may have acknowledged before `from` was added.
                    // Whoever takes `from` out acknowledges: this thread or the apply's, never both.
                    send(from, new CommitMessage.Ack(txn), bundled);
                } // else the apply acknowledges when it returns (or a later DECIDE, if it returned meanwhile)
            });
        } else if (message instanceof CommitMessage.Ack) {
            Round round = rounds.get(txn);
            if (round != null) {
                round.acked.add(from);
                decided(txn, round);
            }
            Round owing = owed.get(txn);
            if (owing != null) {
                owing.acked.add(from);
                if (everyAcked(owing.acked, owing.round.participants()) && owed.remove(txn) != null && owing.voted) {
                    decisionLog.released(txn);
                }
            }
            Part part = parts.get(txn);
            if (part != null) {
                part.acked.add(from);
            }
        }
    }

    /**
     * Records the outcome and applies it here, once. DECIDE is acknowledged only once the apply
     * returned: the coordinator frees the status entry on the acknowledgements, and no word may
     * name the transaction by then (I3). An apply that throws is logged and never acknowledged, so
     * the entry stays and readers keep finding the decision in it.
     */
    private void decideHere(long txn, Part part, Outcome outcome) {
        part.record.decide(outcome);
        synchronized (part) {
            if (part.applied) {
                return;
            }
            part.applied = true;
            part.decidedNanos = time.nanos();
        }
        execute(() -> {
            try {
                participant.apply(txn, outcome, part.commitTime);
            } catch (RuntimeException e) {
                if (closed.get()) {
                    // The node closed under the apply (its store with it): nothing is owed to a closed node.
                    LOG.debug("node={} closed while applying {} to txn {}: {}", node, outcome, txn, e.toString());
                } else {
                    LOG.error("node={} could not apply {} to its part of txn {}; the decision is kept and not acknowledged",
                            node, outcome, txn, e);
                }
                return;
            }
            part.done = true;
            acknowledge(txn, part);
        });
    }

    private void acknowledge(long txn, Part part) {
        for (Integer to : part.ackWhenDone.keySet()) {
            Boolean bundled = part.ackWhenDone.remove(to); // null: the DECIDE's own thread took it and acknowledged
            if (bundled != null) {
                send(to, new CommitMessage.Ack(txn), bundled);
            }
        }
    }

    /**
     * Records that the fabric reported {@code peer} lost and runs {@code counted} (the caller's own
     * bookkeeping of the loss) under the lock a re-admission takes, so that a re-admission either
     * sees the report or comes wholly before it.
     */
    @Override
    public void reported(int peer, Runnable counted) {
        synchronized (reportLock) {
            reportedAt.put(peer, time.nanos());
            counted.run();
        }
    }

    /**
     * The fabric reported {@code peer} lost: the loss is acted on {@code lossDelayMillis} later
     * (by the tick), if {@code peer} was not re-admitted meanwhile and this node has a majority.
     */
    @Override
    public void lossReported(int peer) {
        int epoch;
        long now = time.nanos();
        synchronized (reportLock) {
            reportedAt.put(peer, now);
            epoch = epochs.getOrDefault(peer, 0);
        }
        if (lossDelayMillis == 0) {
            execute(() -> actOnLoss(peer, epoch, true));
            return;
        }
        pendingLosses.add(new PendingLoss(peer, epoch, now + TimeUnit.MILLISECONDS.toNanos(lossDelayMillis)));
    }

    /** Acts on the reported losses whose delay is over. */
    private void actOnDueLosses(long nowNanos) {
        for (Iterator<PendingLoss> it = pendingLosses.iterator(); it.hasNext(); ) {
            PendingLoss loss = it.next();
            if (nowNanos - loss.dueNanos() >= 0) {
                it.remove();
                execute(() -> actOnLoss(loss.peer(), loss.epoch(), true));
            }
        }
    }

    /**
     * Acts on a reported loss of {@code peer} if this node has a majority; {@code inTime} is false for
     * a loss left while it had none and acted on once it hears from a majority again (the listeners
     * of {@link #onActedOn} are told only of losses acted on in time: a node back from the minority
     * side learns what the majority decided at the rejoin handshake instead).
     */
    private void actOnLoss(int peer, int epoch, boolean inTime) {
        synchronized (lossLock) {
            if (epochs.getOrDefault(peer, 0) != epoch) {
                return; // re-admitted since the loss was reported: that loss is over
            }
            if (!quorum.mayActOnLossOf(peer)) {
                if (unacted.put(peer, epoch) == null) {
                    LOG.warn("node={} lost node {} but may not act on it yet ({}): it leaves the decisions of the"
                            + " transactions they share to the others, and asks again", node, peer, quorum);
                }
                return;
            }
            unacted.remove(peer);
            peerLost(peer, inTime || quorum.ordered());
        }
    }

    /** Whether this node has acted on a loss of {@code peer} and not re-admitted it since. */
    public boolean countsLost(int peer) {
        return lost.contains(peer);
    }

    /**
     * Whether this node is settled with {@code peer} (docs/cluster-transactions.md, "Rejoining
     * after a partition heals"): no round it coordinates waits for {@code peer}'s vote or
     * acknowledgement (decisions owed to it included), no part of a transaction {@code peer}
     * coordinates is undecided here, and no recovery waits for {@code peer}'s report. Parts of
     * {@code peer}'s transactions that never received VALIDATE count as settled: the re-admission
     * fences and aborts them ({@link #readmit}; the coordinator cannot commit without this vote).
     * Parts that voted wait for its DECIDE. Changes nothing: a member re-admitted meanwhile may
     * have begun those transactions since.
     */
    @Override
    public boolean settledWith(int peer) {
        return settled(peer, false);
    }

    /** {@link #settledWith}, fencing and aborting {@code peer}'s unvalidated parts if {@code fence}. */
    private boolean settled(int peer, boolean fence) {
        for (Map<Long, Round> map : List.of(rounds, owed)) {
            for (Round round : map.values()) {
                if (contains(round.round.participants(), peer)
                        && (round.round.decision() == null || !round.acked.contains(peer))) {
                    return false;
                }
            }
        }
        boolean settled = true;
        for (Map.Entry<Long, Part> e : parts.entries()) {
            long txn = e.getKey();
            Part part = e.getValue();
            if (part.record.decision() != null) {
                continue;
            }
            if (TxnWords.node(txn) == peer) {
                if (!fence) {
                    settled &= part.record.participants() == null; // VALIDATE or RECOVER came: it votes, or voted
                    continue;
                }
                Outcome abandoned = part.record.abandonIfUnvalidated();
                if (abandoned != null) {
                    LOG.info("node={} aborts its unvalidated part of txn {} of node {}, which it counted lost", node, txn, peer);
                    decideHere(txn, part, abandoned);
                } else {
                    settled = false; // voted: the coordinator's DECIDE (or its round's REPORT) settles it
                }
            } else if (part.recovery != null && contains(part.record.participants(), peer)
                    && !part.recovery.containsKey(peer)) {
                settled = false;
            }
        }
        return settled;
    }

    /**
     * Re-admits {@code peer} if the caller still counts it lost ({@code counted}, read under the
     * lock of every re-admission: a repeated rejoin message finds the member re-admitted before
     * anything of its new transactions is fenced), this node is {@link #settledWith settled} with
     * it (its unvalidated parts fenced and aborted now), and the fabric has not reported it lost
     * since {@code heardAtNanos} (when its rejoin message arrived), atomically with respect to
     * acting on a loss and to loss reports: {@code peer} leaves the lost set, a loss reported before
     * and not yet acted on is dropped, and {@code admitted} runs, all before any loss is acted on
     * again.
     *
     * @return whether {@code peer} was re-admitted
     */
    @Override
    public boolean readmit(int peer, long heardAtNanos, BooleanSupplier counted, Runnable admitted) {
        synchronized (lossLock) {
            if (gone.contains(peer) || !counted.getAsBoolean() || !settled(peer, true)) {
                return false;
            }
            synchronized (reportLock) {
                Long reported = reportedAt.get(peer);
                if (reported != null && reported - heardAtNanos > 0) {
                    LOG.info("node={} does not re-admit node {}: reported lost after its rejoin message arrived", node, peer);
                    return false; // its next rejoin message, if it is alive, comes after the report
                }
                epochs.merge(peer, 1, Integer::sum);
                unacted.remove(peer);
                lost.remove(peer);
                admitted.run();
                return true;
            }
        }
    }

    /**
     * {@code peer} restarted under its id (a new incarnation, a fresh store): it can no longer
     * acknowledge or ask about anything of its old incarnation, so the decisions owed to it and
     * the parts kept for its rounds are dropped. It is treated as lost from now on.
     */
    @Override
    public void forget(int peer) {
        parts.restarted(peer);
        synchronized (lossLock) {
            gone.add(peer);
            peerLost(peer, true); // out for good: the clock moves on if it was the master
        }
        owed.forEach((txn, round) -> {
            if (everyAcked(round.acked, round.round.participants())) {
                owed.remove(txn);
            }
        });
    }

    private static boolean contains(int[] nodes, int peer) {
        if (nodes == null) {
            return false;
        }
        for (int n : nodes) {
            if (n == peer) {
                return true;
            }
        }
        return false;
    }

    /**
     * Tells {@code listener} each member whose loss this node acts on when the loss delay is over
     * (with a majority); not one acted on later, once a majority is heard again.
     */
    public void onActedOn(IntConsumer listener) {
        actedListeners.add(listener);
    }

    private void peerLost(int peer, boolean inTime) {
        if (!lost.add(peer)) {
            return;
        }
        if (inTime) {
            actedListeners.forEach(listener -> listener.accept(peer));
        }
        rounds.forEach((txn, round) -> {
            if (round.round.contest(peer)) {
                // its YES may be on the way: the quorum orders this ABORT against a recovery's COMMIT
                quorum.proposeOutcome(txn, Outcome.ABORT, this::quorumDecided);
            }
            decided(txn, round);
        });
        parts.forEach((txn, part) -> {
            if (TxnWords.node(txn) != peer && part.recovery != null && contains(part.record.participants(), peer)) {
                finishRecovery(txn, part); // a recovery that waited for this participant's report waits no more
                return;
            }
            if (TxnWords.node(txn) != peer || part.record.decision() != null) {
                return;
            }
            Outcome abandoned = part.record.abandonIfUnvalidated();
            if (abandoned != null) {
                decideHere(txn, part, abandoned); // VALIDATE never came: the coordinator cannot have committed
            } else {
                startRecovery(txn, part, part.record.participants());
                finishRecovery(txn, part);
            }
        });
    }

    /**
     * Decides a recovered transaction once its reports allow ({@link Recovery}): never from a
     * report that is missing. A COMMIT from every YES goes through the quorum, which orders it
     * against the coordinator's ABORT on a participant's loss.
     */
    private void finishRecovery(long txn, Part part) {
        Map<Integer, ParticipantRecord.Report> reports = part.recovery;
        int[] all = part.record.participants();
        synchronized (part) {
            if (part.record.decision() != null && part.applied) {
                return;
            }
        }
        Outcome outcome = Recovery.outcome(reports.values(), all.length);
        if (outcome == null) {
            if (reports.size() == all.length && part.waitLogged.compareAndSet(false, true)) {
                LOG.warn("node={} cannot recover txn {} of lost node {}: a participant forgot it and none holds the decision;"
                        + " it stays in doubt until the decision reaches this node", node, txn, TxnWords.node(txn));
            }
            return; // a participant's vote is not known yet: never presumed
        }
        if (outcome == Outcome.COMMIT && Recovery.fromVotes(reports.values())) {
            quorum.proposeOutcome(txn, outcome, this::quorumDecided);
            return;
        }
        LOG.info("node={} recovered txn {} of lost node {}: {}", node, txn, TxnWords.node(txn), outcome);
        decideHere(txn, part, outcome);
        part.acked.add(node);
    }

    /**
     * The quorum ordered {@code outcome} for {@code txn} (the first proposal of its coordinator or
     * a recovery): this node's round takes it, and its part is decided.
     */
    private void quorumDecided(long txn, Outcome outcome) {
        Round round = rounds.get(txn);
        if (round != null) {
            round.round.adopt(outcome);
            decided(txn, round);
        }
        Part part = parts.get(txn);
        if (part != null && part.record.decision() == null) {
            LOG.info("node={} txn {} of node {}: {} (decided through the membership group)", node, txn, TxnWords.node(txn),
                    outcome);
            execute(() -> {
                decideHere(txn, part, outcome);
                if (part.recovery != null) {
                    part.acked.add(node);
                }
            });
        }
    }

    /** Losses the quorum did not allow yet: asked again each tick, acted on once it does. */
    private void actOnUnactedLosses() {
        unacted.forEach((peer, epoch) -> {
            if (quorum.mayActOnLossOf(peer) && unacted.remove(peer, epoch)) {
                execute(() -> actOnLoss(peer, epoch, false));
            }
        });
    }

    /** The tick: acts on due losses, and sends again what is outstanding. */
    private final class Ticker implements Agent {
        private final long tickNanos = TimeUnit.MILLISECONDS.toNanos(tickMillis);

        @Override
        public long doWork(long now) {
            actOnDueLosses(now);
            actOnUnactedLosses();
            resend(now);
            bundles.drain().forEach(CommitMessenger.this::send); // after resend: what it bundled leaves now
            return now + tickNanos;
        }

        @Override
        public String roleName() {
            return "commit-tick-" + node;
        }
    }

    /** Sends again what has waited a tick: DECIDE owed, VALIDATE, RECOVER to late voters, and recovery's messages. */
    private void resend(long now) {
        long resendBefore = now - TimeUnit.MILLISECONDS.toNanos(tickMillis);
        owed.forEach((txn, round) -> {
            if (round.sentNanos - resendBefore > 0) {
                return;
            }
            round.sentNanos = now;
            Outcome decision = round.round.decision();
            for (int p : round.round.participants()) {
                if (!round.acked.contains(p) && !gone.contains(p)) { // lost or not: it may be back
                    send(p, new CommitMessage.Decide(txn, decision, round.commitTime));
                }
            }
        });
        long bundledBefore = resendBefore - 2 * TimeUnit.MILLISECONDS.toNanos(tickMillis);
        rounds.forEach((txn, round) -> {
            if (round.sentNanos - (round.bundled ? bundledBefore : resendBefore) > 0) {
                return; // sent within the last tick (three, bundled): its answers may be on the way
            }
            round.sentNanos = now;
            Outcome decision = round.round.decision();
            if (decision != null) {
                if (round.decideSent.get()) {
                    sendDecides(txn, round, decision);
                }
                decided(txn, round);
            } else if (round.round.contested()
                    || (quorum.ordered() && now - round.startNanos >= 2 * voteTimeoutNanos && round.round.contestMissing())) {
                // A timeout is an ABORT, ordered against a recovery's COMMIT: even a node the group counts
                // lost (which acts on no loss) gets its round decided. Proposed again if the last failed.
                quorum.proposeOutcome(txn, Outcome.ABORT, this::quorumDecided);
            } else if (now - round.startNanos < voteTimeoutNanos) {
                sendValidates(txn, round);
            } else {
                // Every participant, not only the silent ones: one may hold the decision a recovery took
                // while the group counted this node lost (it then decides nothing itself).
                for (int p : round.round.participants()) {
                    if (p != node) {
                        send(p, new CommitMessage.Recover(txn, round.commitTime, round.round.participants()));
                    }
                }
            }
        });
        if (now - lastSweepNanos >= SWEEP_NANOS) {
            lastSweepNanos = now;
            parts.forEach((txn, part) -> forgetIfOver(txn, part, now));
        }
        for (long txn : recovering) {
            Part part = parts.get(txn);
            if (part == null) {
                recovering.remove(txn);
            } else {
                resendRecovery(txn, part, now, resendBefore);
            }
        }
    }

    /**
     * Drops {@code txn}'s part if its round is over: decided and applied here, and its coordinator
     * reused the slot (no participant it counts live is in doubt), or the coordinator restarted
     * since long enough. A late message then finds no part and is answered as forgotten
     * (SlotSequences).
     */
    private void forgetIfOver(long txn, Part part, long now) {
        if (part.decidedNanos != 0 && part.done
                && (part.recovery == null || allAcked(part.acked, part.record.participants()))
                && (parts.laterSeen(txn)
                        || (gone.contains(TxnWords.node(txn)) && now - part.decidedNanos > forgetNanos))) {
            parts.remove(txn);
            recovering.remove(txn);
        }
    }

    /**
     * Starts recovering {@code txn}'s part among {@code participants} with this node's own report;
     * the ticker resends until it is decided and acknowledged.
     */
    private void startRecovery(long txn, Part part, int[] participants) {
        part.recovery = new ConcurrentHashMap<>();
        part.recovery.put(node, part.record.recover(participants));
        recovering.add(txn);
    }

    /** A recovering part's messages that have waited a tick, sent again: RECOVER to the silent, DECIDE to the unacknowledged. */
    private void resendRecovery(long txn, Part part, long now, long resendBefore) {
        if (part.recovery == null || part.sentNanos - resendBefore > 0) {
            return;
        }
        part.sentNanos = now;
        int[] all = part.record.participants();
        Outcome decision = part.record.decision();
        if (decision == null && part.recovery.size() == all.length) {
            finishRecovery(txn, part); // every report in: its COMMIT is proposed again if the last proposal failed
            return;
        }
        for (int p : all) {
            if (p == node) {
                continue;
            }
            if (decision == null && !part.recovery.containsKey(p)) {
                send(p, new CommitMessage.Recover(txn, part.commitTime, all)); // lost or not: its vote is waited for, never presumed
            } else if (decision != null && !part.acked.contains(p) && !lost.contains(p)) {
                send(p, new CommitMessage.Decide(txn, decision, part.commitTime));
            }
        }
    }

    /** Sends {@code message} to {@code to}: in the peer's next bundle if {@code bundled}, else now. */
    private void send(int to, CommitMessage message, boolean bundled) {
        if (!bundled) {
            send(to, message);
            return;
        }
        CommitMessage.Bundle full = bundles.add(to, message);
        if (full != null) {
            send(to, full);
        }
    }

    private void send(int to, CommitMessage message) {
        try {
            mailbox.send(to, CommitMessage.encode(message)); // a failure shows as a missing answer: resent at the next tick
        } catch (IllegalStateException e) {
            if (!closed.get()) {
                LOG.debug("node={} could not send {} to node {}: {}", node, message.type(), to, e.getMessage());
            }
        }
    }

    /** Transactions this node coordinates whose participants have not all acknowledged the decision. */
    public int pendingRounds() {
        return rounds.size();
    }

    /** The rounds not done yet, each with its state, for a report of what did not settle. */
    public String describePendingRounds() {
        StringBuilder out = new StringBuilder();
        rounds.forEach((txn, round) -> out.append(out.length() == 0 ? "" : "; ").append(Long.toHexString(txn)).append(' ')
                .append(round.round).append(" acked=").append(round.acked));
        return out.toString();
    }

    /** Decided rounds whose DECIDE a participant that was lost has not acknowledged yet. */
    public int owedRounds() {
        return owed.size();
    }

    /** The decision this node holds for its part of {@code txn}, or null. */
    public Outcome decisionHere(long txn) {
        Part part = parts.get(txn);
        return part == null ? null : part.record.decision();
    }

    /** The vote this node gave for its part of {@code txn}, or null. */
    public Vote voteHere(long txn) {
        Part part = parts.get(txn);
        return part == null ? null : part.record.vote();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            ticker.close();
            work.shutdownNow();
        }
    }
}
