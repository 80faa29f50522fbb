package io.gtran.txn;

import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongPredicate;
import java.util.function.LongUnaryOperator;
import java.util.function.Predicate;

/**
 * Hermitage's table {@code test(id, value)} in a gtran graph, and the steps of one interleaving
 * over it. A row is a vertex of label {@code test} with properties {@code id} (Hermitage's row id)
 * and {@code value}; rows 1 => 10 and 2 => 20 are committed before the first step. Transactions
 * are numbered as in Hermitage (T1, T2, T3).
 *
 * <p>gtran never blocks: a step that meets a conflict aborts its transaction with {@link
 * TransactionConflictException}. The conflict is recorded and every later step of that
 * transaction is skipped (a skipped read returns null).
 *
 * <p>It also keeps what an honest verdict needs: what each transaction observed (with its own
 * writes at that moment), what it wrote, and the order in which transactions began and committed.
 * From that it tells whether every committed transaction read exactly its begin snapshot, and which
 * final state the committed transactions must leave.
 *
 * <p>It runs on one node ({@link Placement#ONE_NODE}) or across a cluster: a {@link Placement}
 * says which node holds the rows and which node's engine begins each transaction. Label and
 * property-key ids are per-node dictionaries, so each transaction uses those of the node that
 * began it, interned there when it begins (a node meets the names first when the setup writes
 * the rows there, a transaction begins there, or another node's transaction reads or writes there).
 */
final class Interleaving implements AutoCloseable {
    /** Hermitage's start state: row id -> value. */
    static final Map<Integer, Long> START = Map.of(1, 10L, 2, 20L);

    /** A predicate on {@code value}, with its SQL for messages. */
    record Where(String sql, LongPredicate test) {
        static final Where ALL = new Where("true", value -> true);

        @Override
        public String toString() {
            return sql;
        }
    }

    /** A read and what it returned, as a test of a table state (the reader's own writes already applied). */
    private record Observation(String what, Map<Integer, Long> ownWrites, Predicate<Map<Integer, Long>> holdsIn) {
    }

    private static final class Txn {
        final int number;
        final Transaction t;
        /** The dictionaries' ids on the node that began it. */
        final Names names;
        final int beginStep;
        int commitStep = -1;
        TransactionConflictException conflict;
        boolean rolledBack;
        /** Row -> value written, null for a deleted row; in write order. */
        final Map<Integer, Long> writes = new LinkedHashMap<>();
        final List<Observation> observations = new ArrayList<>();

        Txn(int number, Transaction t, Names names, int beginStep) {
            this.number = number;
            this.t = t;
            this.names = names;
            this.beginStep = beginStep;
        }
    }

    private record Row(int id, long vertex, long value) {
    }

    /**
     * Where an interleaving runs: the node whose store holds the rows (setup and inserts create
     * them there) and the node whose engine begins T1, T2, T3, ... ({@code coordinators[n - 1]}).
     */
    record Placement(int rowsNode, int... coordinators) {
        /** Everything on node 0. */
        static final Placement ONE_NODE = new Placement(0, 0, 0, 0);

        int coordinatorOf(int n) {
            if (n < 1 || n > coordinators.length) {
                throw new IllegalArgumentException("T" + n + " has no node in " + this);
            }
            return coordinators[n - 1];
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder("rows@").append(rowsNode);
            for (int n = 1; n <= coordinators.length; n++) {
                b.append(" T").append(n).append('@').append(coordinators[n - 1]);
            }
            return b.toString();
        }
    }

    /** The ids of the table's label and columns in one node's dictionaries. */
    private record Names(int label, int idKey, int valueKey) {
        static Names of(TransactionEngine engine) {
            return new Names(engine.store().labels().intern("test"), engine.store().propertyKeys().intern("id"),
                    engine.store().propertyKeys().intern("value"));
        }
    }

    /** Node id -> its engine. */
    private final TransactionEngine[] engines;
    private final Placement placement;
    private final Isolation isolation;
    private final boolean racingCommits;
    /** Node id -> the table's ids in its dictionaries, once interned there; see {@link #names(int)}. */
    private final Names[] names;
    private final Map<Integer, Long> vertexOf = new HashMap<>();
    private final Map<Integer, Txn> txns = new TreeMap<>();
    private final List<Txn> commitOrder = new ArrayList<>();
    private ExecutorService racers;
    private boolean raced;
    private int step;

