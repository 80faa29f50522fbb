package io.gtran.check.history;

import static io.gtran.check.history.DependencyGraph.ALL;
import static io.gtran.check.history.DependencyGraph.RT;
import static io.gtran.check.history.DependencyGraph.RW;
import static io.gtran.check.history.DependencyGraph.WR;
import static io.gtran.check.history.DependencyGraph.WW;

import io.gtran.check.history.Anomaly.Kind;
import io.gtran.check.history.DependencyGraph.Edge;
import io.gtran.check.history.DependencyGraph.Step;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An Elle-style checker for list-append histories (Kingsbury and Alvaro, "Elle: Inferring
 * Isolation Anomalies from Experimental Observations", VLDB 2020). Every appended value is unique
 * per key, so a read list names the transaction behind each of its elements. Steps:
 * <ol>
 *   <li>Index who appended each element, and which appends were not their transaction's last to
 *       the key (intermediate).
 *   <li>Check each committed read on its own: duplicate elements, elements nobody appended,
 *       elements of aborted transactions (G1a), a last element that was an intermediate append of
 *       another transaction (G1b); and each committed transaction against itself (internal).
 *   <li>Infer each key's version order: the longest committed read; every other committed read
 *       must be a prefix of it (else incompatible-order).
 *   <li>Infer dependencies between committed transactions: ww (appended the next element), wr
 *       (read a list ending in the writer's element), rw (read a list ending in x, or empty, of
 *       which another appended the next element).
 *   <li>Tarjan SCCs; inside each, a shortest cycle of each shape: ww only (G0), ww and wr with at
 *       least one wr (G1c), exactly one rw (G-single), two or more rw (G2).
 *   <li>Real-time order, for transactions whose invocation and acknowledgement the client timed:
 *       an rt edge from each transaction acknowledged before another was invoked (only those not
 *       implied by others, Elle's frontier), and a cycle through at least one rt edge with at most
 *       one rw is G-realtime (a transaction missed one acknowledged before it began); with two or
 *       more rw it is reported as G2, which snapshot isolation allows.
 * </ol>
 * Aborted transactions are never graph nodes: their reads are ignored, their appends only count
 * for G1a. One cycle anomaly is reported per component and kind; incompatible orders once per key.
 */
public final class ListAppendChecker {
    /** How many read-write edges of one component are tried as the start of a G-single or G2 cycle. */
    private static final int CYCLE_TRIES = 64;

    /** What the history says about one key. */
    private static final class KeyIndex {
        final int key;
        TxnRecord[] writer = new TxnRecord[16];
        boolean[] intermediate = new boolean[16];
        /** Scratch for duplicate detection: the mark of the last list each value was seen in. */
        int[] seen = new int[0];
        final List<Read> reads = new ArrayList<>();
        /** The inferred version order: the longest committed read. */
        int[] order = new int[0];

        KeyIndex(int key) {
            this.key = key;
        }

        TxnRecord writerOf(int value) {
            return value >= 0 && value < writer.length ? writer[value] : null;
        }

        void setWriter(int value, TxnRecord txn, boolean isIntermediate) {
            if (value >= writer.length) {
                int length = Math.max(value + 1, writer.length * 2);
                writer = Arrays.copyOf(writer, length);
                intermediate = Arrays.copyOf(intermediate, length);
            }
            if (writer[value] != null) {
                throw new IllegalArgumentException("history appends an element twice (values must be unique per key): key="
                        + key + " value=" + value + " by " + writer[value].name() + " and " + txn.name());
            }
            writer[value] = txn;
            intermediate[value] = isIntermediate;
        }
    }

    /** A completed read by a committed transaction; {@code prefix} once the version order is known. */
    private static final class Read {
        final TxnRecord reader;
        final int[] values;
        boolean prefix = true;

        Read(TxnRecord reader, int[] values) {
            this.reader = reader;
            this.values = values;
        }
    }

    private final List<TxnRecord> txns;
    private final Map<Integer, KeyIndex> keys = new TreeMap<>();
    private final List<TxnRecord> committed = new ArrayList<>();
    private final Map<TxnRecord, Integer> node = new IdentityHashMap<>();
    private final List<Anomaly> anomalies = new ArrayList<>();
    private int stamp;

    private ListAppendChecker(List<TxnRecord> txns) {
        this.txns = txns;
    }

    /** Checks a history; returns its anomalies ordered by kind (empty if none). */
    public static List<Anomaly> check(List<TxnRecord> txns) {
        return new ListAppendChecker(txns).run();
    }

    public static List<Anomaly> check(History history) {
        return check(history.txns());
    }

    private List<Anomaly> run() {
        indexAppends();
        for (TxnRecord t : txns) {
            if (t.committed()) {
                node.put(t, committed.size());
                committed.add(t);
                checkInternal(t);
                for (Op op : t.ops()) {
                    if (op.isCompletedRead()) {
                        keyIndex(op.key()).reads.add(new Read(t, op.read()));
                    }
                }
            }
        }
        for (KeyIndex k : keys.values()) {
            checkReads(k);
            inferOrder(k);
        }
        DependencyGraph graph = buildGraph();
        findCycles(graph);
        addRealTimeOrder(graph);
        findRealTimeCycles(graph);
        anomalies.sort(Comparator.comparing(Anomaly::kind));
        return anomalies;
    }

    private KeyIndex keyIndex(int key) {
        return keys.computeIfAbsent(key, KeyIndex::new);
    }

    // ---------------------------------------------------------------- per-read checks

    private void indexAppends() {
        for (TxnRecord t : txns) {
            Map<Integer, Integer> lastAppend = new HashMap<>();
            for (Op op : t.ops()) {
                if (op.isAppend()) {
                    lastAppend.put(op.key(), op.value());
                }
            }
            for (Op op : t.ops()) {
                if (op.isAppend()) {
                    keyIndex(op.key()).setWriter(op.value(), t, lastAppend.get(op.key()) != op.value());
                }
            }
        }
    }

    private void checkReads(KeyIndex k) {
        for (Read r : k.reads) {
            int[] list = r.values;
            Set<TxnRecord> abortedWriters = Collections.newSetFromMap(new IdentityHashMap<>());
            boolean unknown = false;
            for (int value : list) {
                TxnRecord w = k.writerOf(value);
                if (w == null) {
                    if (!unknown) {
                        report(Kind.UNKNOWN_ELEMENT, List.of(r.reader),
                                r.reader.name() + " read element " + value + " of k" + k.key + " that no transaction appended");
                    }
                    unknown = true;
                } else if (!w.committed() && abortedWriters.add(w)) {
                    report(Kind.G1A, List.of(w, r.reader), r.reader.name() + " read element " + value + " of k" + k.key
                            + " appended by " + w.name() + ", which aborted");
                }
            }
            if (hasDuplicates(k, list, ++stamp)) {
                report(Kind.DUPLICATE_ELEMENT, List.of(r.reader),
                        r.reader.name() + " read k" + k.key + " = " + Op.show(list) + " holding an element twice");
            }
            if (list.length > 0) {
                int last = list[list.length - 1];
                TxnRecord w = k.writerOf(last);
                if (w != null && w.committed() && w != r.reader && k.intermediate[last]) {
                    report(Kind.G1B, List.of(w, r.reader), r.reader.name() + " read k" + k.key + " ending in " + last
                            + ", an intermediate append of " + w.name() + " (it appended to k" + k.key + " again)");
                }
            }
        }
    }

    /** Whether a list holds an element twice; {@code mark} is fresh for every list. */
    private static boolean hasDuplicates(KeyIndex k, int[] list, int mark) {
        if (k.seen.length < k.writer.length) {
            k.seen = new int[k.writer.length];
        }
        Set<Integer> outside = null; // elements nobody appended may lie outside the array
        for (int value : list) {
            if (value >= 0 && value < k.seen.length) {
                if (k.seen[value] == mark) {
                    return true;
                }
                k.seen[value] = mark;
            } else {
                outside = outside == null ? new HashSet<>() : outside;
                if (!outside.add(value)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A transaction must see its own appends and its earlier reads of a key, extended by its appends. */
    private void checkInternal(TxnRecord t) {
        Map<Integer, int[]> known = new HashMap<>();              // exact state, once read
        Map<Integer, List<Integer>> appended = new HashMap<>();   // own appends before any read
        for (Op op : t.ops()) {
            int key = op.key();
            if (op.isAppend()) {
                int[] state = known.get(key);
                if (state != null) {
                    int[] grown = Arrays.copyOf(state, state.length + 1);
                    grown[state.length] = op.value();
                    known.put(key, grown);
                } else {
                    appended.computeIfAbsent(key, k -> new ArrayList<>()).add(op.value());
                }
                continue;
            }
            if (!op.isCompletedRead()) {
                continue;
            }
            int[] read = op.read();
            int[] expected = known.get(key);
            if (expected != null && !Arrays.equals(expected, read)) {
                report(Kind.INTERNAL, List.of(t), t.name() + " read k" + key + " = " + Op.show(read)
                        + " but its own earlier reads and appends say " + Op.show(expected));
            } else if (expected == null) {
                int[] own = appended.getOrDefault(key, List.of()).stream().mapToInt(Integer::intValue).toArray();
                if (read.length < own.length || !Arrays.equals(read, read.length - own.length, read.length, own, 0, own.length)) {
                    report(Kind.INTERNAL, List.of(t), t.name() + " read k" + key + " = " + Op.show(read)
                            + ", which does not end with its own appends " + Op.show(own));
                }
            }
            known.put(key, read);
        }
    }

    // ---------------------------------------------------------------- version order and graph

    private void inferOrder(KeyIndex k) {
        Read longest = null;
        for (Read r : k.reads) {
            if (longest == null || r.values.length > longest.values.length) {
                longest = r;
            }
        }
        if (longest == null) {
            return;
        }
        k.order = longest.values;
        int incompatible = 0;
        Read example = null;
        for (Read r : k.reads) {
            r.prefix = Arrays.equals(r.values, 0, r.values.length, k.order, 0, r.values.length);
            if (!r.prefix) {
                incompatible++;
                example = example == null ? r : example;
            }
        }
        if (example != null) {
            int at = Arrays.mismatch(example.values, k.order);
            report(Kind.INCOMPATIBLE_ORDER, List.of(example.reader, longest.reader), incompatible + " committed read(s) of k"
                    + k.key + " are not prefixes of the longest, " + longest.reader.name() + "'s " + Op.show(k.order)
                    + "; e.g. " + example.reader.name() + " read " + Op.show(example.values) + ", which has " + example.values[at]
                    + " at index " + at + " where the longest has " + k.order[at]);
        }
    }

    private DependencyGraph buildGraph() {
        DependencyGraph graph = new DependencyGraph(committed.size());
        for (KeyIndex k : keys.values()) {
            for (int i = 1; i < k.order.length; i++) {
                edge(graph, k.writerOf(k.order[i - 1]), k.writerOf(k.order[i]), WW, k.key, k.order[i - 1], k.order[i]);
            }
            for (Read r : k.reads) {
                int length = r.values.length;
                int last = length == 0 ? -1 : r.values[length - 1];
                if (length > 0) {
                    edge(graph, k.writerOf(last), r.reader, WR, k.key, last, -1);
                }
                if (r.prefix && length < k.order.length) {
                    edge(graph, r.reader, k.writerOf(k.order[length]), RW, k.key, last, k.order[length]);
                }
            }
        }
        return graph;
    }

    /** An edge between two committed transactions; anything else (aborted, unknown writer) is no node. */
    private void edge(DependencyGraph graph, TxnRecord from, TxnRecord to, int type, int key, int first, int second) {
        Integer f = from == null ? null : node.get(from);
        Integer t = to == null ? null : node.get(to);
        if (f != null && t != null) {
            graph.add(f, t, type, key, first, second);
        }
    }

    // ---------------------------------------------------------------- cycles

    private void findCycles(DependencyGraph graph) {
        int[] all = graph.components(ALL);
        int[] ww = graph.components(WW);
        int[] wwwr = graph.components(WW | WR);
        for (int[] group : DependencyGraph.nonTrivial(ww)) {
            Edge first = internalEdge(graph, group, ww, WW);
            reportCycle(Kind.G0, graph.cycle(first, WW, ww, ww[group[0]], WW, 0));
        }
        for (int[] group : DependencyGraph.nonTrivial(wwwr)) {
            Edge first = internalEdge(graph, group, wwwr, WR);
            if (first != null) {
                reportCycle(Kind.G1C, graph.cycle(first, WR, wwwr, wwwr[group[0]], WW | WR, 0));
            }
        }
        for (int[] group : DependencyGraph.nonTrivial(all)) {
            int id = all[group[0]];
            List<Edge> rw = internalEdges(graph, group, all, RW);
            // An rw edge inside a ww/wr component surely closes a G-single cycle: try those first.
            rw.sort(Comparator.comparing(e -> wwwr[e.from] == wwwr[e.to] ? 0 : 1));
            reportCycle(Kind.G_SINGLE, firstCycle(graph, rw, RW, all, id, WW | WR, 0));
            reportCycle(Kind.G2, firstCycle(graph, rw, RW, all, id, ALL, 1));
        }
    }

    // ---------------------------------------------------------------- real time

    /**
     * Adds an rt edge from every committed transaction acknowledged before another was invoked,
     * leaving out those implied by a chain of others: at each invocation, from the *frontier*
     * (acknowledged transactions no later acknowledged one was invoked after); an acknowledgement
     * takes the transactions its invocation saw out of the frontier. A tie in time is no order.
     */
    private void addRealTimeOrder(DependencyGraph graph) {
        List<long[]> events = new ArrayList<>(); // time, 0 = invoked / 1 = acknowledged, node
        for (int n = 0; n < committed.size(); n++) {
            TxnRecord t = committed.get(n);
            if (t.timed()) {
                events.add(new long[] {t.startNanos(), 0, n});
                events.add(new long[] {t.endNanos(), 1, n});
            }
        }
        events.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
        List<Integer> frontier = new ArrayList<>();
        Map<Integer, List<Integer>> sawAtStart = new HashMap<>();
        for (long[] e : events) {
            int n = (int) e[2];
            if (e[1] == 0) {
                List<Integer> before = List.copyOf(frontier);
                sawAtStart.put(n, before);
                for (int p : before) {
                    graph.add(p, n, RT, -1, -1, -1);
                }
            } else {
                List<Integer> before = sawAtStart.remove(n);
                if (before != null) {
                    frontier.removeAll(before);
                }
                frontier.add(n);
            }
        }
    }

    private void findRealTimeCycles(DependencyGraph graph) {
        int[] withRt = graph.components(ALL | RT);
        for (int[] group : DependencyGraph.nonTrivial(withRt)) {
            int id = withRt[group[0]];
            List<Edge> rt = internalEdges(graph, group, withRt, RT);
            List<Step> cycle = firstCycle(graph, rt, RT, withRt, id, WW | WR | RT, 0);
            if (cycle == null) {
                cycle = firstCycle(graph, rt, RT, withRt, id, ALL | RT, 1);
            }
            if (cycle != null) {
                long rw = cycle.stream().filter(step -> step.type() == RW).count();
                reportCycle(rw <= 1 ? Kind.REALTIME : Kind.G2, cycle);
            }
        }
    }

    /** The edges of {@code type} between two nodes of the group's component. */
    private static List<Edge> internalEdges(DependencyGraph graph, int[] group, int[] component, int type) {
        List<Edge> edges = new ArrayList<>();
        for (int n : group) {
            for (Edge e : graph.out(n)) {
                if ((e.mask & type) != 0 && component[e.to] == component[n]) {
                    edges.add(e);
                }
            }
        }
        return edges;
    }

    /** The first cycle found starting with one of {@code starts} (used as {@code startType}), trying at most {@value #CYCLE_TRIES}. */
    private static List<Step> firstCycle(DependencyGraph graph, List<Edge> starts, int startType, int[] component, int id,
            int pathMask, int pathRw) {
        for (int i = 0; i < Math.min(starts.size(), CYCLE_TRIES); i++) {
            List<Step> cycle = graph.cycle(starts.get(i), startType, component, id, pathMask, pathRw);
            if (cycle != null) {
                return cycle;
            }
        }
        return null;
    }

    /** An edge with {@code type} between two nodes of the group's component, or null. */
    private static Edge internalEdge(DependencyGraph graph, int[] group, int[] component, int type) {
        List<Edge> edges = internalEdges(graph, group, component, type);
        return edges.isEmpty() ? null : edges.get(0);
    }

    private void reportCycle(Kind kind, List<Step> cycle) {
        if (cycle == null) {
            return;
        }
        List<TxnRecord> members = new ArrayList<>();
        StringBuilder b = new StringBuilder("cycle ");
        for (Step step : cycle) {
            TxnRecord from = committed.get(step.edge().from);
            members.add(from);
            b.append(from.name()).append(' ').append(describe(step)).append(' ');
        }
        b.append(committed.get(cycle.get(0).edge().from).name());
        report(kind, members, b.toString());
    }

    /** {@code -ww(k3: 9 appended right after 5)->} and the like. */
    private static String describe(Step step) {
        int s = Edge.slot(step.type());
        Edge e = step.edge();
        int key = e.key[s];
        int first = e.first[s];
        int second = e.second[s];
        String why;
        if (step.type() == RT) {
            why = "rt(acknowledged before the next was invoked)";
        } else if (step.type() == WW) {
            why = "ww(k" + key + ": " + second + " appended right after " + first + ")";
        } else if (step.type() == WR) {
            why = "wr(k" + key + ": read a list ending in " + first + ")";
        } else {
            why = "rw(k" + key + ": read " + (first < 0 ? "the empty list" : "a list ending in " + first) + ", "
                    + second + " appended next)";
        }
        return "-" + why + "->";
    }

    private void report(Kind kind, List<TxnRecord> involved, String explanation) {
        anomalies.add(new Anomaly(kind, involved, explanation));
    }
}
