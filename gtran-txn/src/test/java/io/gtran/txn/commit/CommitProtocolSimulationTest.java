package io.gtran.txn.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.gtran.txn.protocol.Outcome;
import io.gtran.txn.protocol.Vote;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The commit protocol's decision logic ({@link CoordinatorRound}, {@link ParticipantRecord},
 * {@link Recovery}) run as a seeded discrete-event simulation: a coordinator (node 0) and 1-4 other
 * participants exchange VALIDATE, votes, DECIDE, acknowledgements, RECOVER and reports over a
 * network that delays (1-10 ticks), drops (10%) and duplicates (5%) messages; senders retry until
 * answered; the coordinator's vote timeout is 5-64 ticks, so it often fires with votes in flight
 * (it then fences the missing participants and takes their frozen votes); the coordinator or one participant may crash at any moment, and survivors learn of it
 * 20 ticks later. Checked for every seed (printed on failure): all decisions agree; COMMIT only if
 * every participant voted YES; a client told "committed" never sees an abort, nor one told
 * "aborted" a commit; and every surviving participant ends decided.
 */
class CommitProtocolSimulationTest {
    private static final int DETECT = 20;
    private static final int RETRY = 15;

    private static final class Sim {
        final long seed;
        final Random random;
        final int n; // other participants: nodes 1..n
        final int[] participants;
        final ParticipantRecord[] records;
        final boolean[] crashed;
        final CoordinatorRound round;
        final PriorityQueue<long[]> queue = new PriorityQueue<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        final Map<Long, Runnable> actions = new HashMap<>();
        final Set<Integer> votedYes = new HashSet<>();
        long now;
        long sequence;
        Outcome told; // what the client was told; null while it waits
        boolean broadcast;
        final Map<Integer, Map<Integer, ParticipantRecord.Report>> recoveries = new HashMap<>();
        final List<String> trace = new ArrayList<>();

        Sim(long seed) {
            this.seed = seed;
            this.random = new Random(seed);
            this.n = 1 + random.nextInt(4);
            this.participants = new int[n];
            this.records = new ParticipantRecord[n + 1];
            this.crashed = new boolean[n + 1];
            for (int p = 1; p <= n; p++) {
                participants[p - 1] = p;
                records[p] = new ParticipantRecord(p);
            }
            this.round = new CoordinatorRound(participants);
        }

        void at(long time, Runnable action) {
            long id = sequence++;
            actions.put(id, action);
            queue.add(new long[] {time, id});
        }

        /** A message from {@code from} to {@code to}: delayed, maybe dropped or duplicated; lost if either end crashed. */
        void send(int from, int to, Runnable onArrival) {
            if (crashed[from]) {
                return;
            }
            int copies = random.nextInt(100) < 10 ? 0 : random.nextInt(100) < 5 ? 2 : 1;
            for (int c = 0; c < copies; c++) {
                at(now + 1 + random.nextInt(10), () -> {
                    if (!crashed[to]) {
                        onArrival.run();
                    }
                });
            }
        }

        /** Runs {@code attempt} now and every RETRY ticks until {@code done} says so (or the sender crashed). */
        void retry(int sender, java.util.function.BooleanSupplier done, Runnable attempt) {
            if (crashed[sender] || done.getAsBoolean()) {
                return;
            }
            attempt.run();
            at(now + RETRY, () -> retry(sender, done, attempt));
        }

        void run() {
            // The coordinator validated its own part (its YES is implied by sending VALIDATE).
            for (int p : participants) {
                retry(0, () -> round.decision() != null, () -> send(0, p, () -> {
                    Vote vote = records[p].validate(participants, () -> random.nextInt(8) == 0 ? Vote.NO : Vote.YES);
                    if (vote == Vote.YES) {
                        votedYes.add(p);
                    }
                    send(p, 0, () -> onVote(p, vote));
                }));
            }
            at(5 + random.nextInt(60), () -> timedOut()); // short vote timeouts fire with votes in flight
            int failure = random.nextInt(10);
            long when = random.nextInt(100);
            if (failure < 4) {
                at(when, () -> crash(0));
            } else if (failure < 7) {
                at(when, () -> crash(1 + random.nextInt(n)));
            }
            while (!queue.isEmpty() && now < 100_000) {
                long[] next = queue.poll();
                now = next[0];
                actions.remove(next[1]).run();
            }
        }

        void onVote(int p, Vote vote) {
            round.onVote(p, vote);
            decided();
        }

