package io.gtran.lbv.driver;

import java.io.PrintStream;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a child's {@code LBV_*} lines into progress: a bar while loading ({@code LBV_PROGRESS
 * vertices=v/V edges=e/E}) and while a measured phase runs (by the clock, from its
 * {@code LBV_PHASE ... seconds=D}), and the child's own milestone lines. On a terminal the bar is
 * redrawn in place; otherwise a line is printed at every tenth.
 */
final class ProgressBar {
    private static final Pattern LOADING = Pattern.compile("vertices=(\\d+)/(\\d+) edges=(\\d+)/(\\d+)");
    private static final Pattern PHASE = Pattern.compile("phase=(\\S+).*seconds=([0-9.]+)");
    private static final int WIDTH = 30;

    private final PrintStream out;
    private final String label;
    private final boolean terminal = System.console() != null;
    private int lastTenth = -1;
    private String phase;
    private long phaseStart;
    private double phaseSeconds;

    ProgressBar(PrintStream out, String label) {
        this.out = out;
        this.label = label;
    }

    synchronized void onLine(String line) {
        if (line.startsWith("LBV_PROGRESS")) {
            Matcher m = LOADING.matcher(line);
            if (m.find()) {
                double done = Long.parseLong(m.group(1)) + Long.parseLong(m.group(3));
                double total = Math.max(1, Long.parseLong(m.group(2)) + Long.parseLong(m.group(4)));
                draw("loading", done / total, String.format(Locale.ROOT, "%s/%s vertices, %s/%s edges", m.group(1),
                        m.group(2), m.group(3), m.group(4)));
            }
            tickPhase();
        } else if (line.startsWith("LBV_PHASE")) {
            Matcher m = PHASE.matcher(line);
            endLine();
            say(line);
            if (m.find()) {
                phase = m.group(1);
                phaseSeconds = Double.parseDouble(m.group(2));
                phaseStart = System.nanoTime();
                lastTenth = -1;
            }
        } else if (line.startsWith("LBV_") && !line.startsWith("LBV_RESULT")) {
            endLine();
            say(line);
        } else {
            tickPhase();
        }
    }

    /** Redraws the phase bar by the clock; called on any child output and by {@link #done}. */
    synchronized void tickPhase() {
        if (phase != null && phaseSeconds > 0) {
            double fraction = Math.min(1, (System.nanoTime() - phaseStart) / 1e9 / phaseSeconds);
            draw(phase, fraction, String.format(Locale.ROOT, "%.0f/%.0f s", fraction * phaseSeconds, phaseSeconds));
        }
    }

    synchronized void done() {
        endLine();
    }

    private void draw(String what, double fraction, String detail) {
        int tenth = (int) (fraction * 10);
        if (!terminal && tenth == lastTenth) {
            return;
        }
        lastTenth = tenth;
        int filled = (int) Math.round(fraction * WIDTH);
        String bar = String.format(Locale.ROOT, "[%s] %-8s [%s%s] %3.0f%% %s", label, what, "#".repeat(filled),
                ".".repeat(WIDTH - filled), fraction * 100, detail);
        if (terminal) {
            out.print("\r" + bar);
        } else {
            out.println(bar);
        }
        out.flush();
    }

    private void endLine() {
        if (terminal) {
            out.println();
        }
    }

    private void say(String line) {
        out.println("[" + label + "] " + line);
    }
}
