package io.gtran.check.sim;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** The kinds of fault a simulated schedule draws from ({@code --faults}). */
enum Fault {
    /** Links slower by up to 50 ms a message. */
    DELAY,
    /** Links that drop 5-50% of messages. */
    LOSS,
    /** Links that deliver 5-50% of messages twice. */
    DUPLICATE,
    /** Links whose messages overtake each other (the fabric promises order per link: off by default). */
    REORDER,
    /** The nodes cut into two groups, both ways. */
    PARTITION,
    /** One direction between two nodes cut. */
    ONEWAY,
    /** A node that stops for a while, then goes on where it was. */
    PAUSE,
    /** A node that stops for good (crash-stop; a minority at most). */
    CRASH,
    /** Clocks that run up to 500 ppm fast or slow, from different origins. */
    DRIFT;

    /** Every kind but {@link #REORDER}. */
    static final Set<Fault> DEFAULT = EnumSet.complementOf(EnumSet.of(REORDER));

    /**
     * Parses a comma-separated list of kinds ({@code delay,partition}), {@code all} or {@code none}.
     *
     * @throws IllegalArgumentException naming the unknown kind and the known ones
     */
    static Set<Fault> parse(String list) {
        String trimmed = list.trim().toLowerCase(Locale.ROOT);
        if (trimmed.equals("all")) {
            return EnumSet.allOf(Fault.class);
        }
        if (trimmed.equals("none")) {
            return EnumSet.noneOf(Fault.class);
        }
        Set<Fault> faults = EnumSet.noneOf(Fault.class);
        for (String part : trimmed.split(",")) {
            try {
                faults.add(valueOf(part.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--faults names an unknown fault '" + part.trim() + "' in '" + list
                        + "'; known: all, none, " + EnumSet.allOf(Fault.class).toString().toLowerCase(Locale.ROOT));
            }
        }
        return faults;
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