        /** Late votes: fence the missing participants and take their frozen votes, as a recovery would. */
        void timedOut() {
            if (crashed[0]) {
                return;
            }
            for (int p : round.missing()) {
                retry(0, () -> round.decision() != null, () -> send(0, p, () -> {
                    ParticipantRecord.Report report = records[p].recover(participants);
                    send(p, 0, () -> {
                        round.onReport(report);
                        decided();
                    });
                }));
            }
        }

        /** Once the round has a decision: answer the client, and DECIDE everyone until acknowledged. */
        void decided() {
            Outcome decision = round.decision();
            if (decision == null || broadcast || crashed[0]) {
                return;
            }
            broadcast = true;
            told = decision;
            trace.add(now + ": coordinator decides " + decision + " and tells the client");
            for (int p : participants) {
                boolean[] acked = {false};
                retry(0, () -> acked[0] || crashed[p], () -> send(0, p, () -> {
                    records[p].decide(decision);
                    send(p, 0, () -> acked[0] = true);
                }));
            }
        }

        void crash(int node) {
            if (crashed[0] && node != 0 || java.util.stream.IntStream.rangeClosed(0, n).anyMatch(k -> crashed[k])) {
                return; // one failure per run
            }
            crashed[node] = true;
            trace.add(now + ": node " + node + " crashes");
            at(now + DETECT, () -> detected(node));
        }

        void detected(int lost) {
            if (lost != 0) {
                if (!crashed[0]) {
                    round.onLost(lost); // a lost participant can never vote
                    decided();
                }
                return;
            }
            for (int p : participants) {
                if (crashed[p] || records[p].decision() != null) {
                    continue;
                }
                if (records[p].abandonIfUnvalidated() != null) {
                    trace.add(now + ": node " + p + " never got VALIDATE: aborts its part");
                    continue;
                }
                recover(p);
            }
        }

        /** Participant {@code r} recovers the transaction: fences everyone, then decides from the reports. */
        void recover(int r) {
            Map<Integer, ParticipantRecord.Report> reports = recoveries.computeIfAbsent(r, k -> new HashMap<>());
            for (int q : participants) {
                retry(r, () -> reports.containsKey(q) || crashed[q] || records[r].decision() != null, () -> send(r, q, () -> {
                    ParticipantRecord.Report report = records[q].recover(participants);
                    send(q, r, () -> {
                        reports.putIfAbsent(q, report);
                        if (reports.size() == participants.length && records[r].decision() == null) {
                            Outcome outcome = Recovery.outcome(reports.values(), participants.length);
                            trace.add(now + ": node " + r + " recovers " + outcome + " from " + reports.values());
                            records[r].decide(outcome);
                            for (int t : participants) {
                                boolean[] acked = {false};
                                retry(r, () -> acked[0], () -> send(r, t, () -> {
                                    records[t].decide(outcome);
                                    send(t, r, () -> acked[0] = true);
                                }));
                            }
                        }
                    });
                }));
            }
        }

        void check() {
            String where = "seed=" + seed + " participants=" + n + "\n  " + String.join("\n  ", trace);
            Outcome agreed = null;
            for (int p : participants) {
                Outcome d = records[p].decision();
                if (crashed[p]) {
                    continue;
                }
                if (d == null) {
                    fail("participant " + p + " never decided: " + records[p] + "; " + where);
                }
                if (agreed != null && agreed != d) {
                    fail("participants disagree: " + agreed + " and " + d + "; " + where);
                }
                agreed = d;
            }
            if (agreed == Outcome.COMMIT) {
                assertEquals(n, votedYes.size(), "committed without every YES; " + where);
            }
            if (told == Outcome.COMMIT) {
                assertTrue(agreed == null || agreed == Outcome.COMMIT, "client told committed, participants aborted; " + where);
            }
            if (told == Outcome.ABORT) {
                assertTrue(agreed == null || agreed == Outcome.ABORT, "client told aborted, participants committed; " + where);
            }
            if (!crashed[0]) {
                assertTrue(told != null, "a live coordinator always answers in the end; " + where);
            }
        }
    }

    @Test
    @Timeout(120)
    void everySeedAgreesAndNeverContradictsTheClient() {
        int commits = 0;
        int aborts = 0;
        for (long seed = 1; seed <= 20_000; seed++) {
            Sim sim = new Sim(seed);
            try {
                sim.run();
            } catch (IllegalStateException e) {
                fail("seed=" + seed + ": " + e.getMessage() + "\n  " + String.join("\n  ", sim.trace), e);
            }
            sim.check();
            Outcome some = sim.records[1].decision();
            if (some == Outcome.COMMIT) {
                commits++;
            } else if (some == Outcome.ABORT) {
                aborts++;
            }
        }
        assertTrue(commits > 1000 && aborts > 1000, "both outcomes are exercised: commits=" + commits + " aborts=" + aborts);
    }
}
