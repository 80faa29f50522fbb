package io.gtran.lbv.driver;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;
import javax.imageio.ImageIO;

/**
 * Grouped bar charts of a {@code --compare} run, drawn with Java2D (headless): one group per
 * workload, one bar per system run, each bar labelled with its value.
 */
final class Charts {
    private static final int WIDTH = 1200;
    private static final int HEIGHT = 640;
    private static final int LEFT = 90;
    private static final int RIGHT = 220;
    private static final int TOP = 60;
    private static final int BOTTOM = 70;
    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
        new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f),
        new Color(0xbcbd22), new Color(0x17becf)};

    private Charts() {
    }

    /**
     * Draws {@code values[series][group]} (NaN: no bar) to {@code file}.
     *
     * @param logScale whether the value axis is logarithmic (throughputs spanning orders of magnitude)
     */
    static void groupedBars(Path file, String title, String axis, List<String> groups, List<String> series,
                            double[][] values, boolean logScale, String valueFormat) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        g.drawString(title, LEFT, 35);

        double max = 0;
        double minPositive = Double.MAX_VALUE;
        for (double[] row : values) {
            for (double v : row) {
                if (!Double.isNaN(v)) {
                    max = Math.max(max, v);
                    if (v > 0) {
                        minPositive = Math.min(minPositive, v);
                    }
                }
            }
        }
        int plotHeight = HEIGHT - TOP - BOTTOM;
        int plotWidth = WIDTH - LEFT - RIGHT;
        double top = logScale ? Math.pow(10, Math.ceil(Math.log10(Math.max(max, 1)))) : niceCeiling(max);
        double bottom = logScale ? Math.pow(10, Math.floor(Math.log10(Math.min(minPositive, top) / 1.0001))) : 0;
        if (logScale && bottom >= top) {
            bottom = top / 10;
        }
        double low = bottom;
        double high = top;
        DoubleUnaryOperator y = logScale
                ? v -> TOP + plotHeight * (1 - (Math.log10(Math.max(v, low)) - Math.log10(low))
                        / (Math.log10(high) - Math.log10(low)))
                : v -> TOP + plotHeight * (1 - v / high);

        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setStroke(new BasicStroke(1));
        List<Double> ticks = new java.util.ArrayList<>();
        if (logScale) {
            for (double t = bottom; t <= top * 1.0001; t *= 10) {
                ticks.add(t);
            }
        } else {
            for (int i = 0; i <= 5; i++) {
                ticks.add(top * i / 5);
            }
        }
        for (double tick : ticks) {
            int ty = (int) y.applyAsDouble(tick);
            g.setColor(new Color(0xdddddd));
            g.drawLine(LEFT, ty, LEFT + plotWidth, ty);
            g.setColor(Color.DARK_GRAY);
            String text = String.format(Locale.ROOT, valueFormat, tick);
            g.drawString(text, LEFT - 8 - g.getFontMetrics().stringWidth(text), ty + 4);
        }
        g.setColor(Color.BLACK);
        g.drawLine(LEFT, TOP, LEFT, TOP + plotHeight);
        g.drawLine(LEFT, TOP + plotHeight, LEFT + plotWidth, TOP + plotHeight);
        Graphics2D rotated = (Graphics2D) g.create();
        rotated.rotate(-Math.PI / 2);
        rotated.drawString(axis + (logScale ? " (log scale)" : ""), -(TOP + plotHeight / 2 + 60), 20);
        rotated.dispose();

        int groupWidth = plotWidth / Math.max(1, groups.size());
        int barWidth = Math.max(4, (groupWidth - 20) / Math.max(1, series.size()));
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        for (int gi = 0; gi < groups.size(); gi++) {
            int x0 = LEFT + gi * groupWidth + 10;
            for (int si = 0; si < series.size(); si++) {
                double v = values[si][gi];
                if (Double.isNaN(v)) {
                    continue;
                }
                int x = x0 + si * barWidth;
                int yTop = (int) y.applyAsDouble(v);
                g.setColor(PALETTE[si % PALETTE.length]);
                g.fillRect(x, yTop, barWidth - 2, TOP + plotHeight - yTop);
                g.setColor(Color.BLACK);
                String text = String.format(Locale.ROOT, valueFormat, v);
                Graphics2D label = (Graphics2D) g.create();
                label.rotate(-Math.PI / 2, x + barWidth / 2.0 + 3, yTop - 4);
                label.drawString(text, x + barWidth / 2 + 3, yTop - 4);
                label.dispose();
            }
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
            String name = groups.get(gi);
            g.drawString(name, x0 + (groupWidth - 20 - g.getFontMetrics().stringWidth(name)) / 2, TOP + plotHeight + 22);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        }
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (int si = 0; si < series.size(); si++) {
            int ly = TOP + 10 + si * 20;
            g.setColor(PALETTE[si % PALETTE.length]);
            g.fillRect(WIDTH - RIGHT + 20, ly, 14, 14);
            g.setColor(Color.BLACK);
            g.drawString(series.get(si), WIDTH - RIGHT + 40, ly + 12);
        }
        g.dispose();
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer for " + file);
        }
    }

    private static double niceCeiling(double max) {
        if (max <= 0) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(max)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= max) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }
}
