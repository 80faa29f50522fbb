package io.gtran.bench.gc;

import io.gtran.txn.GtranNode;
import io.gtran.txn.Transaction;
import io.gtran.txn.TransactionEngine;
import io.gtran.txn.common.ElementNotFoundException;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * The GC benchmark's graph and workload on one node. {@link #load} commits a small graph in
 * batches: vertices with three properties each (a long counter, a double, a short string) and
 * random edges between them. {@link #runWorker} then runs SERIALIZABLE update transactions until
 * told to stop; each reads and rewrites 1-3 random properties of random vertices and, in
 * {@link #CHURN_PERCENT} of them, also adds a random edge and removes a random live one, so that
 * superseded versions, dead edges and (from natural conflicts) aborted versions all keep coming.
 * Conflicts are counted, never retried.
 */
final class UpdateLoad {
    static final int CHURN_PERCENT = 10;
    private static final int VERTEX_BATCH = 1_000;
    private static final int EDGE_BATCH = 3_000;

    private final TransactionEngine engine;
    private final int vertexLabel;
    private final int edgeLabel;
    private final int count;
    private final int score;
    private final int tag;
    private final long[] vertices;
    /** The edges the workload may remove: a churn transaction swaps one slot's edge for its new edge. */
    private final AtomicLongArray edges;

    final LongAdder commits = new LongAdder();
    final LongAdder conflicts = new LongAdder();
    /** Transactions that found their chosen edge already gone from their snapshot; rolled back. */
    final LongAdder staleEdges = new LongAdder();

    UpdateLoad(GtranNode node, int vertexCount, int edgeCount) {
        this.engine = node.engine();
        this.vertexLabel = node.store().labels().intern("item");
        this.edgeLabel = node.store().labels().intern("link");
        this.count = node.store().propertyKeys().intern("count");
        this.score = node.store().propertyKeys().intern("score");
        this.tag = node.store().propertyKeys().intern("tag");
        this.vertices = new long[vertexCount];
        this.edges = new AtomicLongArray(edgeCount);
    }

    /** Commits the vertices (with their properties) and edges, in batches; single-threaded. */
    void load(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int from = 0; from < vertices.length; from += VERTEX_BATCH) {
            Transaction t = engine.begin(Isolation.SERIALIZABLE);
            for (int i = from; i < Math.min(vertices.length, from + VERTEX_BATCH); i++) {
                long v = t.addVertex(vertexLabel);
                t.setVertexProperty(v, count, 0L);
                t.setVertexProperty(v, score, random.nextDouble());
                t.setVertexProperty(v, tag, "tag-" + i);
                vertices[i] = v;
            }
            t.commit();
        }
        for (int from = 0; from < edges.length(); from += EDGE_BATCH) {
            Transaction t = engine.begin(Isolation.SERIALIZABLE);
            for (int i = from; i < Math.min(edges.length(), from + EDGE_BATCH); i++) {
                int out = random.nextInt(vertices.length);
                edges.set(i, t.addEdge(vertices[out], vertices[other(random, out)], edgeLabel));
            }
            t.commit();
        }
    }

    /** Runs update transactions until {@code stop} says so. Only unexpected failures escape. */
    void runWorker(long seed, BooleanSupplier stop) {
        SplittableRandom random = new SplittableRandom(seed);
        long n = 0;
        while (!stop.getAsBoolean()) {
            Transaction t = engine.begin(Isolation.SERIALIZABLE);
            int slot = -1;
            long removed = 0;
            long added = 0;
            try {
                int updates = 1 + random.nextInt(3);
                for (int i = 0; i < updates; i++) {
                    update(t, vertices[random.nextInt(vertices.length)], random.nextInt(3), random, n);
                }
                if (random.nextInt(100) < CHURN_PERCENT) {
                    slot = random.nextInt(edges.length());
                    removed = edges.get(slot);
                    int out = random.nextInt(vertices.length);
                    added = t.addEdge(vertices[out], vertices[other(random, out)], edgeLabel);
                    t.removeEdge(removed);
                }
                t.commit();
                commits.increment();
                if (slot >= 0) {
                    // A racing churn of the same slot would have conflicted with ours, so this holds.
                    edges.compareAndSet(slot, removed, added);
                }
            } catch (TransactionConflictException e) {
                conflicts.increment(); // already aborted by the engine; not retried
            } catch (ElementNotFoundException e) {
                staleEdges.increment(); // the slot's edge was swapped out after we began; see rollback below
            } finally {
                if (t.isActive()) {
                    t.rollback();
                }
            }
            n++;
        }
    }

    /** Reads one property and writes a new value derived from it (a read-modify-write). */
    private void update(Transaction t, long v, int which, SplittableRandom random, long n) {
        switch (which) {
            case 0 -> {
                Object old = t.vertexProperty(v, count);
                t.setVertexProperty(v, count, (old == null ? 0L : (Long) old) + 1);
            }
            case 1 -> {
                Object old = t.vertexProperty(v, score);
                t.setVertexProperty(v, score, (old == null ? 0.0 : (Double) old) * 0.5 + random.nextDouble());
            }
            default -> {
                t.vertexProperty(v, tag);
                t.setVertexProperty(v, tag, "tag-" + n);
            }
        }
    }

    private int other(SplittableRandom random, int out) {
        int in = random.nextInt(vertices.length - 1);
        return in >= out ? in + 1 : in; // no self-loops
    }
}
