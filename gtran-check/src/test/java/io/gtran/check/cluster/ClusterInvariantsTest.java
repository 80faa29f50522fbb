package io.gtran.check.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The cluster check's own invariants on hand-made histories: each must be able to fail. */
class ClusterInvariantsTest {
    private static final Set<Integer> ALL = Set.of(0, 1, 2, 3);
    private static final Set<Integer> SURVIVORS = Set.of(0, 1);

    @Test
    void anAcknowledgedAppendMissingFromTheFinalReadIsLost() {
        List<ClusterInvariants.Finding> lost = ClusterInvariants.lostAppends(
                Map.of(0, List.of(1, 4), 1, List.of(2), 2, List.of(3)),
                Map.of(0, new int[] {1}, 1, new int[] {2, 5})); // k2's owner is gone: not judged
        assertEquals(1, lost.size(), lost.toString());
        assertEquals("lost-append", lost.get(0).kind());
        assertTrue(lost.get(0).detail().contains("k0: acknowledged append 4"), lost.get(0).detail());
    }

    @Test
    void everyAcknowledgedAppendPresentIsNothingLost() {
        assertEquals(List.of(), ClusterInvariants.lostAppends(Map.of(0, List.of(1, 4)), Map.of(0, new int[] {4, 1, 7})));
    }

    @Test
    void aReadOfAllAccountsWithTheWrongSumIsAnAnomaly() {
        ClusterInvariants.BankReport r = ClusterInvariants.bank(List.of(
                new ClusterInvariants.ReadAll(0, 0, 10, ALL, 400, 90),
                new ClusterInvariants.ReadAll(1, 5, 20, ALL, 397, 90)), 4, 400);
        assertEquals(1, r.findings().size(), r.findings().toString());
        assertEquals("wrong-total", r.findings().get(0).kind());
        assertEquals(null, r.settledSum());
    }

    @Test
    void survivorReadsSettleAtTheFirstCommittedSumAndAnyLaterDifferentSumIsAnAnomaly() {
        ClusterInvariants.BankReport r = ClusterInvariants.bank(List.of(
                new ClusterInvariants.ReadAll(0, 0, 10, ALL, 400, 90),
                new ClusterInvariants.ReadAll(1, 11, 20, SURVIVORS, 203, 95),  // settles the survivors at 203
                new ClusterInvariants.ReadAll(2, 15, 25, SURVIVORS, 199, 95),  // began before it settled: not judged
                new ClusterInvariants.ReadAll(3, 21, 30, SURVIVORS, 203, 95),
                new ClusterInvariants.ReadAll(4, 31, 40, SURVIVORS, 204, -1)), 4, 400);
        assertEquals(Long.valueOf(203), r.settledSum());
        assertEquals(List.of("negative-balance", "unsettled-total"), r.findings().stream().map(ClusterInvariants.Finding::kind).toList(),
                r.findings().toString());
    }

    @Test
    void aBadOptionIsNamedAndExitsTwo() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(2, ClusterCheck.run(new String[] {"--hosts", "h", "--schedule", "kill"}, o, e, null));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--cluster-cmd is required"), err.toString(StandardCharsets.UTF_8));
        err.reset();
        assertEquals(2, ClusterCheck.run(new String[] {"--hosts", "h", "--workload", "ledger"}, o, e, null));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--workload must be one of"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theScheduleInjectsAtAThirdAndHealsAtTwoThirds() {
        List<FaultSchedule.Step> steps = FaultSchedule.of("clock-jump", 30).steps();
        assertEquals(List.of(10_000L, 15_000L, 20_000L), steps.stream().map(FaultSchedule.Step::atMillis).toList());
        assertEquals(List.of("clock-jump", "1", "-2000"), steps.get(1).args());
        assertEquals(List.of(List.of("kill", "2"), List.of("heal")),
                FaultSchedule.of("kill", 30).steps().stream().map(FaultSchedule.Step::args).toList());
    }

    /** The restart schedule kills node 2, then starts it again on its data; its keys count again from the restart on. */
    @Test
    void theRestartScheduleKillsNodeTwoThenStartsItAgainAndCountsItsKeys() throws Exception {
        FaultSchedule schedule = FaultSchedule.of("restart", 3);
        assertEquals(List.of(List.of("kill", "2"), List.of("restart", "2")),
                schedule.steps().stream().map(FaultSchedule.Step::args).toList());
        assertEquals(List.of(Set.of(2), Set.of()), killedAtEachCommand(schedule),
                "node 2's keys are read around until its restart begins");
    }

    /** The crash schedule kills every node at once, then starts them all again on their data; every key counts again. */
    @Test
    void theCrashScheduleKillsEveryNodeThenStartsThemAllAgain() throws Exception {
        FaultSchedule schedule = FaultSchedule.of("crash", 3);
        assertEquals(List.of(List.of("kill", "all"), List.of("restart", "all")),
                schedule.steps().stream().map(FaultSchedule.Step::args).toList());
        assertEquals(List.of(Set.of(0, 1, 2), Set.of()), killedAtEachCommand(schedule),
                "every key is out until the restart begins");
    }

    /** Runs {@code schedule} (its commands doing nothing) and returns the nodes counted killed as each command ran. */
    private static List<Set<Integer>> killedAtEachCommand(FaultSchedule schedule) throws InterruptedException {
        List<Set<Integer>> killed = new ArrayList<>();
        schedule.run(System.nanoTime(), args -> {
            killed.add(schedule.killed());
            return 0;
        }, new PrintStream(OutputStream.nullOutputStream()));
        assertTrue(schedule.healed());
        return killed;
    }
}
