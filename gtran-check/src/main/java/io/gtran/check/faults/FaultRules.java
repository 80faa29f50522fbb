package io.gtran.check.faults;

import io.gtran.check.fabric.FaultPlan;
import io.gtran.rdma.Fabric;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The faults a node's control file asks for ({@link FaultControl}), parsed. One {@code key=value}
 * a line; {@code #} starts a comment; blank lines are ignored; each key at most once:
 *
 * <pre>
 * cut=1,2            # drop what this node sends to nodes 1 and 2, fail its region access to them
 * delay-to=1,2       # the nodes delay-ms and loss apply to (required if either is given)
 * delay-ms=20-80     # one-way delay drawn uniformly from [20, 80] ms; N means N-N
 * loss=0.05          # probability that a message to a delay-to node is dropped
 * seed=7             # seed of the random choices (default 1)
 * clock-offset-ms=-2000   # added to this node's wall clock; 0 is true time
 * </pre>
 *
 * An empty text is {@link #NONE}: no faults, offset 0.
 */
record FaultRules(SortedSet<Integer> cut, SortedSet<Integer> delayTo, long delayMinMs, long delayMaxMs, double loss,
        long seed, long clockOffsetMs) {
    static final long DEFAULT_SEED = 1;
    /** The largest clock jump either way: a year. */
    static final long MAX_CLOCK_OFFSET_MS = 365L * 24 * 3600 * 1000;
    static final FaultRules NONE = new FaultRules(new TreeSet<>(), new TreeSet<>(), 0, 0, 0, DEFAULT_SEED, 0);

    static final String CUT = "cut";
    static final String DELAY_TO = "delay-to";
    static final String DELAY_MS = "delay-ms";
    static final String LOSS = "loss";
    static final String SEED = "seed";
    static final String CLOCK_OFFSET_MS = "clock-offset-ms";
    private static final Set<String> KEYS = Set.of(CUT, DELAY_TO, DELAY_MS, LOSS, SEED, CLOCK_OFFSET_MS);

    FaultRules {
        cut = Collections.unmodifiableSortedSet(new TreeSet<>(cut));
        delayTo = Collections.unmodifiableSortedSet(new TreeSet<>(delayTo));
    }

    /** A line of a control file that cannot be applied: its number (from 1) and what is wrong. */
    static final class Malformed extends IllegalArgumentException {
        final int line;

        Malformed(int line, String problem) {
            super("line " + line + ": " + problem);
            this.line = line;
        }
    }

    /**
     * Parses a control file's text for node {@code self}.
     *
     * @throws Malformed naming the first bad line: no {@code =}, an unknown or repeated key, a value
     *     that is not what its key takes, {@code self} among the nodes, or delay-ms or loss without delay-to
     */
    static FaultRules parse(String text, int self) {
        SortedSet<Integer> cut = new TreeSet<>();
        SortedSet<Integer> delayTo = new TreeSet<>();
        long delayMin = 0;
        long delayMax = 0;
        double loss = 0;
        long seed = DEFAULT_SEED;
        long offset = 0;
        Set<String> seen = new HashSet<>();
        int delayLine = 0; // the first line of delay-ms or loss, which need delay-to
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int number = i + 1;
            String line = lines[i];
            int hash = line.indexOf('#');
            line = (hash >= 0 ? line.substring(0, hash) : line).trim();
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 0) {
                throw new Malformed(number, "not key=value: " + line);
            }
            String key = line.substring(0, eq).trim();
            String value = line.substring(eq + 1).trim();
            if (!KEYS.contains(key)) {
                throw new Malformed(number, "unknown key: " + key + "=" + value + " (keys: " + new TreeSet<>(KEYS) + ")");
            }
            if (!seen.add(key)) {
                throw new Malformed(number, "key given twice: " + key + "=" + value);
            }
            switch (key) {
                case CUT -> cut = nodes(number, key, value, self);
                case DELAY_TO -> delayTo = nodes(number, key, value, self);
                case DELAY_MS -> {
                    long[] range = delayRange(number, value);
                    delayMin = range[0];
                    delayMax = range[1];
                    delayLine = delayLine == 0 ? number : delayLine;
                }
                case LOSS -> {
                    loss = probability(number, value);
                    delayLine = delayLine == 0 ? number : delayLine;
                }
                case SEED -> seed = number(number, key, value, Long.MIN_VALUE, Long.MAX_VALUE);
                default -> offset = number(number, key, value, -MAX_CLOCK_OFFSET_MS, MAX_CLOCK_OFFSET_MS);
            }
        }
        if (delayLine != 0 && delayTo.isEmpty()) {
            throw new Malformed(delayLine, DELAY_MS + " and " + LOSS + " need " + DELAY_TO + "=NODES, the nodes they apply to");
        }
        return new FaultRules(cut, delayTo, delayMin, delayMax, loss, seed, offset);
    }

    /** The whole rule set, for the log: {@code cut=[2] delay-to=[] delay-ms=0-0 loss=0.0 seed=1 clock-offset-ms=0}. */
    String describe() {
        return CUT + "=" + cut + " " + DELAY_TO + "=" + delayTo + " " + DELAY_MS + "=" + delayMinMs + "-" + delayMaxMs + " "
                + LOSS + "=" + loss + " " + SEED + "=" + seed + " " + CLOCK_OFFSET_MS + "=" + clockOffsetMs;
    }

    /** A comma-separated list of node ids, other than {@code self}; empty for none. */
    private static SortedSet<Integer> nodes(int line, String key, String value, int self) {
        SortedSet<Integer> nodes = new TreeSet<>();
        if (value.isEmpty()) {
            return nodes;
        }
        for (String part : value.split(",", -1)) {
            int node = (int) number(line, key, part.trim(), 0, Fabric.MAX_NODE);
            if (node == self) {
                throw new Malformed(line, key + "=" + value + " names this node (" + self + "); name the other nodes");
            }
            nodes.add(node);
        }
        return nodes;
    }

    /** {@code MIN-MAX} or {@code N} (N-N), in milliseconds, at most {@link FaultPlan#MAX_DELAY}. */
    private static long[] delayRange(int line, String value) {
        int dash = value.indexOf('-', 1);
        long max = FaultPlan.MAX_DELAY.toMillis();
        long min = number(line, DELAY_MS, dash < 0 ? value : value.substring(0, dash).trim(), 0, max);
        long high = dash < 0 ? min : number(line, DELAY_MS, value.substring(dash + 1).trim(), 0, max);
        if (min > high) {
            throw new Malformed(line, DELAY_MS + "=" + value + ": the range is empty (MIN > MAX)");
        }
        return new long[] {min, high};
    }

    private static double probability(int line, String value) {
        try {
            double p = Double.parseDouble(value);
            if (p >= 0 && p <= 1) {
                return p;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new Malformed(line, LOSS + "=" + value + ": not a probability from 0 to 1");
    }

    private static long number(int line, String key, String value, long min, long max) {
        try {
            long n = Long.parseLong(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new Malformed(line, key + "=" + value + ": not a whole number from " + min + " to " + max);
    }
}
