package io.gtran.rdma.netty;

import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Fabrics;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import io.gtran.rdma.Region;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Checks a running fabric node from another process, the way an operator checks a freshly
 * deployed cluster ({@code bin/gtran fabric ping --conf node0.properties --node 1}): it starts this
 * node from the configuration, then against node {@code --node} (a {@link FabricNodeMain}) times
 * {@code --count} one-sided 8-byte reads of its {@value FabricNodeMain#REGION} region,
 * fetch-and-adds on it, and message round trips through its {@value FabricNodeMain#ECHO} mailbox,
 * and prints
 * {@code FABRIC_PING node=N transport=T count=C read_p50_us=.. read_p99_us=.. fetch_add_p50_us=..
 * echo_p50_us=.. echo_p99_us=..}. A node it cannot reach, or a bad configuration, is reported on
 * standard error with exit status 1 (unreachable) or 2 (usage, configuration).
 */
public final class FabricPing {
    private FabricPing() {
    }

    public static void main(String[] args) throws Exception {
        String conf = null;
        int target = -1;
        int count = 1000;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--conf" -> conf = value;
                case "--node" -> target = parse("--node", value);
                case "--count" -> count = parse("--count", value);
                default -> usage("unknown option: " + args[i]);
            }
            i++;
        }
        if (conf == null || target < 0 || count < 1) {
            usage("--conf FILE and --node N are required; --count must be positive");
        }
        ClusterConfig config;
        try {
            config = ClusterConfig.fromProperties(FabricNodeMain.load(Path.of(conf)));
        } catch (IOException | RuntimeException e) {
            usage(e.getMessage());
            return;
        }
        try (Fabric fabric = Fabrics.start(config)) {
            Region region = fabric.connect(target, FabricNodeMain.REGION);
            Mailbox mailbox = fabric.openMailbox("ping");
            long[] reads = new long[count];
            long[] adds = new long[count];
            long[] echoes = new long[count];
            byte[] payload = new byte[64];
            for (int i = 0; i < count; i++) {
                long start = System.nanoTime();
                region.readLong(0);
                reads[i] = System.nanoTime() - start;
                start = System.nanoTime();
                region.fetchAdd(8, 1);
                adds[i] = System.nanoTime() - start;
                start = System.nanoTime();
                mailbox.send(target, FabricNodeMain.ECHO, payload).join();
                Message reply = mailbox.receive(config.operationTimeout().toMillis(), TimeUnit.MILLISECONDS);
                if (reply == null) {
                    throw new IllegalStateException("no echo from node=" + target + " within " + config.operationTimeout());
                }
                echoes[i] = System.nanoTime() - start;
            }
            System.out.printf("FABRIC_PING node=%d transport=%s count=%d read_p50_us=%.1f read_p99_us=%.1f "
                            + "fetch_add_p50_us=%.1f echo_p50_us=%.1f echo_p99_us=%.1f%n", target, config.transport(), count,
                    percentile(reads, 50), percentile(reads, 99), percentile(adds, 50), percentile(echoes, 50),
                    percentile(echoes, 99));
        } catch (RuntimeException e) {
            System.err.println("gtran fabric ping: node=" + target + " unreachable or failing: " + e);
            System.exit(1);
        }
    }

    private static double percentile(long[] nanos, int p) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, (int) ((long) sorted.length * p / 100))] / 1000.0;
    }

    private static int parse(String option, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            usage(option + " needs a number: " + value);
            return -1;
        }
    }

    private static void usage(String problem) {
        System.err.println("gtran fabric ping: " + problem);
        System.err.println("usage: bin/gtran fabric ping --conf node.properties --node N [--count C]");
        System.exit(2);
    }
}
