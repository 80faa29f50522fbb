package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.Interleaving.Where;
import io.gtran.txn.common.Isolation;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Martin Kleppmann's Hermitage anomaly suite (github.com/ept/hermitage, postgres.md) against gtran's
 * two isolation levels. Each case is Hermitage's fixed interleaving of two or three transactions
 * on the table {@code test(id, value)}, rows 1 => 10 and 2 => 20 (see {@link Interleaving}).
 *
 * <p>Where Hermitage's step blocks in a locking database, gtran, being optimistic, aborts the
 * second writer at once with {@link TransactionConflictException}; that transaction's later steps
 * are skipped. A case's verdict is {@link Outcome#OCCURRED} when the data observed shows the
 * anomaly and the transactions involved committed; {@link Outcome#PREVENTED} when it does not
 * <em>and</em> every committed transaction read exactly its begin snapshot; otherwise {@link
 * Outcome#READS_INCONSISTENT}. Besides the verdict, every case checks that a fresh transaction
 * then sees exactly the committed transactions' writes: nothing of an aborted one, all of a
 * committed one.
 *
 * <p>Expected: SERIALIZABLE prevents everything; SNAPSHOT lets exactly the G2-item and G2 families
 * (write skew, anti-dependency cycles) occur. Several Hermitage sections have variants (predicate
 * reads, write predicates, Fekete's read-only anomaly); each is its own case, and the expectation
 * is per family. The interleavings are fixed: there is no randomness to seed.
 *
 * <p>The scenarios and the verdict ({@link #verdict}) are shared with {@link ClusterHermitageTest},
 * which runs the same matrix with the rows on one node and the transactions begun on others.
 */
@Timeout(120)
class HermitageTest {
    enum Outcome { OCCURRED, PREVENTED, READS_INCONSISTENT }

    private static final Where ALL = Where.ALL;
    private static final Where VALUE_IS_10 = new Where("value = 10", v -> v == 10);
    private static final Where VALUE_IS_20 = new Where("value = 20", v -> v == 20);
    private static final Where VALUE_IS_30 = new Where("value = 30", v -> v == 30);
    private static final Where MULTIPLE_OF_3 = new Where("value % 3 = 0", v -> v % 3 == 0);
    private static final Where MULTIPLE_OF_5 = new Where("value % 5 = 0", v -> v % 5 == 0);

    /** A script runs the interleaving and says whether the anomaly's effect showed. */
    @FunctionalInterface
    interface Script {
        boolean run(Interleaving h) throws InterruptedException;
    }

    /** One Hermitage case: its family (the row of the expected matrix), its name and its script. */
    record Scenario(String family, String name, Script script) {
        Outcome expected(Isolation level) {
            boolean writeSkew = family.equals("G2-item") || family.equals("G2");
            return level == Isolation.SNAPSHOT && writeSkew ? Outcome.OCCURRED : Outcome.PREVENTED;
        }
    }

    static final List<Scenario> SCENARIOS = List.of(
            new Scenario("G0", "G0", HermitageTest::g0),
            new Scenario("G1a", "G1a", HermitageTest::g1a),
            new Scenario("G1b", "G1b", HermitageTest::g1b),
            new Scenario("G1c", "G1c", HermitageTest::g1c),
            new Scenario("OTV", "OTV", HermitageTest::otv),
            new Scenario("PMP", "PMP", HermitageTest::pmp),
            new Scenario("PMP", "PMP (write predicate)", HermitageTest::pmpWritePredicate),
            new Scenario("P4", "P4", HermitageTest::p4),
            new Scenario("G-single", "G-single", HermitageTest::gSingle),
            new Scenario("G-single", "G-single (predicate)", HermitageTest::gSinglePredicate),
            new Scenario("G-single", "G-single (write predicate)", HermitageTest::gSingleWritePredicate),
            new Scenario("G2-item", "G2-item", HermitageTest::g2Item),
            new Scenario("G2", "G2", HermitageTest::g2),
            new Scenario("G2", "G2 (Fekete, two anti-dependencies)", HermitageTest::g2Fekete));

    private static final Map<String, Object> GC_OFF = Map.of(TxnConfig.GC, false);
    /** How often a cell whose commits race is run in the racing configurations. */
    private static final int RACE_REPEATS = 25;

    // ---------------------------------------------------------------- tests

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Scenario s : SCENARIOS) {
            for (Isolation level : Isolation.values()) {
                cases.add(Arguments.of(s.name, level, s.expected(level) == Outcome.OCCURRED ? "occurs" : "prevented"));
            }
        }
        return cases.stream();
    }

    /**
     * One anomaly at one isolation level, GC off: the verdict is the expected one, and afterwards
     * a fresh transaction sees exactly the committed writes.
     */
    @ParameterizedTest(name = "{0} @ {1}: {2}")
    @MethodSource("cases")
    void anomaly(String name, Isolation level, String expectation) throws InterruptedException {
        Scenario scenario = scenario(name);
        Result result = run(scenario, level, GC_OFF, false);
        assertEquals(result.expectedFinal, result.actualFinal, () -> "final state after " + name + " @ " + result.details);
        assertEquals(scenario.expected(level), result.outcome, () -> name + " @ " + result.details);
    }

    static Stream<Arguments> configurations() {
        return Stream.of(
                configuration("gc=false", GC_OFF, false),
                configuration("gc=true, gc.interval-ms=1", Map.of(TxnConfig.GC, true, TxnConfig.GC_INTERVAL_MS, 1), false),
                configuration("pre-read=false", Map.of(TxnConfig.GC, false, TxnConfig.PRE_READ, false), false),
                configuration("optimistic-validation=false", Map.of(TxnConfig.GC, false, TxnConfig.OPTIMISTIC_VALIDATION, false), false),
                configuration("gc=false, racing commits", GC_OFF, true),
                configuration("optimistic-validation=false, racing commits",
                        Map.of(TxnConfig.GC, false, TxnConfig.OPTIMISTIC_VALIDATION, false), true));
    }

    private static Arguments configuration(String name, Map<String, Object> settings, boolean racing) {
        return Arguments.of(Named.of(name, settings), racing);
    }

    /**
     * The whole matrix (every case at both levels) under one configuration equals the expected
     * one, and every case leaves exactly the committed writes. The switches change performance,
     * not correctness. In a sequential interleaving no transaction reads or validates while another
     * is validating, so pre-read and optimistic validation only matter when commits race: in the
     * racing configurations Hermitage's closing "commit T1; commit T2" (G1c, G2-item, G2) runs on
     * two threads at once, {@value #RACE_REPEATS} times per cell, and every run must give the
     * expected verdict. Whether two commits actually overlap in validation is up to timing.
     */
    @ParameterizedTest(name = "matrix with {0}")
    @MethodSource("configurations")
    void matrix(Map<String, Object> settings, boolean racing) throws InterruptedException {
        Map<String, String> expected = new LinkedHashMap<>();
        Map<String, String> actual = new LinkedHashMap<>();
        List<String> wrongFinalStates = new ArrayList<>();
        StringBuilder details = new StringBuilder();
        for (Scenario s : SCENARIOS) {
            for (Isolation level : Isolation.values()) {
                String cell = s.name + " @ " + level;
                Set<Outcome> seen = EnumSet.noneOf(Outcome.class);
                int runs = 1;
                for (int i = 0; i < runs; i++) {
                    Result result = run(s, level, settings, racing);
                    runs = result.raced ? RACE_REPEATS : 1;
                    seen.add(result.outcome);
                    if (!result.expectedFinal.equals(result.actualFinal)) {
                        wrongFinalStates.add(cell + ": expected " + result.expectedFinal + " but saw " + result.actualFinal);
                    }
                    if (result.outcome != s.expected(level)) {
                        details.append("\n").append(s.name).append(" @ ").append(result.details).append("\n  verdict: ").append(result.outcome);
                    }
                }
                expected.put(cell, s.expected(level).toString());
                actual.put(cell, seen.stream().map(Outcome::toString).collect(Collectors.joining(" and ")));
            }
        }
        assertTrue(wrongFinalStates.isEmpty(), () -> "final states: " + wrongFinalStates);
        assertEquals(render(expected), render(actual), () -> "cells that differ:" + details);
    }

    /**
     * The verdicts are not vacuous: with {@code gtran.txn.validation=false} (SERIALIZABLE without
     * read validation) the write-skew cases, which validation alone prevents, are seen to occur.
     */
    @ParameterizedTest(name = "{0} @ SERIALIZABLE, validation=false: occurs")
    @MethodSource("writeSkewCases")
    void writeSkewOccursAtSerializableWithoutValidation(String name) throws InterruptedException {
        Scenario scenario = scenario(name);
        Result result = run(scenario, Isolation.SERIALIZABLE, Map.of(TxnConfig.GC, false, TxnConfig.VALIDATION, false), false);
        assertEquals(result.expectedFinal, result.actualFinal, () -> "final state after " + name + " @ " + result.details);
        assertEquals(Outcome.OCCURRED, result.outcome, () -> name + " @ " + result.details);
    }

    static Stream<String> writeSkewCases() {
        return SCENARIOS.stream().filter(s -> s.expected(Isolation.SNAPSHOT) == Outcome.OCCURRED).map(Scenario::name);
    }

    // ---------------------------------------------------------------- running a case

    record Result(Outcome outcome, Map<Integer, Long> expectedFinal, Map<Integer, Long> actualFinal, boolean raced, String details) {
    }

    static Scenario scenario(String name) {
        return SCENARIOS.stream().filter(s -> s.name.equals(name)).findFirst().orElseThrow();
    }

    private static Result run(Scenario s, Isolation level, Map<String, Object> settings, boolean racing) throws InterruptedException {
        try (TxnFixture node = new TxnFixture(settings); Interleaving h = new Interleaving(node, level, racing)) {
            return verdict(s, h);
        }
    }

    /** Runs the scenario's script on {@code h} and judges it: the verdict, and the final state expected and seen. */
    static Result verdict(Scenario s, Interleaving h) throws InterruptedException {
        boolean effect = s.script.run(h);
        String inconsistent = h.inconsistentReads();
        Outcome outcome = effect ? Outcome.OCCURRED : inconsistent == null ? Outcome.PREVENTED : Outcome.READS_INCONSISTENT;
        String details = h.describe() + (inconsistent == null ? "" : "\n  inconsistent read: " + inconsistent);
        return new Result(outcome, h.expectedFinalState(), h.finalState(), h.raced(), details);
    }

    static String render(Map<String, String> matrix) {
        StringBuilder b = new StringBuilder();
        matrix.forEach((cell, outcome) -> b.append(cell).append(" = ").append(outcome).append('\n'));
        return b.toString();
    }

    private static boolean committed(Interleaving h, int... numbers) {
        for (int n : numbers) {
            if (!h.committed(n)) {
                return false;
            }
        }
        return true;
    }

    private static boolean is(Long observed, long value) {
        return observed != null && observed == value;
    }

    // ---------------------------------------------------------------- the cases, as in postgres.md

    /** G0 (dirty write): occurs if T1 and T2 both commit and rows 1 and 2 keep writes of different ones; prevented if one aborts or both rows come from the same one. */
    private static boolean g0(Interleaving h) throws InterruptedException {
        h.begin(1, 2);
        h.update(1, 1, 11);
        h.update(2, 1, 12); // Postgres blocks T2 here; gtran aborts it (write-write)
        h.update(1, 2, 21);
        h.commit(1);
        h.update(2, 2, 22);
        h.commit(2);
        Map<Integer, Long> end = h.finalState();
        return committed(h, 1, 2) && !end.equals(Map.of(1, 11L, 2, 21L)) && !end.equals(Map.of(1, 12L, 2, 22L));
    }

    /** G1a (aborted read): occurs if T2 commits having seen 101, written by T1 that aborts; prevented if T2 only ever sees 10. */
    private static boolean g1a(Interleaving h) {
        h.begin(1, 2);
        h.update(1, 1, 101);
        Map<Integer, Long> before = h.scan(2, ALL);
        h.abort(1);
        Map<Integer, Long> after = h.scan(2, ALL);
        h.commit(2);
        return committed(h, 2) && (is(before.get(1), 101) || is(after.get(1), 101));
    }

    /** G1b (intermediate read): occurs if T2 commits having seen 101, which T1 overwrote with 11 before committing; prevented if T2 never sees 101. */
    private static boolean g1b(Interleaving h) {
        h.begin(1, 2);
        h.update(1, 1, 101);
        Map<Integer, Long> before = h.scan(2, ALL);
        h.update(1, 1, 11);
        h.commit(1);
        Map<Integer, Long> after = h.scan(2, ALL);
        h.commit(2);
        return committed(h, 1, 2) && (is(before.get(1), 101) || is(after.get(1), 101));
    }

    /** G1c (circular information flow): occurs if both commit and each read the other's write (T1 sees 22, T2 sees 11); prevented if either missed it or aborted. */
    private static boolean g1c(Interleaving h) throws InterruptedException {
        h.begin(1, 2);
        h.update(1, 1, 11);
        h.update(2, 2, 22);
        Long t1Saw = h.read(1, 2);
        Long t2Saw = h.read(2, 1);
        h.commitTogether(1, 2);
        return committed(h, 1, 2) && is(t1Saw, 22) && is(t2Saw, 11);
    }

    /** OTV (observed transaction vanishes): occurs if T3 commits having seen T1's effects and later a state without them; prevented if T3's reads never go back in commit order. */
    private static boolean otv(Interleaving h) {
        h.begin(1, 2, 3);
        h.update(1, 1, 11);
        h.update(1, 2, 19);
        h.update(2, 1, 12); // Postgres blocks T2 here; gtran aborts it (write-write)
        h.commit(1);
        h.read(3, 1);
        h.update(2, 2, 18);
        h.read(3, 2);
        h.commit(2);
        h.read(3, 2);
        h.read(3, 1);
        h.commit(3);
        return committed(h, 1, 3) && !h.readsMonotonic(3);
    }

    /** PMP (predicate-many-preceders): occurs if T1 commits and its second predicate read finds row 3, inserted by T2 after T1's first one found nothing; prevented if it still finds nothing. */
    private static boolean pmp(Interleaving h) {
        h.begin(1, 2);
        h.scan(1, VALUE_IS_30);
        h.insert(2, 3, 30);
        h.commit(2);
        Map<Integer, Long> later = h.scan(1, MULTIPLE_OF_3);
        h.commit(1);
        return committed(h, 1, 2) && later.containsKey(3);
    }

    /**
     * PMP for write predicates: occurs if both commit and T2's "delete where value = 20" either
     * still shows a row with value 20 (mixed evaluation, as in Postgres read committed) or deleted
     * a row whose value T1's committed update had changed (T1's update lost: a delete writes the
     * whole row, as in SQL and as {@link ConflictKind#DELETED_ELEMENT} documents); prevented if T2
     * aborts, as Postgres repeatable read does ("could not serialize access due to concurrent update").
     */
    private static boolean pmpWritePredicate(Interleaving h) {
        h.begin(1, 2);
        h.updateWhere(1, ALL, v -> v + 10);
        h.deleteWhere(2, VALUE_IS_20); // Postgres blocks T2 here
        h.commit(1);
        Map<Integer, Long> left = h.scan(2, VALUE_IS_20);
        h.commit(2);
        boolean deletedAnUpdatedRow = h.wrote(2).keySet().stream().anyMatch(h.wrote(1)::containsKey);
        return committed(h, 1, 2) && (!left.isEmpty() || deletedAnUpdatedRow);
    }

    /** P4 (lost update): occurs if T1 and T2 both read 10 and both commit their update of row 1; prevented if one aborts. */
    private static boolean p4(Interleaving h) {
        h.begin(1, 2);
        Long t1Saw = h.read(1, 1);
        Long t2Saw = h.read(2, 1);
        h.update(1, 1, 11);
        h.update(2, 1, 11); // Postgres blocks T2 here; gtran aborts it (write-write)
        h.commit(1);
        h.commit(2);
        return committed(h, 1, 2) && is(t1Saw, 10) && is(t2Saw, 10);
    }

    /** G-single (read skew): occurs if T1 commits having read row 1 before T2's update (10) and row 2 after it (18); prevented if it reads 20, or aborts. */
    private static boolean gSingle(Interleaving h) {
        h.begin(1, 2);
        Long first = h.read(1, 1);
        h.read(2, 1);
        h.read(2, 2);
        h.update(2, 1, 12);
        h.update(2, 2, 18);
        h.commit(2);
        Long second = h.read(1, 2);
        h.commit(1);
        return committed(h, 1, 2) && is(first, 10) && is(second, 18);
    }

    /** G-single with predicate reads: occurs if T1 commits and its "value % 3 = 0" finds row 1 = 12 from T2, after its first scan saw 10; prevented if it finds nothing. */
    private static boolean gSinglePredicate(Interleaving h) {
        h.begin(1, 2);
        h.scan(1, MULTIPLE_OF_5);
        h.updateWhere(2, VALUE_IS_10, v -> 12);
        h.commit(2);
        Map<Integer, Long> later = h.scan(1, MULTIPLE_OF_3);
        h.commit(1);
        return committed(h, 1, 2) && !later.isEmpty();
    }

    /**
     * G-single with a write predicate: occurs if both commit and T1, having read row 1 before
     * T2's update, deletes row 2 over T2's committed update (one anti-dependency, T1 -> T2, and
     * one write dependency, T2 -> T1, a delete writing the whole row); prevented if T1 aborts, as
     * in Postgres repeatable read.
     */
    private static boolean gSingleWritePredicate(Interleaving h) {
        h.begin(1, 2);
        Long first = h.read(1, 1);
        h.scan(2, ALL);
        h.update(2, 1, 12);
        h.update(2, 2, 18);
        h.commit(2);
        h.deleteWhere(1, VALUE_IS_20);
        h.commit(1);
        boolean deletedAnUpdatedRow = h.wrote(1).keySet().stream().anyMatch(h.wrote(2)::containsKey);
        return committed(h, 1, 2) && is(first, 10) && deletedAnUpdatedRow;
    }

    /** G2-item (write skew): occurs if both commit, T1 having read row 2 = 20 and T2 row 1 = 10 before the other's update; prevented if one aborts. */
    private static boolean g2Item(Interleaving h) throws InterruptedException {
        h.begin(1, 2);
        Long t1Saw = h.read(1, 2);
        h.read(1, 1);
        h.read(2, 2);
        Long t2Saw = h.read(2, 1);
        h.update(1, 1, 11);
        h.update(2, 2, 21);
        h.commitTogether(1, 2);
        return committed(h, 1, 2) && is(t1Saw, 20) && is(t2Saw, 10);
    }

    /** G2 (anti-dependency cycle on a predicate): occurs if both commit, each having found no "value % 3 = 0" row while the other inserted one; prevented if one aborts. */
    private static boolean g2(Interleaving h) throws InterruptedException {
        h.begin(1, 2);
        Map<Integer, Long> t1Found = h.scan(1, MULTIPLE_OF_3);
        Map<Integer, Long> t2Found = h.scan(2, MULTIPLE_OF_3);
        h.insert(1, 3, 30);
        h.insert(2, 4, 42);
        h.commitTogether(1, 2);
        return committed(h, 1, 2) && t1Found.isEmpty() && t2Found.isEmpty();
    }

    /**
     * G2, Fekete et al.'s read-only anomaly: occurs if all three commit with T3 seeing T2's row
     * 2 = 25 but not T1's row 1 = 0, while T1 read row 2 = 20 before T2 (T1 -> T2 -> T3 -> T1);
     * prevented if T1 aborts.
     */
    private static boolean g2Fekete(Interleaving h) {
        h.begin(1);
        Map<Integer, Long> t1Saw = h.scan(1, ALL);
        h.begin(2);
        Long row2 = h.read(2, 2); // update test set value = value + 5 where id = 2
        h.update(2, 2, row2 + 5);
        h.commit(2);
        h.begin(3);
        Map<Integer, Long> t3Saw = h.scan(3, ALL);
        h.commit(3);
        h.update(1, 1, 0);
        h.commit(1);
        return committed(h, 1, 2, 3) && is(t1Saw.get(2), 20) && t3Saw.equals(Map.of(1, 10L, 2, 25L));
    }
}
