package io.gtran.rdma.disni;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Program order across a long write's compare-and-swap loop, without a queue pair. */
@Timeout(value = 30, unit = SECONDS)
class PostOrderTest {
    private final PostOrder order = new PostOrder();
    private final List<String> posted = new ArrayList<>();

    @Test
    void postsGoOutAtOnceWhileNoLoopHolds() {
        CompletableFuture<String> a = order.post(() -> post("a"));
        CompletableFuture<String> b = order.post(() -> post("b"));
        assertEquals(List.of("a", "b"), posted);
        assertEquals("a", a.join());
        assertEquals("b", b.join());
    }

    @Test
    void aLoopStartsAtOnceAndHoldsWhatIsPostedAfterItUntilItEnds() {
        CompletableFuture<Void> loopEnds = new CompletableFuture<>();
        CompletableFuture<Void> loop = order.loop(() -> {
            posted.add("first attempt");
            return loopEnds;
        });
        CompletableFuture<String> add = order.post(() -> post("fetch-add"));
        CompletableFuture<String> read = order.post(() -> post("read"));
        assertEquals(List.of("first attempt"), posted, "nothing after the loop goes out while it runs");
        assertFalse(add.isDone());
        posted.add("second attempt"); // a retry, posted by the loop itself
        loopEnds.complete(null);
        assertTrue(loop.isDone());
        assertEquals(List.of("first attempt", "second attempt", "fetch-add", "read"), posted);
        assertEquals("fetch-add", add.join());
        assertEquals("read", read.join());
        order.post(() -> post("c"));
        assertEquals(List.of("first attempt", "second attempt", "fetch-add", "read", "c"), posted, "then at once again");
    }

    @Test
    void aLoopWaitsForTheLoopBeforeItAndAFailedLoopStillReleasesTheRest() throws Exception {
        CompletableFuture<Void> firstEnds = new CompletableFuture<>();
        order.loop(() -> {
            posted.add("loop 1");
            return firstEnds;
        });
        CompletableFuture<Void> second = order.loop(() -> {
            posted.add("loop 2");
            return CompletableFuture.completedFuture(null);
        });
        CompletableFuture<String> after = order.post(() -> post("after"));
        assertEquals(List.of("loop 1"), posted);
        firstEnds.completeExceptionally(new IllegalStateException("lost races"));
        assertEquals(List.of("loop 1", "loop 2", "after"), posted);
        second.get(10, SECONDS);
        assertEquals("after", after.get(10, SECONDS));
    }

    @Test
    void aLoopThatCannotStartFailsAndReleasesTheRest() {
        CompletableFuture<Void> holding = new CompletableFuture<>();
        order.loop(() -> holding);
        CompletableFuture<Void> broken = order.loop(() -> {
            throw new IllegalStateException("no connection");
        });
        CompletableFuture<String> after = order.post(() -> post("after"));
        holding.complete(null);
        ExecutionException e = assertThrows(ExecutionException.class, () -> broken.get(10, SECONDS));
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertEquals("after", after.join());
    }

    private CompletableFuture<String> post(String what) {
        posted.add(what);
        return CompletableFuture.completedFuture(what);
    }
}