    /**
     * @param racingCommits whether {@link #commitTogether} runs the two commits at once on two
     *                      threads (so both may validate together) rather than one after the other
     */
    Interleaving(TxnFixture node, Isolation isolation, boolean racingCommits) {
        this(new TransactionEngine[] {node.engine}, Placement.ONE_NODE, isolation, racingCommits);
    }

    /**
     * An interleaving across the nodes of one cluster.
     *
     * @param engines   node id -> that node's engine (every node the placement names)
     * @param placement where the rows live and where each transaction begins
     */
    Interleaving(TransactionEngine[] engines, Placement placement, Isolation isolation, boolean racingCommits) {
        this.engines = engines.clone();
        this.placement = placement;
        this.isolation = isolation;
        this.racingCommits = racingCommits;
        this.names = new Names[engines.length];
        int home = placement.rowsNode;
        Names n = names(home);
        Transaction setup = engines[home].begin(Isolation.SERIALIZABLE);
        for (Map.Entry<Integer, Long> row : new TreeMap<>(START).entrySet()) {
            long v = setup.addVertex(home, n.label);
            setup.setVertexProperty(v, n.idKey, (long) row.getKey());
            setup.setVertexProperty(v, n.valueKey, row.getValue());
            vertexOf.put(row.getKey(), v);
        }
        setup.commit();
    }

    // ---------------------------------------------------------------- steps

    void begin(int... numbers) {
        for (int n : numbers) {
            int coordinator = placement.coordinatorOf(n);
            txns.put(n, new Txn(n, engines[coordinator].begin(isolation), names(coordinator), step++));
        }
    }

    /** {@code select * from test where id = row}: the value, or null if there is no such row or the step was skipped. */
    Long read(int n, int row) {
        return step(n, x -> {
            long v = vertexOf.get(row);
            Long value = x.t.vertexExists(v) ? asLong(x.t.vertexProperty(v, x.names.valueKey), "value of row " + row) : null;
            observe(x, "read id=" + row + " -> " + value, state -> Objects.equals(state.get(row), value));
            return value;
        });
    }

    /** {@code select * from test where <where>}: row -> value, or null if the step was skipped. */
    Map<Integer, Long> scan(int n, Where where) {
        return step(n, x -> values(scanRows(x, where)));
    }

    /** {@code update test set value = <value> where id = row}. */
    void update(int n, int row, long value) {
        step(n, x -> write(x, row, vertexOf.get(row), value));
    }

    /** {@code update test set value = <set(value)> where <where>}: a scan, then a write per row found. */
    void updateWhere(int n, Where where, LongUnaryOperator set) {
        step(n, x -> {
            scanRows(x, where).forEach(r -> write(x, r.id, r.vertex, set.applyAsLong(r.value)));
            return x;
        });
    }

    /** {@code delete from test where <where>}: a scan, then a vertex removal per row found. */
    void deleteWhere(int n, Where where) {
        step(n, x -> {
            for (Row r : scanRows(x, where)) {
                x.t.removeVertex(r.vertex);
                x.writes.put(r.id, null);
            }
            return x;
        });
    }

    /** {@code insert into test (id, value) values (row, value)}. */
    void insert(int n, int row, long value) {
        step(n, x -> {
            long v = x.t.addVertex(placement.rowsNode, x.names.label);
            x.t.setVertexProperty(v, x.names.idKey, (long) row);
            vertexOf.put(row, v);
            return write(x, row, v, value);
        });
    }

    void commit(int n) {
        Txn x = step(n, committing -> {
            committing.t.commit();
            return committing;
        });
        if (x != null) {
            x.commitStep = step++;
            commitOrder.add(x);
        }
    }

    /** {@code abort;} as Hermitage's script says it: an explicit rollback. */
    void abort(int n) {
        Txn x = live(n);
        if (x != null) {
            x.t.rollback();
            x.rolledBack = true;
        }
    }

