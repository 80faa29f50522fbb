package io.gtran.rdma.spi;

import io.gtran.rdma.Region;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A region operation added to a batch and issued at flush through the region's own asynchronous
 * method: the future its caller holds from the start ({@link #result}) completes as the issued
 * operation does. Used by {@link OpBatch} for every operation and by networked batches for
 * operations on the node's own regions.
 */
public final class DeferredOp<T> {
    private final Region region;
    private final Function<Region, CompletableFuture<T>> operation;
    private final CompletableFuture<T> result = new CompletableFuture<>();

    public DeferredOp(Region region, Function<Region, CompletableFuture<T>> operation) {
        this.region = Objects.requireNonNull(region, "region");
        this.operation = Objects.requireNonNull(operation, "operation");
    }

    /** The future handed to the caller when the operation was added. */
    public CompletableFuture<T> result() {
        return result;
    }

    /** Issues the operation; a failure to issue it (the fabric closed since) fails {@link #result}. */
    public CompletableFuture<T> issue() {
        try {
            operation.apply(region).whenComplete((value, failure) -> {
                if (failure == null) {
                    result.complete(value);
                } else {
                    result.completeExceptionally(failure);
                }
            });
        } catch (RuntimeException e) { // the fabric closed between add and flush, or the like
            result.completeExceptionally(e);
        }
        return result;
    }
}
