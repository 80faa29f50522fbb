package io.gtran.rdma.disni;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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

    /** Runs {@code ibv_devinfo -v} (up to 5 s) and {@link #parse parses} it; {@link #UNKNOWN} if it cannot. */
    static AtomicCapability query() {
        try {
            Process process = new ProcessBuilder("ibv_devinfo", "-v").redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(5, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                return UNKNOWN;
            }
            return parse(new String(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return UNKNOWN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return UNKNOWN;
        }
    }
}
