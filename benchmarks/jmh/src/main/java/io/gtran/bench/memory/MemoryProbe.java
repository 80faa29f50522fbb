package io.gtran.bench.memory;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/**
 * Measures what a process holds: heap in use after full collections plus direct (off-heap)
 * buffer memory, as the JVM accounts them. Memory outside both (e.g. Chronicle Map's mapped
 * memory) is added by the caller from the owner's own figure.
 */
final class MemoryProbe {
    private MemoryProbe() {
    }

    /** Heap used after repeated full GCs, settled until two readings agree within 0.1%. */
    static long heapAfterGc() {
        long previous = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            System.gc();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            if (Math.abs(previous - used) <= used / 1000) {
                return used;
            }
            previous = used;
        }
        return previous;
    }

    static long directBytes() {
        long total = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                total += pool.getMemoryUsed();
            }
        }
        return total;
    }

    static long heapAndDirect() {
        return heapAfterGc() + directBytes();
    }
}
