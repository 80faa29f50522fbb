package io.gtran.check.history;

import static io.gtran.check.history.Op.append;
import static io.gtran.check.history.Op.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.check.history.Anomaly.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The checker on hand-built histories: each anomaly kind is found in a minimal history that has
 * it and nothing else, naming the transactions involved, and serial histories are clean. This is
 * what shows the checker can fail; {@link ListAppendHistoryTest} shows it on real runs.
 */
@Timeout(30)
class ListAppendCheckerTest {
    private static final int X = 1;
    private static final int Y = 2;

    private final History h = new History();

    /** Kinds found, and the anomalies themselves in the failure message. */
    private static void assertOnly(Kind expected, List<Anomaly> anomalies) {
        assertEquals(List.of(expected), anomalies.stream().map(Anomaly::kind).toList(),
                () -> anomalies.stream().map(Anomaly::describe).collect(Collectors.joining("\n")));
    }

    private static Set<Integer> ids(Anomaly a) {
        return a.txns().stream().map(TxnRecord::id).collect(Collectors.toSet());
    }

    /** G0: two writers' appends land in opposite orders on two keys, a cycle of ww edges alone. */
    @Test
    void g0WriteCycle() {
        TxnRecord t1 = h.committed(append(X, 1), append(Y, 1));
        TxnRecord t2 = h.committed(append(X, 2), append(Y, 2));
        h.committed(read(X, 1, 2), read(Y, 2, 1));
        List<Anomaly> found = ListAppendChecker.check(h);
        assertOnly(Kind.G0, found);
        assertEquals(Set.of(t1.id(), t2.id()), ids(found.get(0)));
        assertTrue(found.get(0).explanation().contains("-ww("), found.get(0).explanation());
    }

    /** G1a: a committed read shows an element an aborted transaction appended. */
    @Test
    void g1aAbortedRead() {
        TxnRecord writer = h.aborted(append(X, 1));
        TxnRecord reader = h.committed(read(X, 1));
        List<Anomaly> found = ListAppendChecker.check(h);
        assertOnly(Kind.G1A, found);
        assertEquals(List.of(writer, reader), found.get(0).txns());
    }

    /** G1b: a read ends in an element its writer appended to before appending again. */
    @Test
    void g1bIntermediateRead() {
        TxnRecord writer = h.committed(append(X, 1), append(X, 2));
        TxnRecord reader = h.committed(read(X, 1));
        List<Anomaly> found = ListAppendChecker.check(h);
        assertOnly(Kind.G1B, found);
        assertEquals(List.of(writer, reader), found.get(0).txns());
    }

    /** A transaction reading its own intermediate append is not G1b. */
    @Test
    void readingOwnIntermediateAppendIsFine() {
        h.committed(append(X, 1), read(X, 1), append(X, 2), read(X, 1, 2));
        h.committed(read(X, 1, 2));
        assertEquals(List.of(), ListAppendChecker.check(h));
    }

    /** G1c: each transaction reads the other's append, a cycle of wr edges. */
    @Test
    void g1cCircularInformationFlow() {
        TxnRecord t1 = h.committed(append(X, 1), read(Y, 1));
        TxnRecord t2 = h.committed(append(Y, 1), read(X, 1));
        List<Anomaly> found = ListAppendChecker.check(h);
        assertOnly(Kind.G1C, found);
        assertEquals(Set.of(t1.id(), t2.id()), ids(found.get(0)));
    }

    /** G-single (read skew): T1 sees T2's append to y but not its append to x. */
    @Test
    void gSingleReadSkew() {
        TxnRecord t1 = h.committed(read(X), read(Y, 1));
        TxnRecord t2 = h.committed(append(X, 1), append(Y, 1));
        h.committed(read(X, 1));
        List<Anomaly> found = ListAppendChecker.check(h);
        assertOnly(Kind.G_SINGLE, found);
        assertEquals(Set.of(t1.id(), t2.id()), ids(found.get(0)));
        assertTrue(found.get(0).explanation().contains("-rw(k1: read the empty list, 1 appended next)->"), found.get(0).explanation());
    }

