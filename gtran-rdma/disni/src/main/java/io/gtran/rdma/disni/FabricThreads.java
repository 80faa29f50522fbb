package io.gtran.rdma.disni;

import java.util.concurrent.ThreadFactory;

/**
 * Which threads are a DiSNI fabric's own, and the guard that keeps them from waiting for a reply.
 *
 * <p>DiSNI's completion-queue thread delivers every completion and frame of every connection of a
 * device; its connection-manager thread delivers connection events; the fabric's frame thread
 * answers HELLOs, region lookups and messages, tells peer listeners and runs the continuations that
 * post again. A synchronous operation on one of them waits for something only that thread (or a
 * thread stuck behind it) can deliver: it stalls every connection until the operation time-out, or
 * for ever. {@link #checkMayBlock} refuses it instead, as the TCP transport refuses it on its I/O
 * threads.
 */
final class FabricThreads {
    /** DiSNI's completion-queue thread. */
    static final String COMPLETION_QUEUE = "completion-queue";
    /** DiSNI's connection-manager thread. */
    static final String CONNECTION_MANAGER = "connection-manager";
    /** The fabric's frame thread: frames, peer listeners, continuations. */
    static final String FRAME = "frame";

    private static final ThreadLocal<String> ROLE = new ThreadLocal<>();

    private FabricThreads() {
    }

    /** Marks the calling thread as a fabric thread in {@code role}; idempotent. */
    static void mark(String role) {
        ROLE.set(role);
    }

    /** The calling thread's role, or null if it is not a fabric thread. */
    static String role() {
        return ROLE.get();
    }

    /** Whether the calling thread is DiSNI's CQ or CM thread, which must never block or join themselves. */
    static boolean onDisniThread() {
        String role = ROLE.get();
        return COMPLETION_QUEUE.equals(role) || CONNECTION_MANAGER.equals(role);
    }

    /**
     * Throws if the calling thread is a fabric thread, which must not wait for a reply.
     *
     * @param what the operation's target, for the message ({@code node=, region=})
     * @throws IllegalStateException naming the thread's role, {@code what} and the way out
     */
    static void checkMayBlock(Object what) {
        String role = ROLE.get();
        if (role != null) {
            throw new IllegalStateException("a synchronous remote operation on a fabric " + role + " thread would block"
                    + " it: " + what + " (use the asynchronous form)");
        }
    }

    /** Daemon threads named {@code name}, marked with {@code role} (null: not a fabric thread) before they run. */
    static ThreadFactory daemon(String name, String role) {
        return task -> {
            Thread thread = new Thread(() -> {
                if (role != null) {
                    mark(role);
                }
                task.run();
            }, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
