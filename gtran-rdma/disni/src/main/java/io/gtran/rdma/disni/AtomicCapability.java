package io.gtran.rdma.disni;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How atomic a device's RDMA atomics are ({@code ibv_device_attr.atomic_cap}), and so how a long
 * write can be made atomic with them.
 *
 * <p>With {@code IBV_ATOMIC_GLOB} an atomic is atomic against every other access to the word, CPU
 * stores and RDMA WRITEs included, so an aligned 8-byte RDMA WRITE is a long write: one request,
 * ordered on its queue pair like any other. With {@code IBV_ATOMIC_HCA} (the usual case) an atomic is
 * atomic only against other atomics of the same HCA: a WRITE landing between an atomic's read and
 * its write would be lost, so a long write must be a compare-and-swap loop. DiSNI 2.0 cannot call
 * {@code ibv_query_device}; {@link #query} asks {@code ibv_devinfo -v} (rdma-core) instead, and
 * anything it cannot tell counts as {@link #UNKNOWN}, which is treated as the weakest.
 */
enum AtomicCapability {
    /** The device cannot say, or {@code ibv_devinfo} could not be run: assume HCA. */
    UNKNOWN,
    /** {@code IBV_ATOMIC_NONE}: no atomics (the start-up probe refuses the device). */
    NONE,
    /** {@code IBV_ATOMIC_HCA}: atomic among this HCA's atomics only. */
    HCA,
    /** {@code IBV_ATOMIC_GLOB}: atomic against every access. */
    GLOB;

    /** The command {@link #query()} runs. */
    static final List<String> QUERY_COMMAND = List.of("ibv_devinfo", "-v");
    /** How long {@link #query()} waits for it. */
    static final Duration QUERY_TIMEOUT = Duration.ofSeconds(5);

    private static final Pattern ATOMIC_CAP = Pattern.compile("atomic_cap:\\s*\\S+\\s*\\((\\d+)\\)");

    /** Whether an 8-byte aligned RDMA WRITE is atomic with RDMA atomics on this device. */
    boolean plainWritesAreAtomic() {
        return this == GLOB;
    }

    /**
     * The weakest capability {@code ibv_devinfo -v} reports over all devices; {@link #UNKNOWN} if it
     * names none or lists a value this class does not know.
     */
    static AtomicCapability parse(String devinfo) {
        AtomicCapability weakest = null;
        Matcher matcher = ATOMIC_CAP.matcher(devinfo);
        while (matcher.find()) {
            AtomicCapability device = switch (matcher.group(1)) {
                case "0" -> NONE;
                case "1" -> HCA;
                case "2" -> GLOB;
                default -> UNKNOWN;
            };
            weakest = weakest == null || device.ordinal() < weakest.ordinal() ? device : weakest;
        }
        return weakest == null ? UNKNOWN : weakest;
    }

    /** Runs {@code ibv_devinfo -v} (up to {@link #QUERY_TIMEOUT}) and {@link #parse parses} it; {@link #UNKNOWN} if it cannot. */
    static AtomicCapability query() {
        return query(QUERY_COMMAND, QUERY_TIMEOUT);
    }

    /**
     * Runs {@code command}, waits up to {@code timeout} for it and {@link #parse parses} what it
     * printed; {@link #UNKNOWN} if it cannot be run, fails, or outlives the time-out (then it is
     * killed). Its output goes to a temporary file, not a pipe read before waiting: a command that
     * hangs without closing its output must not hang the fabric's constructor.
     */
    static AtomicCapability query(List<String> command, Duration timeout) {
        Path output = null;
        Process process = null;
        try {
            output = Files.createTempFile("gtran-devinfo", ".txt");
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) || process.exitValue() != 0) {
                return UNKNOWN;
            }
            return parse(Files.readString(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return UNKNOWN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return UNKNOWN;
        } finally {
            if (process != null && process.isAlive()) {
                process.destroyForcibly();
            }
            if (output != null) {
                try {
                    Files.deleteIfExists(output);
                } catch (IOException e) {
                    // a leftover temporary file is harmless
                }
            }
        }
    }
}
