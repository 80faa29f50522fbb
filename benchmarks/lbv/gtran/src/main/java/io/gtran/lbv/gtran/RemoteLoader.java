package io.gtran.lbv.gtran;

import io.gtran.lbv.Dataset;
import io.gtran.lbv.GraphSink;
import io.gtran.lbv.LoadProgress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongToIntFunction;
import java.util.function.LongUnaryOperator;
import java.util.function.Predicate;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads a dataset into gtran server processes through gremlin-driver, for a cluster whose graph
 * no embedded loader can reach: batches of {@code batch} vertices, then of edges, each one
 * sessionless bytecode request calling gtran's bulk service ({@code g.call("gtran.bulk.edges",
 * [rows: [...]])}, the rows maps sent as GraphBinary; no script for the server to compile), so each
 * batch is one request and one transaction, committed by the server. Every
 * element gets its dataset id as its user-supplied id ({@code ids}: {@link
 * GtranProcessClusterLbvSystem} maps dataset ids to negative numbers, see there), which places it
 * on a member (a hash of the id, {@code homes}).
 *
 * <p><b>Batches per owner.</b> Rows are gathered per node: a vertex on the node that keeps it, an
 * edge on the node of its out-vertex, where the edge lives. Each batch goes to that node, so its
 * vertices and edges are created there without a message to another member; only an edge's
 * in-vertex on another node (its look-up and the edge's mirror) and the claim of the edge's id at
 * the id's home cross (docs: "Placement and user-supplied ids"), and {@code GtranBulk} sends those
 * as one request per other node and kind for the whole batch (docs: "Execution", batched writes).
 * Sent to any other node, a batch would be a transaction over every member. {@value #IN_FLIGHT_PER_NODE} batches are in flight per node; a batch that
 * aborts on a conflict (rolled back whole by the server) is sent again, up to {@value
 * #MAX_ATTEMPTS} times. All vertices are committed before the first edge batch is sent.
 */
final class RemoteLoader implements GraphSink {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteLoader.class);
    static final int IN_FLIGHT_PER_NODE = 2;
    static final int MAX_ATTEMPTS = 20;
    /** The bulk services (gtran-core's {@code BulkServices}) each batch calls, by bytecode: no script to compile. */
    static final String VERTICES = "gtran.bulk.vertices";
    static final String EDGES = "gtran.bulk.edges";

    private final List<Client> clients;
    /** A traversal source over each client, for {@code call()}. */
    private final List<GraphTraversalSource> sources = new ArrayList<>();
    private final int batch;
    private final LoadProgress progress;
    private final Predicate<Throwable> retryable;
    private final LongUnaryOperator vertexIds;
    private final LongUnaryOperator edgeIds;
    private final LongToIntFunction homes;
    private final ExecutorService senders;
    private final Semaphore inFlight;
    private final List<Future<?>> sent = new ArrayList<>();
    private final AtomicLong vertices = new AtomicLong();
    private final AtomicLong edges = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    /** Rows gathered per node, not sent yet. */
    private final List<List<Map<String, Object>>> rows = new ArrayList<>();
    private boolean edgePhase;
    /** When the last vertex batch was committed (the edges start then), System.nanoTime. */
    private long verticesDone;

    /**
     * @param clients one per node, in node order
     * @param homes   the node (an index into {@code clients}) keeping the vertex of a system id
     */
    RemoteLoader(List<Client> clients, int batch, LoadProgress progress, Predicate<Throwable> retryable,
                 LongUnaryOperator vertexIds, LongUnaryOperator edgeIds, LongToIntFunction homes) {
        this.vertexIds = vertexIds;
        this.edgeIds = edgeIds;
        this.homes = homes;
        this.clients = List.copyOf(clients);
        for (Client client : clients) {
            rows.add(new ArrayList<>());
            sources.add(AnonymousTraversalSource.traversal().with(DriverRemoteConnection.using(client, "g")));
        }
        this.batch = batch;
        this.progress = progress;
        this.retryable = retryable;
        int threads = IN_FLIGHT_PER_NODE * clients.size();
        this.senders = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "lbv-remote-loader");
            t.setDaemon(true);
            return t;
        });
        this.inFlight = new Semaphore(threads);
    }

    /** Loads {@code dataset}; throws if a batch failed for good. */
    void load(Dataset dataset) {
        long start = System.nanoTime();
        verticesDone = start;
        try {
            dataset.generate(this);
            flush();
            awaitSent();
        } finally {
            senders.shutdownNow();
        }
        long end = System.nanoTime();
        double seconds = (end - start) / 1e9;
        LOG.info(String.format(Locale.ROOT, "LBV_REMOTE_LOAD nodes=%d vertices=%d edges=%d batch=%d seconds=%.1f"
                        + " vertex_seconds=%.1f edge_seconds=%.1f elements_per_second=%.0f retried_batches=%d", clients.size(),
                vertices.get(), edges.get(), batch, seconds, (verticesDone - start) / 1e9, (end - verticesDone) / 1e9,
                (vertices.get() + edges.get()) / Math.max(seconds, 1e-9), retries.get()));
    }

    @Override
    public void vertex(long id, String label, Map<String, Object> properties) {
        if (edgePhase) {
            throw new IllegalStateException("dataset emitted a vertex after edges: id=" + id);
        }
        long systemId = vertexIds.applyAsLong(id);
        add(home(systemId), Map.of("id", systemId, "label", label, "properties", properties));
    }

    @Override
    public void edge(long id, long outId, long inId, String label, Map<String, Object> properties) {
        if (!edgePhase) {
            flush();
            awaitSent(); // every vertex is committed before an edge names it
            edgePhase = true;
            verticesDone = System.nanoTime();
        }
        long out = vertexIds.applyAsLong(outId);
        add(home(out), Map.of("id", edgeIds.applyAsLong(id), "out", out, "in", vertexIds.applyAsLong(inId), "label", label,
                "properties", properties));
    }

    private int home(long systemId) {
        int node = homes.applyAsInt(systemId);
        if (node < 0 || node >= clients.size()) {
            throw new IllegalStateException("id " + systemId + " placed on node " + node + " of " + clients.size());
        }
        return node;
    }

    private void add(int node, Map<String, Object> row) {
        List<Map<String, Object>> gathered = rows.get(node);
        gathered.add(row);
        if (gathered.size() >= batch) {
            flush(node);
        }
    }

    /** Sends every node's rows gathered so far. */
    private void flush() {
        for (int node = 0; node < clients.size(); node++) {
            flush(node);
        }
    }

    /** Sends the rows gathered for {@code node} as one batch to it, waiting while every sender is busy. */
    private void flush(int node) {
        List<Map<String, Object>> batchRows = rows.get(node);
        if (batchRows.isEmpty()) {
            return;
        }
        rows.set(node, new ArrayList<>());
        boolean areEdges = edgePhase;
        try {
            inFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading", e);
        }
        sent.add(senders.submit(() -> {
            try {
                send(node, areEdges, batchRows);
            } finally {
                inFlight.release();
            }
            return null;
        }));
        for (java.util.Iterator<Future<?>> it = sent.iterator(); it.hasNext(); ) {
            Future<?> f = it.next();
            if (f.isDone()) {
                outcome(f); // a batch that failed for good stops the load here
                it.remove();
            }
        }
    }

    /** One batch to {@code node}, sent again after a conflict. */
    private void send(int node, boolean areEdges, List<Map<String, Object>> batchRows) throws Exception {
        GraphTraversalSource g = sources.get(node);
        for (int attempt = 1; ; attempt++) {
            try {
                g.call(areEdges ? EDGES : VERTICES, Map.of("rows", batchRows)).promise(t -> t.toList()).get(300, TimeUnit.SECONDS);
                long v = areEdges ? vertices.get() : vertices.addAndGet(batchRows.size());
                long e = areEdges ? edges.addAndGet(batchRows.size()) : edges.get();
                progress.loaded(v, e);
                return;
            } catch (ExecutionException | RuntimeException failure) {
                if (!retryable.test(failure) || attempt >= MAX_ATTEMPTS) {
                    throw new IllegalStateException("loading a batch of " + batchRows.size() + (areEdges ? " edges" : " vertices")
                            + " failed after " + attempt + " attempt(s): " + failure.getMessage(), failure);
                }
                retries.incrementAndGet();
                Thread.sleep(1 + ThreadLocalRandom.current().nextInt(10 * attempt));
            }
        }
    }

    /** Waits for every batch sent so far; rethrows the first failure. */
    private void awaitSent() {
        try {
            inFlight.acquire(IN_FLIGHT_PER_NODE * clients.size()); // every sender idle: every batch ended
            inFlight.release(IN_FLIGHT_PER_NODE * clients.size());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading", e);
        }
        for (Future<?> f : sent) {
            outcome(f);
        }
        sent.clear();
    }

    /** Returns if the ended batch {@code f} was loaded; rethrows why it was not. */
    private static void outcome(Future<?> f) {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }
}
