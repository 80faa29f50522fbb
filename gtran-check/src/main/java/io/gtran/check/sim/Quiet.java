package io.gtran.check.sim;

/**
 * Turns gtran's logging off for a simulation: thousands of schedules of partitions and crashes
 * would print the warnings the real code rightly logs for each. What a schedule got wrong is
 * reported by its invariants.
 */
final class Quiet {
    private Quiet() {
    }

    static void logging() {
        org.slf4j.Logger logger = org.slf4j.LoggerFactory.getLogger("io.gtran");
        if (logger instanceof ch.qos.logback.classic.Logger logback) {
            logback.setLevel(ch.qos.logback.classic.Level.OFF);
        }
    }
}
