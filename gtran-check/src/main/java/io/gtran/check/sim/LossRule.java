package io.gtran.check.sim;

import java.util.Locale;

/** What decides that a node is lost, in a simulated schedule ({@code --loss-rule}). */
enum LossRule {
    /** The membership group's log ({@code MemberGroup} over a {@link SimGroup}): what a real cluster runs. */
    GROUP,
    /** Each node for itself, if it heard from a majority lately ({@code HeardMajority}): the control run. */
    HEARD;

    static LossRule parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--loss-rule must be group or heard: --loss-rule " + value);
        }
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
