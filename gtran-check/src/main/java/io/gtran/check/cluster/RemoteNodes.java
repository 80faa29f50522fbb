package io.gtran.check.cluster;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;

import io.gtran.storage.ElementIds;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Transaction;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;

/**
 * One gremlin-driver {@link Cluster} (GraphBinary) per node of the hosts file, and remote
 * transactions on them with a bounded wait: a transaction runs on a daemon thread and is given up
 * after the call timeout, so a paused node cannot hang the check (the thread left behind is
 * abandoned; its session dies with its connection).
 */
final class RemoteNodes implements AutoCloseable {
    /** How a remote transaction ended, as the client can tell. */
    enum Outcome {
        /** The commit was acknowledged. */
        OK,
        /** Definitely not committed: the server said conflict/abort, or the commit was never sent. */
        FAIL,
        /** Unknown: the commit was sent and no answer came (timeout, connection lost). */
        INFO
    }

    /** An attempt's outcome; {@code nodeDown} when the failure looked like the node, not the data. */
    record Attempt<T>(Outcome outcome, T value, boolean nodeDown, String error) {
        boolean ok() {
            return outcome == Outcome.OK;
        }
    }

    private final List<Host> hosts;
    private final List<Cluster> clusters = new ArrayList<>();
    private final List<GraphTraversalSource> sources = new ArrayList<>();
    private final long timeoutMillis;
    private final ExecutorService calls = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "cluster-check-call");
        t.setDaemon(true);
        return t;
    });

    RemoteNodes(List<Host> hosts, String graphSource, long timeoutMillis) {
        this.hosts = List.copyOf(hosts);
        this.timeoutMillis = timeoutMillis;
        int setup = (int) Math.min(timeoutMillis, 5_000);
        for (Host h : hosts) {
            Cluster c = Cluster.build(h.host()).port(h.gremlinPort()).serializer(Serializers.GRAPHBINARY_V1.simpleInstance())
                    .maxWaitForConnection(setup).connectionSetupTimeoutMillis(setup).create();
            clusters.add(c);
            sources.add(traversal().with(DriverRemoteConnection.using(c, graphSource)));
        }
    }

    int size() {
        return hosts.size();
    }

    Host host(int index) {
        return hosts.get(index);
    }

    /** The index in the hosts file of the node with storage id {@code nodeId}, or -1. */
    int indexOf(int nodeId) {
        for (int i = 0; i < hosts.size(); i++) {
            if (hosts.get(i).id() == nodeId) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Runs {@code body} in a remote transaction on node {@code index} and commits it, within the
     * call timeout. The body's own records are the caller's; this only classifies the ending.
     */
    <T> Attempt<T> transaction(int index, Function<GraphTraversalSource, T> body) {
        // RUNNING, then COMMIT_SENT (the worker is committing) or ABANDONED (the caller gave up first): one wins.
        AtomicInteger state = new AtomicInteger(RUNNING);
        Future<T> future = calls.submit(() -> {
            Transaction tx = sources.get(index).tx();
            GraphTraversalSource gtx = tx.begin();
            try {
                T value = body.apply(gtx);
                if (!state.compareAndSet(RUNNING, COMMIT_SENT)) {
                    throw new IllegalStateException("abandoned by the check before its commit"); // rolled back below
                }
                tx.commit();
                return value;
            } catch (RuntimeException e) {
                if (state.get() != COMMIT_SENT && tx.isOpen()) {
                    rollbackQuietly(tx);
                }
                throw e;
            }
        });
        try {
            return new Attempt<>(Outcome.OK, future.get(timeoutMillis, TimeUnit.MILLISECONDS), false, null);
        } catch (TimeoutException e) {
            future.cancel(true);
            return new Attempt<>(abandon(state), null, true, "no answer within " + timeoutMillis + " ms");
        } catch (ExecutionException e) {
            return classify(e.getCause(), state.get() == COMMIT_SENT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            return new Attempt<>(abandon(state), null, false, "interrupted");
        }
    }

    private static final int RUNNING = 0;
    private static final int COMMIT_SENT = 1;
    private static final int ABANDONED = 2;

    /** FAIL if the worker had not sent its commit (it never will now), INFO if it had: the outcome is unknown. */
    private static Outcome abandon(AtomicInteger state) {
        return state.compareAndSet(RUNNING, ABANDONED) ? Outcome.FAIL : Outcome.INFO;
    }

    /**
     * Creates {@code count} vertices labelled {@code label} with {@code key} = {@code value} through
     * node 0 in one transaction, and returns their ids; a workload's set-up.
     *
     * @throws IllegalStateException if the transaction did not commit
     */
    long[] createKeys(int count, String label, String key, Object value) {
        Attempt<long[]> a = transaction(0, gtx -> {
            long[] made = new long[count];
            for (int k = 0; k < count; k++) {
                made[k] = ((Number) gtx.addV(label).property(key, value).id().next()).longValue();
            }
            return made;
        });
        if (!a.ok()) {
            throw new IllegalStateException("setup through node 0 did not commit (" + a.outcome() + "): " + a.error());
        }
        return a.value();
    }

    /** The storage id of each vertex's owner: the node field of its id. */
    static int[] owners(long[] ids) {
        int[] owners = new int[ids.length];
        for (int k = 0; k < ids.length; k++) {
            owners[k] = ElementIds.node(ids[k]);
        }
        return owners;
    }

    /**
     * {@link #transaction} again and again (a conflict, a lock still held) until one commits or
     * {@code boundMillis} pass; {@code each} sees every attempt. Returns the last attempt.
     */
    <T> Attempt<T> retry(int index, long boundMillis, Function<GraphTraversalSource, T> body, Consumer<Attempt<T>> each) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(boundMillis);
        while (true) {
            Attempt<T> a = transaction(index, body);
            each.accept(a);
            if (a.ok() || System.nanoTime() - deadline > 0) {
                return a;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return a;
            }
        }
    }

    /** Whether node {@code index} answers a trivial sessionless request within the call timeout. */
    boolean answers(int index) {
        Future<Object> f = calls.submit(() -> sources.get(index).inject(1).next());
        try {
            f.get(timeoutMillis, TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            f.cancel(true);
            return false;
        }
    }

    private static <T> Attempt<T> classify(Throwable error, boolean commitSent) {
        ResponseException response = null;
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof ResponseException r) {
                response = r;
                break;
            }
        }
        String message = String.valueOf(error);
        if (response != null) {
            // A 596 is gtran's transaction abort (a conflict, or a lost participant): definitely not committed.
            boolean aborted = response.getResponseStatusCode() == ResponseStatusCode.SERVER_ERROR_TEMPORARY
                    // GtranTransaction's "commit failed, transaction rolled back": the server rolled it back.
                    || String.valueOf(response.getMessage()).contains("transaction rolled back");
            // Any other server error before the commit was sent: the session's transaction never committed.
            return new Attempt<>(aborted || !commitSent ? Outcome.FAIL : Outcome.INFO, null, false, response.getMessage());
        }
        // No server answer: the connection (refused, closed, no host). Before commit: never sent.
        return new Attempt<>(commitSent ? Outcome.INFO : Outcome.FAIL, null, true, message);
    }

    private static void rollbackQuietly(Transaction tx) {
        try {
            tx.rollback();
        } catch (RuntimeException ignored) {
            // the session is gone with its connection; the server rolls the transaction back
        }
    }

    @Override
    public void close() {
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (Cluster c : clusters) {
            closing.add(c.closeAsync());
        }
        try {
            CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // a node that does not answer the close is left behind; the JVM exits anyway
        }
        calls.shutdownNow();
    }
}
