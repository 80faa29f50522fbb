package io.gtran.bench.gc;

import io.gtran.bench.gc.GcBenchmark.ModeResult;
import io.gtran.bench.gc.GcBenchmark.Sample;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/**
 * Draws the GC benchmark's PNG with java.awt alone (headless): three panels over the same time
 * axis, each with one coloured line per mode, a legend, axis labels and tick values: live MV
 * versions of every mode; the same for the modes with GC on alone, on their own scale (next to GC
 * off they are a flat line at the bottom); reserved pool memory (MB) of every mode.
 */
final class GcPlot {
    private static final int WIDTH = 1100;
    private static final int PANEL_HEIGHT = 300;
    private static final int TOP = 50;
    private static final int GAP = 70;
    private static final int LEFT = 100;
    private static final int RIGHT = 30;
    private static final int BOTTOM = 60;
    private static final Color[] COLOURS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd)};
    private static final Color GRID = new Color(0xe0e0e0);

    private GcPlot() {
    }

    /** Writes the plot of {@code results} to {@code file}, creating its parent directories. */
    static void write(Path file, List<ModeResult> results, String title) throws IOException {
        System.setProperty("java.awt.headless", "true");
        int height = TOP + 3 * PANEL_HEIGHT + 2 * GAP + BOTTOM;
        BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, height);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
            centre(g, title, WIDTH / 2, 30);
            double maxT = 0;
            for (ModeResult r : results) {
                maxT = Math.max(maxT, r.last().seconds());
            }
            boolean[] all = new boolean[results.size()];
            boolean[] gcOn = new boolean[results.size()];
            for (int m = 0; m < results.size(); m++) {
                all[m] = true;
                gcOn[m] = results.get(m).mode().equals("on");
            }
            int top = TOP;
            panel(g, results, all, top, maxT, "live MV versions", Sample::liveVersions);
            top += PANEL_HEIGHT + GAP;
            panel(g, results, gcOn, top, maxT, "live MV versions, GC on", Sample::liveVersions);
            top += PANEL_HEIGHT + GAP;
            panel(g, results, all, top, maxT, "reserved pool memory (MB)", s -> s.reservedBytes() / 1e6);
        } finally {
            g.dispose();
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer available");
        }
    }

    /** One panel: the modes {@code shown} (colours stay those of their index in {@code results}). */
    private static void panel(Graphics2D g, List<ModeResult> results, boolean[] shown, int top, double maxT, String yLabel,
            ToDoubleFunction<Sample> y) {
        int left = LEFT;
        int right = WIDTH - RIGHT;
        int bottom = top + PANEL_HEIGHT - 40;
        double maxY = 0;
        for (int m = 0; m < results.size(); m++) {
            for (Sample s : shown[m] ? results.get(m).samples() : List.<Sample>of()) {
                maxY = Math.max(maxY, y.applyAsDouble(s));
            }
        }
        double[] xTicks = ticks(maxT, 0.1); // a run ends a little after its requested length
        double[] yTicks = ticks(maxY, 0);
        double xMax = xTicks[xTicks.length - 1];
        double yMax = yTicks[yTicks.length - 1];
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        FontMetrics fm = g.getFontMetrics();
        // grid and tick values
        for (double t : xTicks) {
            int x = left + (int) Math.round(t / xMax * (right - left));
            g.setColor(GRID);
            g.drawLine(x, top, x, bottom);
            g.setColor(Color.BLACK);
            g.drawLine(x, bottom, x, bottom + 5);
            centre(g, format(t), x, bottom + 5 + fm.getAscent());
        }
        for (double v : yTicks) {
            int yy = bottom - (int) Math.round(v / yMax * (bottom - top));
            g.setColor(GRID);
            g.drawLine(left, yy, right, yy);
            g.setColor(Color.BLACK);
            g.drawLine(left - 5, yy, left, yy);
            String label = format(v);
            g.drawString(label, left - 8 - fm.stringWidth(label), yy + fm.getAscent() / 2 - 1);
        }
        g.setColor(Color.BLACK);
        g.drawRect(left, top, right - left, bottom - top);
        centre(g, "time (s)", (left + right) / 2, bottom + 10 + 2 * fm.getHeight());
        Graphics2D rotated = (Graphics2D) g.create();
        rotated.rotate(-Math.PI / 2);
        rotated.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        centre(rotated, yLabel, -(top + bottom) / 2, 22);
        rotated.dispose();
        // one line per mode
        Graphics2D lines = (Graphics2D) g.create();
        lines.clipRect(left, top, right - left + 1, bottom - top + 1); // the run may end a hair after the last tick
        lines.setStroke(new BasicStroke(2.2f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        for (int m = 0; m < results.size(); m++) {
            if (!shown[m]) {
                continue;
            }
            Path2D.Double line = new Path2D.Double();
            boolean first = true;
            for (Sample s : results.get(m).samples()) {
                double x = left + s.seconds() / xMax * (right - left);
                double yy = bottom - y.applyAsDouble(s) / yMax * (bottom - top);
                if (first) {
                    line.moveTo(x, yy);
                    first = false;
                } else {
                    line.lineTo(x, yy);
                }
            }
            lines.setColor(COLOURS[m % COLOURS.length]);
            lines.draw(line);
        }
        lines.dispose();
        legend(g, results, shown, left + 15, top + 12);
        g.setStroke(new BasicStroke(1f));
    }

    private static void legend(Graphics2D g, List<ModeResult> results, boolean[] shown, int x, int y) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        FontMetrics fm = g.getFontMetrics();
        int width = 0;
        int rows = 0;
        for (int m = 0; m < results.size(); m++) {
            if (shown[m]) {
                width = Math.max(width, fm.stringWidth(legendText(results.get(m))));
                rows++;
            }
        }
        int rowHeight = fm.getHeight() + 4;
        g.setColor(new Color(255, 255, 255, 230));
        g.fillRect(x, y, width + 50, rowHeight * rows + 8);
        g.setColor(Color.GRAY);
        g.setStroke(new BasicStroke(1f));
        g.drawRect(x, y, width + 50, rowHeight * rows + 8);
        int row = 0;
        for (int m = 0; m < results.size(); m++) {
            if (!shown[m]) {
                continue;
            }
            int rowY = y + 4 + row++ * rowHeight + rowHeight / 2;
            g.setColor(COLOURS[m % COLOURS.length]);
            g.setStroke(new BasicStroke(3f));
            g.drawLine(x + 8, rowY, x + 36, rowY);
            g.setColor(Color.BLACK);
            g.drawString(legendText(results.get(m)), x + 42, rowY + fm.getAscent() / 2 - 2);
        }
    }

    private static String legendText(ModeResult r) {
        return String.format(Locale.ROOT, "GC %s (%,.0f commits/s)", r.mode(), r.commits() / r.seconds());
    }

    /**
     * Tick values 0, step, 2 step, ... up to the first at or above {@code max}, or up to the one
     * {@code max} exceeds by less than {@code slack} steps; the step is 1, 2 or 5 times a power of
     * ten.
     */
    static double[] ticks(double max, double slack) {
        if (!(max > 0)) {
            return new double[] {0, 1};
        }
        double rough = max / 6;
        double power = Math.pow(10, Math.floor(Math.log10(rough)));
        double step = rough / power <= 1 ? power : rough / power <= 2 ? 2 * power : rough / power <= 5 ? 5 * power : 10 * power;
        int n = Math.max(1, (int) Math.ceil(max / step - Math.max(slack, 1e-9)));
        double[] ticks = new double[n + 1];
        for (int i = 0; i <= n; i++) {
            ticks[i] = i * step;
        }
        return ticks;
    }

    /** A tick value: 12, 2.5, 40k, 1.5M. */
    static String format(double v) {
        double abs = Math.abs(v);
        if (abs >= 1e6) {
            return trim(v / 1e6) + "M";
        }
        if (abs >= 1e4) {
            return trim(v / 1e3) + "k";
        }
        return trim(v);
    }

    private static String trim(double v) {
        String s = String.format(Locale.ROOT, "%.2f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    private static void centre(Graphics2D g, String text, int x, int y) {
        g.drawString(text, x - g.getFontMetrics().stringWidth(text) / 2, y);
    }
}