    /**
     * Hermitage's "commit T{a}; commit T{b}". When racing, the two commits start together on two
     * threads; those that commit are ordered by commit time.
     */
    void commitTogether(int a, int b) throws InterruptedException {
        Txn first = live(a);
        Txn second = live(b);
        if (!racingCommits || first == null || second == null) {
            commit(a);
            commit(b);
            return;
        }
        if (racers == null) {
            racers = Executors.newFixedThreadPool(2);
        }
        raced = true;
        AtomicInteger arrived = new AtomicInteger();
        List<Txn> pair = List.of(first, second);
        List<Future<TransactionConflictException>> outcomes = new ArrayList<>();
        for (Txn x : pair) {
            outcomes.add(racers.submit(() -> {
                arrived.incrementAndGet();
                while (arrived.get() < pair.size()) {
                    Thread.onSpinWait(); // spin rather than park, so that both commits start within a few hundred ns
                }
                try {
                    x.t.commit();
                    return null;
                } catch (TransactionConflictException e) {
                    return e;
                }
            }));
        }
        for (int i = 0; i < pair.size(); i++) {
            try {
                pair.get(i).conflict = outcomes.get(i).get(30, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new AssertionError("racing commit of T" + pair.get(i).number + " failed", e);
            }
        }
        pair.stream().filter(x -> x.t.isCommitted()).sorted(Comparator.comparingLong(x -> x.t.commitTime())).forEach(x -> {
            x.commitStep = step++;
            commitOrder.add(x);
        });
    }

    // ---------------------------------------------------------------- what happened

    /** Whether {@link #commitTogether} ran two commits at once. */
    boolean raced() {
        return raced;
    }

    boolean committed(int n) {
        return txns.get(n).t.isCommitted();
    }

    /** Each transaction's fate, in number order: "T1 committed, T2 aborted, ...". */
    String fates() {
        List<String> fates = new ArrayList<>();
        for (Txn x : txns.values()) {
            String fate = x.t.isCommitted() ? "committed" : x.conflict != null ? "aborted" : x.rolledBack ? "rolled back" : "never finished";
            fates.add("T" + x.number + " " + fate);
        }
        return String.join(", ", fates);
    }

    /** Row -> value the transaction wrote (null: deleted), whether or not it committed. */
    Map<Integer, Long> wrote(int n) {
        return txns.get(n).writes;
    }

    /**
     * Null if every committed transaction read exactly its begin snapshot (the writes of the
     * transactions that committed before it began, in commit order) with its own writes on top;
     * otherwise the first read no such snapshot explains.
     */
    String inconsistentReads() {
        for (Txn x : txns.values()) {
            if (!x.t.isCommitted()) {
                continue;
            }
            Map<Integer, Long> snapshot = stateAfter(commitOrder.stream().filter(c -> c.commitStep < x.beginStep).toList());
            for (Observation o : x.observations) {
                if (!o.holdsIn.test(overlay(snapshot, o.ownWrites))) {
                    return "T" + x.number + " " + o.what + ", but its begin snapshot is " + snapshot;
                }
            }
        }
        return null;
    }

    /**
     * Whether each read of T{n} is explained by the state after some prefix of the commit order,
     * with prefixes that never shrink: once it saw a transaction's effect, it never loses it.
     */
    boolean readsMonotonic(int n) {
        int prefix = 0;
        next:
        for (Observation o : txns.get(n).observations) {
            for (int k = prefix; k <= commitOrder.size(); k++) {
                if (o.holdsIn.test(overlay(stateAfter(commitOrder.subList(0, k)), o.ownWrites))) {
                    prefix = k;
                    continue next;
                }
            }
            return false;
        }
        return true;
    }

    /** The state the committed transactions must leave: their writes on the start state, in commit order. */
    Map<Integer, Long> expectedFinalState() {
        return stateAfter(commitOrder);
    }

    /**
     * The table as a fresh serializable transaction sees it (after a GC pass on every node, when GC
     * runs). Every row vertex must carry both properties: a vertex without them is half of a
     * transaction. Across nodes, a fresh transaction begun on each node must see the same table.
     */
    Map<Integer, Long> finalState() throws InterruptedException {
        for (TransactionEngine engine : engines) {
            if (engine.config().gcEnabled()) {
                engine.gc().runOnce();
            }
        }
        Map<Integer, Long> first = null;
        for (int node = 0; node < engines.length; node++) {
            Map<Integer, Long> rows = tableAsSeenFrom(node);
            if (first == null) {
                first = rows;
            } else if (!rows.equals(first)) {
                throw new AssertionError("a fresh transaction on node " + node + " sees " + rows + ", one on node 0 sees " + first);
            }
        }
        return first;
    }

    private Map<Integer, Long> tableAsSeenFrom(int node) {
        Names n = names(node);
        Transaction t = engines[node].begin(Isolation.SERIALIZABLE);
        Map<Integer, Long> rows = new TreeMap<>();
        for (long v : t.vertices(n.label)) {
            Map<Integer, Object> properties = t.vertexProperties(v);
            int row = (int) asLong(properties.get(n.idKey), "id of vertex " + v + " " + properties);
            Long previous = rows.put(row, asLong(properties.get(n.valueKey), "value of row " + row + " " + properties));
            if (previous != null) {
                throw new AssertionError("two visible vertices for row " + row);
            }
        }
        t.commit();
        return rows;
    }

    /** Each transaction's fate, writes and reads, for failure messages. */
    String describe() {
        StringBuilder b = new StringBuilder(isolation.toString());
        boolean cluster = engines.length > 1;
        if (cluster) {
            b.append(", ").append(placement);
        }
        for (Txn x : txns.values()) {
            b.append("\n  T").append(x.number).append(cluster ? "@" + placement.coordinatorOf(x.number) : "").append(": ");
            if (x.t.isCommitted()) {
                b.append("committed (#").append(commitOrder.indexOf(x) + 1).append(')');
            } else if (x.conflict != null) {
                b.append("aborted, ").append(x.conflict.kind());
            } else {
                b.append(x.rolledBack ? "rolled back" : "never finished");
            }
            b.append("; wrote ").append(x.writes).append("; ");
            x.observations.forEach(o -> b.append(o.what).append("; "));
        }
        return b.toString();
    }

    @Override
    public void close() {
        if (racers != null) {
            racers.shutdownNow(); // first: no racing commit may still be using a transaction
        }
        txns.values().forEach(x -> x.t.rollback());
    }

    // ---------------------------------------------------------------- helpers

    /** The table's ids in {@code node}'s dictionaries, interned there on first use. */
    private Names names(int node) {
        if (names[node] == null) {
            names[node] = Names.of(engines[node]);
        }
        return names[node];
    }

    /** The transaction, or null if a conflict aborted it (its remaining steps are skipped). */
    private Txn live(int n) {
        Txn x = txns.get(n);
        if (x == null) {
            throw new IllegalArgumentException("T" + n + " has not begun");
        }
        return x.conflict == null ? x : null;
    }

    /** Runs a step of T{n}; null if it was skipped, or met a conflict (which is recorded). */
    private <T> T step(int n, Function<Txn, T> operation) {
        Txn x = live(n);
        if (x == null) {
            return null;
        }
        try {
            return operation.apply(x);
        } catch (TransactionConflictException e) {
            x.conflict = e;
            return null;
        }
    }

    private Txn write(Txn x, int row, long vertex, long value) {
        x.t.setVertexProperty(vertex, x.names.valueKey, value);
        x.writes.put(row, value);
        return x;
    }

    private List<Row> scanRows(Txn x, Where where) {
        List<Row> rows = new ArrayList<>();
        for (long v : x.t.vertices(x.names.label)) {
            int id = (int) asLong(x.t.vertexProperty(v, x.names.idKey), "id of vertex " + v);
            long value = asLong(x.t.vertexProperty(v, x.names.valueKey), "value of row " + id);
            if (where.test.test(value)) {
                rows.add(new Row(id, v, value));
            }
        }
        Map<Integer, Long> result = values(rows);
        observe(x, "scanned where " + where + " -> " + result, state -> result.equals(values(state, where)));
        return rows;
    }

    private void observe(Txn x, String what, Predicate<Map<Integer, Long>> holdsIn) {
        x.observations.add(new Observation(what, new LinkedHashMap<>(x.writes), holdsIn));
    }

    private static Map<Integer, Long> values(List<Row> rows) {
        Map<Integer, Long> result = new TreeMap<>();
        rows.forEach(r -> result.put(r.id, r.value));
        return result;
    }

    private static Map<Integer, Long> values(Map<Integer, Long> state, Where where) {
        Map<Integer, Long> result = new TreeMap<>();
        state.forEach((id, value) -> {
            if (where.test.test(value)) {
                result.put(id, value);
            }
        });
        return result;
    }

    private static Map<Integer, Long> stateAfter(List<Txn> committed) {
        Map<Integer, Long> state = START;
        for (Txn x : committed) {
            state = overlay(state, x.writes);
        }
        return new TreeMap<>(state);
    }

    /** {@code state} with {@code writes} applied (a null value deletes the row). */
    private static Map<Integer, Long> overlay(Map<Integer, Long> state, Map<Integer, Long> writes) {
        Map<Integer, Long> result = new TreeMap<>(state);
        writes.forEach((row, value) -> {
            if (value == null) {
                result.remove(row);
            } else {
                result.put(row, value);
            }
        });
        return result;
    }

    private static long asLong(Object value, String what) {
        if (!(value instanceof Number)) {
            throw new AssertionError(what + " is not a number: " + value);
        }
        return ((Number) value).longValue();
    }
}