    /** G2 (write skew): each reads the key the other appends to, before the append: two rw edges. */
    @Test
    void g2WriteSkew() {
        TxnRecord t1 = h.committed(read(X), append(Y, 1));
        TxnRecord t2 = h.committed(read(Y), append(X, 1));
        h.committed(read(X, 1), read(Y, 1));
        List<Anomaly> found = ListAppendChecker.check(h);
        assertOnly(Kind.G2, found);
        assertEquals(Set.of(t1.id(), t2.id()), ids(found.get(0)));
    }

    /** G2 over a longer cycle: three transactions, each missing the next one's append. */
    @Test
    void g2ThreeWayCycle() {
        int z = 3;
        h.committed(read(X), append(Y, 1));
        h.committed(read(Y), append(z, 1));
        h.committed(read(z), append(X, 1));
        h.committed(read(X, 1), read(Y, 1), read(z, 1));
        List<Anomaly> found = ListAppendChecker.check(h);
        assertOnly(Kind.G2, found);
        assertEquals(3, found.get(0).txns().size());
    }

    /** Incompatible order: two reads of one key that are not prefixes of one another (a lost update). */
    @Test
    void incompatibleOrder() {
        TxnRecord t1 = h.committed(read(X), append(X, 1));
        TxnRecord t2 = h.committed(read(X), append(X, 2));
        TxnRecord r1 = h.committed(read(X, 1));
        TxnRecord r2 = h.committed(read(X, 2, 3));
        h.committed(append(X, 3));
        List<Anomaly> found = ListAppendChecker.check(h);
        assertTrue(found.stream().anyMatch(a -> a.kind() == Kind.INCOMPATIBLE_ORDER
                && ids(a).equals(Set.of(r1.id(), r2.id()))), () -> found.toString());
        assertTrue(found.stream().allMatch(a -> a.kind() == Kind.INCOMPATIBLE_ORDER || a.kind() == Kind.G2),
                () -> "a lost update may also close rw cycles, nothing else: " + found + " " + t1 + t2);
    }

    /** Incompatible order alone: two reads of a key that diverge. */
    @Test
    void incompatibleOrderAlone() {
        h.committed(append(X, 1));
        h.committed(append(X, 2));
        h.committed(read(X, 1, 2));
        h.committed(read(X, 2));
        assertOnly(Kind.INCOMPATIBLE_ORDER, ListAppendChecker.check(h));
    }

    /** A list holding an element twice. */
    @Test
    void duplicateElement() {
        h.committed(append(X, 1));
        h.committed(read(X, 1, 1));
        assertOnly(Kind.DUPLICATE_ELEMENT, ListAppendChecker.check(h));
    }

    /** A transaction that does not see its own append. */
    @Test
    void internalInconsistency() {
        h.committed(append(X, 1), read(X));
        assertOnly(Kind.INTERNAL, ListAppendChecker.check(h));
    }

    /** A transaction whose second read of a key differs from its first (a non-repeatable read). */
    @Test
    void nonRepeatableReadIsInternal() {
        h.committed(append(X, 1));
        h.committed(read(X), read(X, 1));
        List<Anomaly> found = ListAppendChecker.check(h);
        assertTrue(found.stream().anyMatch(a -> a.kind() == Kind.INTERNAL), found::toString);
    }

    /** An element nobody appended. */
    @Test
    void unknownElement() {
        h.committed(read(X, 7));
        assertOnly(Kind.UNKNOWN_ELEMENT, ListAppendChecker.check(h));
    }

    /** Aborted transactions' reads and appends that nobody saw are no anomaly. */
    @Test
    void abortedTransactionsAreIgnored() {
        h.committed(append(X, 1));
        h.aborted(append(X, 2), read(Y, 99));
        h.committed(read(X, 1));
        assertEquals(List.of(), ListAppendChecker.check(h));
    }

