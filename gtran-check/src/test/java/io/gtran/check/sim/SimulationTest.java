package io.gtran.check.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.protocol.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class SimulationTest {
    @Test
    @Timeout(60)
    void aScheduleReplaysExactlyFromItsSeed() {
        for (long seed = 1; seed <= 5; seed++) {
            Simulation.Result first = new Simulation(seed, 3, Fault.DEFAULT).run();
            Simulation.Result again = new Simulation(seed, 3, Fault.DEFAULT).run();
            assertEquals(first, again, "seed=" + seed);
            assertTrue(first.committed() > 0, "the workload commits: " + first);
        }
    }

    @Test
    @Timeout(60)
    void schedulesWithoutFaultsCommitAcrossNodesAndSettle() {
        for (long seed = 1; seed <= 20; seed++) {
            Simulation.Result result = new Simulation(seed, 3, EnumSet.noneOf(Fault.class)).run();
            assertEquals(List.of(), result.violations(), "seed=" + seed);
            assertEquals(0, result.unknown(), "seed=" + seed);
            assertTrue(result.committed() > 100, "seed=" + seed + ": " + result);
        }
    }

    /**
     * One direction of the link between nodes 0 and 1 cut for a while (seeds 1 to 200 of three nodes
     * under one-way cuts; in November 2026 seven of them break a decision under the heard rule, seed
     * 50 the first). Each end hears a majority (through node 2), so under the heard-majority rule
     * both act on the other's loss: the coordinator aborts a round on its participant's loss while
     * that participant's recovery commits it from every YES. With the group's log only the first loss
     * counts, and an outcome a loss made contested is the one the log orders first: the same schedules
     * keep every decision whole. A range, not one pinned seed: any change of timing moves which
     * schedules cut at the wrong moment.
     */
    @Test
    @Timeout(60)
    void aOneWayCutLetsBothEndsActUnlessTheGroupDecides() {
        java.util.Set<Fault> oneway = EnumSet.of(Fault.ONEWAY);
        List<Long> broken = new java.util.ArrayList<>();
        for (long seed = 1; seed <= 200; seed++) {
            Simulation.Result heard = new Simulation(seed, 3, oneway, 1, LossRule.HEARD).run();
            if (!heard.violations().isEmpty()) {
                assertTrue(heard.faults().toString().contains("oneway"), heard.faults().toString());
                broken.add(seed);
            }
        }
        assertFalse(broken.isEmpty(), "the heard-majority rule kept both decisions in none of seeds 1 to 200");
        for (long seed : broken) {
            Simulation.Result heard = new Simulation(seed, 3, oneway, 1, LossRule.HEARD).run();
            Simulation.Result group = new Simulation(seed, 3, oneway, 1, LossRule.GROUP).run();
            assertEquals(heard.faults(), group.faults(), "the same schedule, seed " + seed);
            assertEquals(List.of(), group.violations(), "seed " + seed);
            assertTrue(group.committed() > 100, group.toString());
        }
    }

    @Test
    @Timeout(120)
    void fiveNodesUnderEveryKindOfFaultKeepEveryDecisionWhole() {
        for (long seed = 1; seed <= 150; seed++) {
            Simulation.Result result = new Simulation(seed, 5, Fault.DEFAULT).run();
            assertEquals(List.of(), result.violations(), "seed=" + seed + " faults=" + result.faults());
        }
    }

    @Test
    void theLedgerFindsAHalfCommitAndAnOutcomeTheClientWasNotTold() {
        Ledger ledger = new Ledger(2);
        Ledger.Txn txn = ledger.begin(7, 0, List.of(new Ledger.Write(0, -1), new Ledger.Write(1, 1)));
        txn.told = "COMMIT";
        ledger.applied(0, 7, Outcome.COMMIT);
        ledger.applied(1, 7, Outcome.ABORT);
        ledger.applied(1, 7, Outcome.ABORT);
        Simulation healthy = new Simulation(1, 2, EnumSet.noneOf(Fault.class)); // nodes to check against: none crashed
        ledger.checkSettled(healthy.nodes());
        String found = String.join("\n", ledger.violations());
        assertTrue(found.contains("half committed"), found);
        assertTrue(found.contains("the client was told COMMIT, a node aborted"), found);
        assertTrue(found.contains("applied 7 twice"), found);
    }

    @Test
    void faultListsAreParsedAndABadOneIsNamed() {
        assertEquals(EnumSet.of(Fault.DELAY, Fault.CRASH), Fault.parse("delay, crash"));
        assertEquals(EnumSet.allOf(Fault.class), Fault.parse("all"));
        assertEquals(EnumSet.noneOf(Fault.class), Fault.parse("none"));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> Fault.parse("delay,flood"));
        assertTrue(bad.getMessage().contains("'flood'") && bad.getMessage().contains("partition"), bad.getMessage());
    }

    @Test
    void badOptionsAreRefusedNamingTheOption() {
        assertThrows(IllegalArgumentException.class, () -> Simulate.Options.parse(new String[] {"--nodes", "1"}));
        assertThrows(IllegalArgumentException.class, () -> Simulate.Options.parse(new String[] {"--schedules", "x"}));
        assertThrows(IllegalArgumentException.class, () -> Simulate.Options.parse(new String[] {"--seed"}));
        IllegalArgumentException rule = assertThrows(IllegalArgumentException.class,
                () -> Simulate.Options.parse(new String[] {"--loss-rule", "vote"}));
        assertTrue(rule.getMessage().contains("group or heard"), rule.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> Simulate.Options.parse(new String[] {"--node", "3"}));
        assertTrue(unknown.getMessage().contains("--node"), unknown.getMessage());
    }

    @Test
    @Timeout(60)
    void theCommandEndsWithItsSummaryLine() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Simulate.Options options = Simulate.Options.parse(new String[] {"--nodes", "3", "--schedules", "8", "--seed", "11",
            "--faults", "delay,loss,crash"});
        Simulate.Summary summary = Simulate.run(options, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("SIMULATION nodes=3 schedules=8 violations=" + summary.violations() + " seed=11 "), out);
        assertFalse(out.isBlank());
    }
}
