package io.gtran.lbv.driver;

import io.gtran.lbv.LbvResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One system's run in a child JVM: {@code java -cp <module classes + lbv-classpath.txt>
 * io.gtran.lbv.LbvChildMain ...}. The child's stderr goes whole to a log file; its {@code LBV_*}
 * lines drive the progress bar and are echoed; its last stdout line is the result.
 */
final class ChildRun {
    /** How long a child may run past its planned time (loading, warm-up, latency queries) before it is killed. */
    private static final long GRACE_SECONDS = 1800;
    private static final int TAIL_LINES = 40;

    private final Path home;
    private final Path logDir;
    private final String heap;
    private final PrintStream out;

    ChildRun(Path home, Path logDir, String heap, PrintStream out) {
        this.home = home;
        this.logDir = logDir;
        this.heap = heap;
        this.out = out;
    }

    /**
     * Runs {@code entry} with {@code childArgs} (everything after {@code --system/--option}).
     *
     * @throws IllegalStateException if the module is not built, or the child fails (with the tail of its log)
     */
    LbvResult run(SystemCatalog.Entry entry, Map<String, String> options, List<String> childArgs, String label,
                  double plannedSeconds) throws IOException, InterruptedException {
        List<String> command = command(entry, options, childArgs);
        Files.createDirectories(logDir);
        Path log = logDir.resolve(label.replaceAll("[^A-Za-z0-9._-]", "_") + ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
        process.getOutputStream().close();
        ProgressBar bar = new ProgressBar(out, label);
        Deque<String> tail = new ArrayDeque<>();
        AtomicReference<String> resultLine = new AtomicReference<>();
        ScheduledExecutorService readers = Executors.newScheduledThreadPool(3, task -> {
            Thread thread = new Thread(task, "lbv-child-reader");
            thread.setDaemon(true);
            return thread;
        });
        try (PrintWriter logWriter = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8))) {
            logWriter.println("# " + String.join(" ", command));
            Future<?> stderr = readers.submit(() -> {
                read(process.getErrorStream(), line -> {
                    synchronized (logWriter) {
                        logWriter.println(line);
                    }
                    synchronized (tail) {
                        tail.addLast(line);
                        if (tail.size() > TAIL_LINES) {
                            tail.removeFirst();
                        }
                    }
                    bar.onLine(line);
                });
                return null;
            });
            Future<?> stdout = readers.submit(() -> {
                read(process.getInputStream(), line -> {
                    synchronized (logWriter) {
                        logWriter.println("[stdout] " + line);
                    }
                    if (line.startsWith(LbvResult.LINE_PREFIX)) {
                        resultLine.set(line);
                    }
                });
                return null;
            });
            readers.scheduleAtFixedRate(bar::tickPhase, 1, 1, TimeUnit.SECONDS);
            boolean done = process.waitFor((long) plannedSeconds + GRACE_SECONDS, TimeUnit.SECONDS);
            if (!done) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
            finish(stderr);
            finish(stdout);
            bar.done();
            int exit = done ? process.exitValue() : -1;
            if (resultLine.get() == null || exit != 0) {
                String why = !done ? "did not finish within " + ((long) plannedSeconds + GRACE_SECONDS) + " s"
                        : "exited with status " + exit + (resultLine.get() == null ? " and no result" : "");
                List<String> last;
                synchronized (tail) {
                    last = new ArrayList<>(tail);
                }
                throw new IllegalStateException("system=" + entry.name() + " " + why + "; log: " + log
                        + "\n  " + String.join("\n  ", last));
            }
            return LbvResult.fromJson(resultLine.get());
        } finally {
            readers.shutdownNow();
            if (process.isAlive()) {
                process.destroyForcibly();
            }
        }
    }

    private List<String> command(SystemCatalog.Entry entry, Map<String, String> options, List<String> childArgs)
            throws IOException {
        Path module = home.resolve(entry.module());
        Path classes = module.resolve("target/classes");
        Path classpathFile = module.resolve("target/lbv-classpath.txt");
        if (!Files.isDirectory(classes) || !Files.isRegularFile(classpathFile)) {
            throw new IllegalStateException("system=" + entry.name() + " is not built: " + classpathFile
                    + " is missing (run: mvn -B package -DskipTests -pl " + entry.module() + " -am)");
        }
        String classpath = classes + java.io.File.pathSeparator + Files.readString(classpathFile).trim();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + heap);
        command.add("-XX:MaxDirectMemorySize=" + heap);
        command.addAll(moduleFlags());
        command.add("-Dgtran.home=" + home); // a system of server processes starts them with home's deploy/ scripts
        command.add("-cp");
        command.add(classpath);
        command.add("io.gtran.lbv.LbvChildMain");
        command.add("--system");
        command.add(entry.systemClass());
        options.forEach((key, value) -> {
            command.add("--option");
            command.add(key + "=" + value);
        });
        command.addAll(childArgs);
        return command;
    }

    /** The JDK module flags and gtran's system properties this JVM was started with, for the child. */
    static List<String> moduleFlags() {
        List<String> flags = new ArrayList<>();
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-opens") || argument.startsWith("--add-exports")
                    || argument.startsWith("-Dchronicle.")) {
                flags.add(argument);
            }
        }
        return flags;
    }

    private static void finish(Future<?> reader) throws InterruptedException {
        try {
            reader.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // the stream broke or never closed: what was read is in the log
        }
    }

    private static void read(java.io.InputStream stream, java.util.function.Consumer<String> onLine) throws IOException {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                onLine.accept(line);
            }
        }
    }
}
