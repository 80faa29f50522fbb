package io.gtran.rdma.disni;

import io.gtran.rdma.Batch;
import io.gtran.rdma.Region;
import io.gtran.rdma.RegionAccessException;
import io.gtran.rdma.spi.FabricChecks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A {@link Batch} over RDMA: at {@link #flush} the operations on each connection go out as chains of
 * work requests (up to {@link Connection#MAX_CHAIN} each, only the last signalled), all connections
 * at once, fenced where a write could pass an earlier read or atomic ({@link SendFlags}). A long write
 * is an 8-byte RDMA WRITE in the chain where the device's atomics are global; elsewhere it is a
 * compare-and-swap loop (see {@link DisniRegion}), which cannot sit in a chain, so it splits its
 * connection's operations: the chain before it completes, then the loop, then the next chain. Each connection's segments run in the order added; if one fails, the later
 * operations on that connection fail too, naming the first failure, so none is applied out of order.
 * A {@link #fence} marks the first operation on each connection after it, which then carries
 * {@code IBV_SEND_FENCE} if a READ or atomic may be outstanding before it ({@link SendFlags}).
 */
final class DisniBatch implements Batch {
    private final DisniFabric fabric;
    private final List<Step> steps = new ArrayList<>();
    private int fences; // fences added since the last flush: each step notes how many came before it

    DisniBatch(DisniFabric fabric) {
        this.fabric = fabric;
    }

    @Override
    public CompletableFuture<Long> readLong(Region region, long offset) {
        DisniRegion handle = own(region);
        FabricChecks.checkLongOffset(handle, offset);
        return add(new RegionOp.ReadLong(handle, offset));
    }

    @Override
    public CompletableFuture<Void> writeLong(Region region, long offset, long value) {
        DisniRegion handle = own(region);
        FabricChecks.checkLongOffset(handle, offset);
        if (fabric.plainLongWrites()) {
            return add(new RegionOp.WriteLong(handle, offset, value));
        }
        Step step = new Step(handle, null, offset, value, new CompletableFuture<>(), false, fences);
        steps.add(step);
        return step.written;
    }

    @Override
    public CompletableFuture<Boolean> compareAndSwap(Region region, long offset, long expected, long value) {
        DisniRegion handle = own(region);
        FabricChecks.checkLongOffset(handle, offset);
        return add(new RegionOp.CompareAndSwap(handle, offset, expected, value)).thenApply(found -> found == expected);
    }

    @Override
    public CompletableFuture<Long> fetchAdd(Region region, long offset, long delta) {
        DisniRegion handle = own(region);
        FabricChecks.checkLongOffset(handle, offset);
        return add(new RegionOp.FetchAdd(handle, offset, delta));
    }

    @Override
    public CompletableFuture<byte[]> read(Region region, long offset, int length) {
        DisniRegion handle = own(region);
        FabricChecks.checkTransferLength(handle, offset, length);
        if (length == 0) {
            return noop(handle, offset).thenApply(ignored -> new byte[0]);
        }
        return add(new RegionOp.Read(handle, offset, length));
    }

    @Override
    public CompletableFuture<Void> write(Region region, long offset, byte[] src, int srcOffset, int length) {
        DisniRegion handle = own(region);
        FabricChecks.checkRange(handle, offset, src, srcOffset, length);
        if (length == 0) {
            return noop(handle, offset);
        }
        return add(new RegionOp.Write(handle, offset, src, srcOffset, length));
    }

    @Override
    public Batch fence() {
        fabric.checkOpen();
        fences++;
        return this;
    }

    @Override
    public int size() {
        return steps.size();
    }

    @Override
    public CompletableFuture<Void> flush() {
        fabric.checkOpen();
        List<Step> issuing = new ArrayList<>(steps);
        steps.clear();
        fences = 0;
        Map<Connection, List<Step>> byConnection = new LinkedHashMap<>();
        CompletableFuture<?>[] all = new CompletableFuture<?>[issuing.size()];
        for (int i = 0; i < all.length; i++) {
            Step step = issuing.get(i);
            all[i] = step.future();
            try {
                Connection connection = step.region.connection();
                if (step.noop) {
                    step.written.complete(null); // an empty transfer changes nothing: done once the node is reachable
                } else {
                    byConnection.computeIfAbsent(connection, c -> new ArrayList<>()).add(step);
                }
            } catch (RegionAccessException e) {
                step.fail(e);
            }
        }
        byConnection.forEach((connection, list) -> {
            markFences(list);
            runFrom(connection, list, 0);
        });
        return CompletableFuture.allOf(all);
    }

    @Override
    public void flushAndWait() {
        FabricThreads.checkMayBlock("batch of " + steps.size() + " operations: node=" + steps.stream()
                .map(step -> String.valueOf(step.region.node())).distinct().collect(java.util.stream.Collectors.joining(",")));
        FabricChecks.awaitFlush(flush());
    }

    private void runFrom(Connection connection, List<Step> list, int from) {
        if (from == list.size()) {
            return;
        }
        Step first = list.get(from);
        CompletableFuture<Void> segment;
        int next = from;
        if (first.op == null) {
            segment = first.region.writeLongVia(connection, first.offset, first.value);
            segment.whenComplete((ignored, failure) -> {
                if (failure == null) {
                    first.written.complete(null);
                } else {
                    first.written.completeExceptionally(unwrap(failure));
                }
            });
            next++;
        } else {
            List<RegionOp<?>> chain = new ArrayList<>();
            while (next < list.size() && list.get(next).op != null && chain.size() < Connection.MAX_CHAIN) {
                chain.add(list.get(next++).op);
            }
            segment = connection.post(chain);
        }
        int rest = next;
        segment.whenCompleteAsync((ignored, failure) -> {
            if (failure == null) {
                runFrom(connection, list, rest);
            } else {
                Throwable cause = unwrap(failure);
                for (Step later : list.subList(rest, list.size())) {
                    later.fail(new RegionAccessException("an earlier operation of the batch on this node failed ("
                            + cause.getMessage() + "): " + FabricChecks.describe(later.region) + ", offset=" + later.offset));
                }
            }
        }, fabric.continuations());
    }

    /** Marks each operation that a fence separates from the operation before it on its connection. */
    private static void markFences(List<Step> list) {
        for (int i = 1; i < list.size(); i++) {
            if (list.get(i).op != null && list.get(i).fencesBefore > list.get(i - 1).fencesBefore) {
                list.get(i).op.fenceBefore = true; // after a long write's loop it is moot: the loop waited for all before
            }
        }
    }

    private <T> CompletableFuture<T> add(RegionOp<T> op) {
        steps.add(new Step(op.region, op, op.offset, 0, null, false, fences));
        return op.result;
    }

    private CompletableFuture<Void> noop(DisniRegion handle, long offset) {
        Step step = new Step(handle, null, offset, 0, new CompletableFuture<>(), true, fences);
        steps.add(step);
        return step.written;
    }

    private DisniRegion own(Region region) {
        fabric.checkOpen();
        Objects.requireNonNull(region, "region");
        if (!(region instanceof DisniRegion handle) || handle.fabric() != fabric) {
            throw new IllegalArgumentException("region handle belongs to another fabric: " + FabricChecks.describe(region));
        }
        return handle;
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /**
     * One added operation: a region op for a chain, a long write (op == null), or an empty transfer
     * (noop); {@code fencesBefore} counts the fences added before it.
     */
    private record Step(DisniRegion region, RegionOp<?> op, long offset, long value, CompletableFuture<Void> written,
                        boolean noop, int fencesBefore) {
        CompletableFuture<?> future() {
            return op != null ? op.result : written;
        }

        void fail(RegionAccessException failure) {
            if (op != null) {
                op.result.completeExceptionally(failure);
            } else {
                written.completeExceptionally(failure);
            }
        }
    }
}
