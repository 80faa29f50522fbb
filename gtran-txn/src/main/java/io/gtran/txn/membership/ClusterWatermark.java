package io.gtran.txn.membership;

import static io.gtran.txn.membership.TimestampBufferDescriptor.OLDEST_BEGIN_OFFSET;

import io.gtran.rdma.Batch;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Region;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GC watermark across a cluster's members (G-Tran §5; invariant I6 of
 * docs/cluster-transactions.md). Each node publishes the oldest begin time of its running
 * transactions in its timestamp buffer ({@link TimestampBufferDescriptor}, one word in a
 * registered region); the cluster's watermark is the smallest word over every member, the other
 * members' read one-sidedly in one {@link Batch}.
 *
 * <p>A published word stays a lower bound of its node's begin times from the moment it is
 * computed on (later transactions there begin above it), so a stale read is safe, and a read that
 * fails keeps the member's last value:
 * <ul>
 *   <li>a member never read yet (not started, its buffer not registered, unreachable) counts as 0,
 *       {@link TimestampBufferDescriptor#UNPUBLISHED}: nothing is collected until every member has
 *       been read once (and has published once);
 *   <li>a member whose read fails holds the watermark at its last value read, and is read again at
 *       the next pass;
 *   <li>a member reported lost ({@link #lost}, told by the node's member view) is not read again: it holds
 *       the watermark at its last value until it rejoins ({@link #rejoined}), for good if it never does.
 * </ul>
 */
public final class ClusterWatermark {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterWatermark.class);

    private final Fabric fabric;
    private final Region local;
    private final int[] others;
    private final Membership members;
    // Guarded by this.
    private final Region[] handles;
    private final long[] last;
    /** Members reported lost; written by the fabric's listener thread, which must not block on this. */
    private final Set<Integer> lost = ConcurrentHashMap.newKeySet();
    /** The smallest of {@link #last}: Long.MAX_VALUE with no other member. */
    private volatile long othersMin;

    public ClusterWatermark(Fabric fabric, Membership members) {
        if (members.self() != fabric.localNode()) {
            throw new IllegalArgumentException("membership of another node: self=" + members.self() + " fabric node="
                    + fabric.localNode());
        }
        this.fabric = fabric;
        this.local = fabric.register(TimestampBufferDescriptor.REGION_NAME, TimestampBufferDescriptor.LENGTH);
        List<Integer> otherNodes = members.others();
        this.others = otherNodes.stream().mapToInt(Integer::intValue).toArray();
        this.handles = new Region[others.length];
        this.last = new long[others.length];
        java.util.Arrays.fill(last, TimestampBufferDescriptor.UNPUBLISHED);
        this.othersMin = others.length == 0 ? Long.MAX_VALUE : TimestampBufferDescriptor.UNPUBLISHED;
        this.members = members;
    }

    /** Member {@code node} was reported lost: it is not read again until it {@link #rejoined rejoins}. */
    public void lost(int node, String reason) {
        if (members.contains(node) && node != members.self() && lost.add(node)) {
            LOG.warn("node {}: member {} lost ({}); the GC watermark stays at or below its last published begin time",
                    fabric.localNode(), node, reason);
        }
    }

    /** Publishes this node's oldest begin time (or a lower bound of it) for the other members. */
    public void publish(long oldestBegin) {
        local.writeLong(OLDEST_BEGIN_OFFSET, oldestBegin);
    }

    /** What this node published last ({@link TimestampBufferDescriptor#UNPUBLISHED} before the first). */
    public long published() {
        return local.readLong(OLDEST_BEGIN_OFFSET);
    }

    /**
     * Reads every other member's word that is not lost, in one batch, and returns the smallest last
     * value over the other members ({@code Long.MAX_VALUE} if there are none).
     */
    public synchronized long readOthers() {
        if (others.length == 0) {
            return Long.MAX_VALUE;
        }
        Batch batch = fabric.batch();
        @SuppressWarnings("unchecked")
        CompletableFuture<Long>[] reads = new CompletableFuture[others.length];
        for (int i = 0; i < others.length; i++) {
            Region region = lost.contains(others[i]) ? null : handle(i);
            if (region != null) {
                reads[i] = batch.readLong(region, OLDEST_BEGIN_OFFSET);
            }
        }
        if (batch.size() > 0) {
            try {
                batch.flushAndWait();
            } catch (RuntimeException e) {
                // the futures say which reads failed: those members keep their last value
                LOG.debug("node {}: a read of a timestamp buffer failed", fabric.localNode(), e);
            }
        }
        long min = Long.MAX_VALUE;
        for (int i = 0; i < others.length; i++) {
            CompletableFuture<Long> read = reads[i];
            if (read != null && read.isDone() && !read.isCompletedExceptionally()) {
                last[i] = read.join();
            }
            min = Math.min(min, last[i]);
        }
        othersMin = min;
        return min;
    }

    /** The smallest last value read over the other members, without reading ({@code Long.MAX_VALUE} if there are none). */
    public long othersMin() {
        return othersMin;
    }

    /** The last value read of member {@code node}'s word. */
    public synchronized long lastRead(int node) {
        for (int i = 0; i < others.length; i++) {
            if (others[i] == node) {
                return last[i];
            }
        }
        throw new IllegalArgumentException("not another member: node=" + node);
    }

    /**
     * Member {@code node}, lost, was re-admitted (the same process, docs/cluster-transactions.md):
     * it is read again from the next pass. Its word is still a lower bound of its begin times.
     */
    public void rejoined(int node) {
        if (lost.remove(node)) {
            LOG.info("node {}: member {} rejoined; its GC watermark word is read again", fabric.localNode(), node);
        }
    }

    /** Whether member {@code node} was reported lost. */
    public boolean isLost(int node) {
        return lost.contains(node);
    }

    /** Member {@code others[i]}'s timestamp buffer, connected on first use; null while it cannot be. */
    private Region handle(int i) {
        if (handles[i] == null) {
            try {
                handles[i] = fabric.connect(others[i], TimestampBufferDescriptor.REGION_NAME);
            } catch (RuntimeException notThereYet) { // not started, not registered yet, or unreachable
                LOG.debug("node {}: no timestamp buffer of member {} yet", fabric.localNode(), others[i], notThereYet);
            }
        }
        return handles[i];
    }
}