    /** Values must be unique per key: a history that appends one twice is a broken workload. */
    @Test
    void appendingAValueTwiceIsRejected() {
        h.committed(append(X, 1));
        h.committed(append(X, 1));
        assertThrows(IllegalArgumentException.class, () -> ListAppendChecker.check(h));
    }

    /** G-realtime: T2 began after T1 was acknowledged and still read X without T1's append. */
    @Test
    void aReadMissingAnAppendAcknowledgedBeforeItBeganIsRealTimeAnomaly() {
        TxnRecord t1 = h.committedAt(0, 10, append(X, 1));
        TxnRecord t2 = h.committedAt(20, 30, read(X));
        h.committedAt(40, 50, read(X, 1)); // a later read shows the order of X's elements
        List<Anomaly> anomalies = ListAppendChecker.check(h);
        assertOnly(Kind.REALTIME, anomalies);
        assertEquals(Set.of(t1.id(), t2.id()), ids(anomalies.get(0)));
        assertTrue(anomalies.get(0).explanation().contains("-rt("), anomalies.get(0).explanation());
    }

    /** Overlapping in time, or a time unknown, T2 may be ordered before T1: serializable, no real-time order. */
    @Test
    void overlappingOrUntimedTransactionsHaveNoRealTimeOrder() {
        h.committedAt(0, 10, append(X, 1));
        h.committedAt(5, 30, read(X));
        h.committedAt(10, 40, read(X)); // invoked the instant T1 was acknowledged: no order
        h.committed(append(Y, 1));
        h.committedAt(50, 60, read(Y));
        h.committedAt(70, 80, read(X, 1), read(Y, 1));
        assertEquals(List.of(), ListAppendChecker.check(h));
    }

    /** Real-time order is transitive: T1 before T3 before T2 orders T1 before T2, though only adjacent edges are drawn. */
    @Test
    void realTimeOrderIsTransitive() {
        TxnRecord t1 = h.committedAt(0, 10, append(X, 1));
        TxnRecord t3 = h.committedAt(11, 12, append(Y, 1));
        TxnRecord t2 = h.committedAt(20, 30, read(X));
        h.committedAt(40, 50, read(X, 1));
        List<Anomaly> anomalies = ListAppendChecker.check(h);
        assertOnly(Kind.REALTIME, anomalies);
        assertEquals(Set.of(t1.id(), t2.id(), t3.id()), ids(anomalies.get(0)));
    }

    /** A random serial history (one transaction at a time against a map), with aborts, is clean, timed or not. */
    @Test
    void serialHistoryIsClean() {
        assertEquals(List.of(), ListAppendChecker.check(serialHistory(false)));
        assertEquals(List.of(), ListAppendChecker.check(serialHistory(true)));
    }

    private static History serialHistory(boolean timed) {
        History h = new History();
        Random random = new Random(42);
        Map<Integer, List<Integer>> store = new HashMap<>();
        Map<Integer, Integer> next = new HashMap<>();
        for (int t = 0; t < 2_000; t++) {
            boolean abort = random.nextInt(5) == 0;
            Map<Integer, List<Integer>> view = new HashMap<>();
            store.forEach((k, v) -> view.put(k, new ArrayList<>(v)));
            List<Op> ops = new ArrayList<>();
            for (int i = 1 + random.nextInt(4); i > 0; i--) {
                int key = random.nextInt(5);
                List<Integer> list = view.computeIfAbsent(key, k -> new ArrayList<>());
                if (random.nextBoolean()) {
                    int value = next.merge(key, 1, Integer::sum);
                    list.add(value);
                    ops.add(append(key, value));
                } else {
                    ops.add(read(key, list.stream().mapToInt(Integer::intValue).toArray()));
                }
            }
            if (abort) {
                h.aborted(ops.toArray(Op[]::new));
            } else {
                store.clear();
                store.putAll(view);
                if (timed) {
                    h.committedAt(10L * t, 10L * t + 5, ops.toArray(Op[]::new));
                } else {
                    h.committed(ops.toArray(Op[]::new));
                }
            }
        }
        return h;
    }
}
