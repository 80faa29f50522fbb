package io.gtran.check.cluster;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The fault timeline over a load of {@code S} seconds: inject at S/3, heal {@code D} ms later
 * (default S/3; clock-jump also jumps back halfway), then load to the end. Every fault is a command of the cluster script
 * ({@code CMD kill 2}, {@code CMD heal}, ...); schedule {@code none} runs no command but keeps the
 * same phase times, so "after heal" means the last third either way.
 */
final class FaultSchedule {
    /** Runs one cluster-script command; returns its exit code. */
    interface Command {
        int run(List<String> args) throws IOException, InterruptedException;
    }

    /**
     * The cluster script as a process: {@code CMD args...}, its output passed through, bounded to
     * three minutes (what the script gives nodes to start).
     */
    static Command process(List<String> cmd, PrintStream out) {
        return args -> {
            List<String> command = new ArrayList<>(cmd);
            command.addAll(args);
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] output;
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                out.println("CLUSTER_CHECK_PROGRESS fault command timed out: " + String.join(" ", command));
                return -1;
            }
            output = p.getInputStream().readAllBytes();
            String text = new String(output, StandardCharsets.UTF_8).trim();
            if (!text.isEmpty()) {
                out.println("CLUSTER_CHECK_PROGRESS fault command output: " + text.replace('\n', ' '));
            }
            return p.exitValue();
        };
    }

    /**
     * One step: at {@code atMillis} after the load starts, run {@code args}; {@code killed} the nodes it
     * kills, {@code revived} the nodes it brings back.
     */
    record Step(long atMillis, List<String> args, Set<Integer> killed, boolean heal, Set<Integer> revived) {
        Step(long atMillis, List<String> args, Set<Integer> killed, boolean heal) {
            this(atMillis, args, killed, heal, Set.of());
        }

        /** A fault that kills no node. */
        Step(long atMillis, List<String> args) {
            this(atMillis, args, Set.of(), false);
        }
    }

    /** The node ids of the three-node clusters the harness runs: what {@link #of(String, int)} schedules for. */
    static final Set<Integer> THREE_NODES = Set.of(0, 1, 2);

    private final String name;
    private final List<Step> steps;
    private final long healMillis;
    private final Set<Integer> killed = ConcurrentHashMap.newKeySet();
    private final List<String> errors = new ArrayList<>();
    private volatile long healedAtNanos = Long.MAX_VALUE;
    private volatile long injectedAtNanos = Long.MAX_VALUE;
    private volatile int healEpoch;

    private FaultSchedule(String name, List<Step> steps, long healMillis) {
        this.name = name;
        this.steps = steps;
        this.healMillis = healMillis;
    }

    /** The timeline of schedule {@code name} over {@code seconds} of load on three nodes, the fault lasting S/3. */
    static FaultSchedule of(String name, int seconds) {
        return of(name, seconds, seconds * 1000L / 3, THREE_NODES);
    }

    /**
     * The timeline of schedule {@code name} over {@code seconds} of load on the cluster of {@code nodes}
     * (node ids), the fault lasting {@code faultMillis}.
     */
    static FaultSchedule of(String name, int seconds, long faultMillis, Set<Integer> nodes) {
        long total = seconds * 1000L;
        long inject = total / 3;
        long heal = inject + faultMillis;
        List<Step> steps = new ArrayList<>();
        switch (name) {
            case "none" -> { }
            case "kill", "restart" -> steps.add(new Step(inject, List.of("kill", "2"), Set.of(2), false));
            // every node SIGKILLed at once, as a power cut does
            case "crash" -> steps.add(new Step(inject, List.of("kill", "all"), Set.copyOf(nodes), false));
            case "pause" -> steps.add(new Step(inject, List.of("pause", "1")));
            case "partition" -> steps.add(new Step(inject, List.of("partition", "0", "1,2")));
            case "isolate" -> steps.add(new Step(inject, List.of("isolate", "1")));
            // node 0 is the clock master: cut off, the others move the master on (the group decides its loss)
            case "master" -> steps.add(new Step(inject, List.of("isolate", "0")));
            // the one link 0-1: both ends still hear node 2, a majority each
            case "link" -> steps.add(new Step(inject, List.of("partition", "0", "1")));
            // node 1's messages do not reach node 0; node 0's reach node 1
            case "oneway" -> steps.add(new Step(inject, List.of("cut", "1", "0")));
            case "delay-loss" -> steps.add(new Step(inject, List.of("degrade", "5-30", "0.05")));
            case "clock-jump" -> {
                steps.add(new Step(inject, List.of("clock-jump", "1", "2000")));
                steps.add(new Step(inject + faultMillis / 2, List.of("clock-jump", "1", "-2000")));
            }
            default -> throw new IllegalArgumentException("--schedule has no timeline " + name);
        }
        if (name.equals("restart")) {
            // node 2 started again on its data (a cluster started with --data): back, with every write it acknowledged
            steps.add(new Step(heal, List.of("restart", "2"), Set.of(), true, Set.of(2)));
        } else if (name.equals("crash")) {
            // every node started again on its data: every write any of them acknowledged is there
            steps.add(new Step(heal, List.of("restart", "all"), Set.of(), true, Set.copyOf(nodes)));
        } else if (!name.equals("none")) {
            steps.add(new Step(heal, List.of("heal"), Set.of(), true));
        }
        return new FaultSchedule(name, List.copyOf(steps), heal);
    }

    List<Step> steps() {
        return steps;
    }

    /**
     * Runs the timeline from {@code startNanos} (the load's start) on the calling thread, issuing
     * each command at its time; returns when the last has run. A failed command is recorded.
     */
    void run(long startNanos, Command command, PrintStream out) throws InterruptedException {
        boolean healed = false;
        for (Step step : steps) {
            sleepUntil(startNanos + TimeUnit.MILLISECONDS.toNanos(step.atMillis()));
            killed.addAll(step.killed()); // from now on the workload reads around them
            // Their keys count again from the restart on: the survivors' accounts no longer settle (the votes in
            // doubt are decided as they come back), every read is of all accounts, and each must commit after the heal.
            killed.removeAll(step.revived());
            if (!step.heal() && injectedAtNanos == Long.MAX_VALUE) {
                injectedAtNanos = System.nanoTime();
            }
            out.printf("CLUSTER_CHECK_PROGRESS phase=fault schedule=%s at_ms=%d command=%s%n", name,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos), String.join(" ", step.args()));
            int code;
            try {
                code = command.run(step.args());
            } catch (IOException e) {
                code = -1;
                out.println("CLUSTER_CHECK_PROGRESS fault command failed: " + e);
            }
            if (code != 0) {
                synchronized (errors) {
                    errors.add("fault command '" + String.join(" ", step.args()) + "' exited " + code);
                }
            }
            if (step.heal()) {
                markHealed();
                healed = true;
            }
        }
        if (!healed) {
            sleepUntil(startNanos + TimeUnit.MILLISECONDS.toNanos(healMillis));
            markHealed(); // schedule none: the last third counts as after heal
        }
    }

    private void markHealed() {
        healedAtNanos = System.nanoTime();
        healEpoch++;
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long wait = nanos - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }

    /** Storage ids of the nodes this schedule killed so far. */
    Set<Integer> killed() {
        return Set.copyOf(killed);
    }

    boolean healed() {
        return healedAtNanos != Long.MAX_VALUE;
    }

    /** When the heal command returned (System.nanoTime), or Long.MAX_VALUE before. */
    long healedAtNanos() {
        return healedAtNanos;
    }

    /** Bumped at heal: workers go back to their home node. */
    int healEpoch() {
        return healEpoch;
    }

    long injectedAtNanos() {
        return injectedAtNanos;
    }

    List<String> errors() {
        synchronized (errors) {
            return List.copyOf(errors);
        }
    }
}
