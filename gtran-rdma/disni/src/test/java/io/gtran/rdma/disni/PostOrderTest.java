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

    @Test
    void tenThousandHeldPostsRunInOrderWhenTheLoopEndsAndLaterPostsStillGoOut() {
        CompletableFuture<Void> loopEnds = new CompletableFuture<>();
        order.loop(() -> loopEnds);
        List<CompletableFuture<String>> held = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            String what = "post " + i;
            held.add(order.post(() -> post(what)));
        }
        assertTrue(posted.isEmpty(), "all held while the loop runs");
        loopEnds.complete(null); // drains on this thread: one stack frame for all of them, not one each
        assertEquals(10_000, posted.size());
        for (int i = 0; i < 10_000; i++) {
            assertEquals("post " + i, posted.get(i));
            assertEquals("post " + i, held.get(i).join());
        }
        assertEquals("later", order.post(() -> post("later")).join(), "nothing holds once drained");
    }

    @Test
    void manyHeldLoopsThatEndAtOnceAreDrainedWithoutNesting() {
        CompletableFuture<Void> loopEnds = new CompletableFuture<>();
        order.loop(() -> loopEnds);
        List<CompletableFuture<Void>> loops = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            String what = "loop " + i;
            loops.add(order.loop(() -> {
                posted.add(what);
                return CompletableFuture.completedFuture(null);
            }));
            order.post(() -> post("after " + what));
        }
        loopEnds.complete(null);
        assertEquals(20_000, posted.size());
        assertEquals("after loop 9999", posted.get(19_999));
        loops.forEach(CompletableFuture::join);
        assertEquals("later", order.post(() -> post("later")).join());
    }

    @Test
    void aLostConnectionRunsEverythingHeldAtOnceAndHoldsNothingAfter() {
        CompletableFuture<Void> neverEnds = new CompletableFuture<>();
        order.loop(() -> neverEnds);
        List<CompletableFuture<String>> held = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            held.add(order.post(() -> lostPost()));
        }
        CompletableFuture<Void> heldLoop = order.loop(() -> {
            posted.add("held loop");
            return new CompletableFuture<>(); // would hold for ever if waited for
        });
        CompletableFuture<String> afterHeldLoop = order.post(() -> lostPost());
        assertTrue(posted.isEmpty());
        order.release();
        assertEquals(1_002, posted.size(), "every held post ran, and failed fast");
        for (CompletableFuture<String> post : held) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> post.get(10, SECONDS));
            assertEquals("lost", e.getCause().getMessage());
        }
        assertFalse(heldLoop.isDone(), "its outcome is its own");
        assertThrows(ExecutionException.class, () -> afterHeldLoop.get(10, SECONDS));
        assertThrows(ExecutionException.class, () -> order.post(() -> lostPost()).get(10, SECONDS), "runs at once");
    }

    @Test
    void framesPassAHeldLoop() {
        CompletableFuture<Void> loopEnds = new CompletableFuture<>();
        order.loop(() -> loopEnds);
        CompletableFuture<String> read = order.post(() -> post("read"));
        CompletableFuture<String> heartbeat = order.bypass(() -> post("heartbeat"));
        assertEquals(List.of("heartbeat"), posted, "a frame is outside program order");
        assertEquals("heartbeat", heartbeat.join());
        assertFalse(read.isDone());
        loopEnds.complete(null);
        assertEquals(List.of("heartbeat", "read"), posted);
    }

    private CompletableFuture<String> lostPost() {
        posted.add("lost");
        return CompletableFuture.failedFuture(new IllegalStateException("lost"));
    }

    private CompletableFuture<String> post(String what) {
        posted.add(what);
        return CompletableFuture.completedFuture(what);
    }
}
