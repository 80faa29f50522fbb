package io.gtran.bench.jmh;

import io.gtran.txn.durable.PartitionLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A node's write-ahead log ({@link PartitionLog}, Ratis, one replica) on the local disk, beside a
 * file that is written and forced once per record under a lock: what Ratis' group commit gains
 * when threads append at once, and what it costs when one thread appends alone.
 *
 * <p><b>Benchmarks</b> (throughput, appends/s; every thread appends a {@value #RECORD_BYTES}-byte
 * record and waits for it to be durable before the next):
 * <ul>
 *   <li>{@code threads1}, {@code threads8}, {@code threads32}: 1, 8 and 32 threads appending, to
 *       each {@code target}: {@code partition-log}, {@link PartitionLog#append} and {@code join}
 *       (records in flight together share one fsync); {@code fsync-per-record}, the comparison:
 *       the record written to a plain file and {@code FileChannel.force(false)} (fdatasync) under
 *       one lock, one fsync per record.
 *   <li>{@code open} (single shot, ms): {@link PartitionLog#open} of a log of {@code records}
 *       records, replay included; the log is closed after each, outside the measurement.
 * </ul>
 *
 * <p>Run {@code bin/gtran bench jmh PartitionLogBenchmark -f 1} (about 3 minutes); the logs are
 * written in a temporary directory ({@code java.io.tmpdir}; give
 * {@code -jvmArgsAppend -Djava.io.tmpdir=DIR} to measure another disk). With less warm-up (such as
 * {@code -w 1}) the appends read low: Ratis' code is still being compiled.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 2) // Ratis' paths take some 10 s to compile: a shorter warm-up reads low
@Measurement(iterations = 3, time = 3)
public class PartitionLogBenchmark extends GtranForkSettings {
    static final int RECORD_BYTES = 200;
    static final String LOG = "partition-log";
    static final String FSYNC = "fsync-per-record";
    private static final String IDENTITY = "benchmark=partition-log";

    /** What the threads append to, in a new temporary directory. */
    @State(Scope.Benchmark)
    public static class Appending {
        @Param({LOG, FSYNC})
        public String target;

        Path directory;
        PartitionLog log;
        FileChannel file;
        final ReentrantLock fileLock = new ReentrantLock();
        final byte[] record = new byte[RECORD_BYTES];

        @Setup(Level.Trial)
        public void start() throws IOException {
            directory = Files.createTempDirectory("gtran-partition-log-bench");
            if (target.equals(LOG)) {
                log = PartitionLog.open(directory.resolve("log"), IDENTITY, r -> { });
            } else {
                file = FileChannel.open(directory.resolve("fsync.dat"), StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE);
            }
            for (int i = 0; i < record.length; i++) {
                record[i] = (byte) (i + 1);
            }
        }

        @TearDown(Level.Trial)
        public void stop() throws IOException {
            if (log != null) {
                log.close();
            }
            if (file != null) {
                file.close();
            }
            delete(directory);
        }

        /** Appends one record and waits until it is durable; returns its index or the file's length. */
        long appendOne() throws IOException {
            if (log != null) {
                return log.append(record).join();
            }
            fileLock.lock();
            try {
                file.write(ByteBuffer.wrap(record));
                file.force(false);
                return file.position();
            } finally {
                fileLock.unlock();
            }
        }
    }

    @Benchmark
    @Threads(1)
    public long threads1(Appending appending) throws IOException {
        return appending.appendOne();
    }

    @Benchmark
    @Threads(8)
    public long threads8(Appending appending) throws IOException {
        return appending.appendOne();
    }

    @Benchmark
    @Threads(32)
    public long threads32(Appending appending) throws IOException {
        return appending.appendOne();
    }

    /** A log of {@code records} records, written once; {@link #open} opens it again and again. */
    @State(Scope.Benchmark)
    public static class WrittenLog {
        @Param({"0", "100000"})
        public int records;

        Path directory;
        PartitionLog opened;
        long replayed;

        @Setup(Level.Trial)
        public void write() throws IOException {
            directory = Files.createTempDirectory("gtran-partition-log-open");
            byte[] record = new byte[RECORD_BYTES];
            try (PartitionLog log = PartitionLog.open(directory, IDENTITY, r -> { })) {
                CompletableFuture<Long> last = CompletableFuture.completedFuture(0L);
                for (int i = 0; i < records; i++) {
                    last = log.append(record);
                }
                last.join();
            }
        }

        @TearDown(Level.Iteration)
        public void closeOpened() {
            if (opened != null) {
                opened.close();
                opened = null;
                if (replayed != records) {
                    throw new IllegalStateException("replayed " + replayed + " records of " + records);
                }
            }
        }

        @TearDown(Level.Trial)
        public void delete() throws IOException {
            PartitionLogBenchmark.delete(directory);
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 2)
    @Measurement(iterations = 5)
    public PartitionLog open(WrittenLog written) {
        written.replayed = 0;
        written.opened = PartitionLog.open(written.directory, IDENTITY, r -> written.replayed++);
        return written.opened;
    }

    static void delete(Path directory) throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
