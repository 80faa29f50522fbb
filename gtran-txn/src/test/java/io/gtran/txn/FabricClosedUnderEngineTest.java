package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.common.Isolation;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node whose fabric closes while its engine still runs (a crash as CrashingFabric makes one, or
 * the in-JVM cluster closed before its nodes): the thread that receives its messages (operations,
 * membership, commit and clock: the node's one mailbox) stops, rather than spin on a mailbox that
 * can never deliver again (each turn throwing and logging a warning with a stack trace), which
 * took a core and flooded the log for as long as the node stayed open. Its GC, which cannot run a pass any more, waits a GC
 * interval between failed passes.
 */
@Timeout(60)
class FabricClosedUnderEngineTest {

    @Test
    void theReceiverOfANodeWhoseFabricClosedStops() throws Exception {
        Set<String> names = Set.of("gtran-receive-0");
        Set<Thread> before = threads(names); // another test's node 0, if one was left open
        try (ClusterNodes cluster = new ClusterNodes(ClusterNodes.IN_JVM, 3)) {
            Set<Thread> receivers = threads(names);
            receivers.removeAll(before);
            assertEquals(1, receivers.size(), "node 0's receiver: " + receivers);
            // Interned first on both: node 0 is the authority for names, and a name new to a node needs it.
            int label = cluster.nodes[1].store().labels().intern("v");
            cluster.nodes[2].store().labels().intern("v"); // the vertex is added there
            cluster.nodes[0].fabric().close(); // the engine, its clock sync and its store stay open
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (receivers.stream().anyMatch(Thread::isAlive) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            List<String> left = receivers.stream().filter(Thread::isAlive).map(t -> t.getName() + " " + t.getState()).toList();
            assertTrue(left.isEmpty(), "receiver still running 5 s after its fabric closed: " + left);
            // The other two still work together.
            Transaction t = cluster.begin(1, Isolation.SERIALIZABLE);
            t.addVertex(2, label);
            t.commit();
        }
    }

    /**
     * Its GC scanner finds its own status table gone: every pass fails, and the next pass came at
     * once instead of a GC interval later (the sleep was skipped on failure), so the scanner spun,
     * logging an error with a stack trace each turn (80,000 in ClusterBankFaultsTest's kill run).
     */
    @Test
    void theGcOfANodeWhoseFabricClosedWaitsBetweenFailedPasses() throws Exception {
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(cpu.isThreadCpuTimeSupported(), "thread CPU time is not measured here");
        Set<Thread> before = threads(Set.of("gtran-gc-scanner-0"));
        try (ClusterNodes cluster = new ClusterNodes(ClusterNodes.IN_JVM, 3, TxnConfig.GC_INTERVAL_MS, 20)) {
            Set<Thread> scanners = threads(Set.of("gtran-gc-scanner-0"));
            scanners.removeAll(before);
            assertEquals(1, scanners.size(), "node 0's GC scanner: " + scanners);
            long scanner = scanners.iterator().next().getId();
            cluster.nodes[0].fabric().close();
            Thread.sleep(100); // real time: the scanner meets the closed fabric before the measure starts
            long cpuBefore = cpu.getThreadCpuTime(scanner);
            long wallBefore = System.nanoTime();
            Thread.sleep(1_000); // real time: what is measured is the scanner's CPU in a second of wall time
            long usedMs = TimeUnit.NANOSECONDS.toMillis(cpu.getThreadCpuTime(scanner) - cpuBefore);
            long wallMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - wallBefore);
            assertTrue(usedMs < wallMs / 4, "node 0's GC scanner used " + usedMs + " ms of CPU in " + wallMs
                    + " ms with its fabric closed: it does not wait between failed passes");
        }
    }

    private static Set<Thread> threads(Set<String> names) {
        Set<Thread> found = new HashSet<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (names.contains(thread.getName()) && thread.isAlive()) {
                found.add(thread);
            }
        }
        return found;
    }
}
