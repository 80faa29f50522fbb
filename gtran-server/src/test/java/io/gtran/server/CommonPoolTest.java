package io.gtran.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * On a two-core machine an asynchronous step with no executor runs on a fresh thread unless the node
 * sized the common pool first. Each case runs in a JVM of its own that sees two processors.
 */
class CommonPoolTest {

    @Test
    void aNodeRunsAsynchronousStepsOnTheCommonPoolWithTwoCores() throws Exception {
        assertEquals("workers=2 on-pool=true", probe(true));
    }

    @Test
    void withoutTheNodesSizeTheJdkStartsAThreadPerStep() throws Exception {
        assertEquals("workers=1 on-pool=false", probe(false));
    }

    private static String probe(boolean sized) throws IOException, InterruptedException {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-XX:ActiveProcessorCount=2", "-cp", System.getProperty("java.class.path"),
                Probe.class.getName(), Boolean.toString(sized));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        return out;
    }

    /** Sizes the pool when asked, then says where one asynchronous step ran. */
    public static final class Probe {
        public static void main(String[] args) {
            int workers = Boolean.parseBoolean(args[0])
                    ? CommonPool.ensureWorkers()
                    : java.util.concurrent.ForkJoinPool.getCommonPoolParallelism();
            boolean onPool = CompletableFuture.supplyAsync(() -> Thread.currentThread() instanceof ForkJoinWorkerThread).join();
            System.out.println("workers=" + workers + " on-pool=" + onPool);
        }
    }
}
