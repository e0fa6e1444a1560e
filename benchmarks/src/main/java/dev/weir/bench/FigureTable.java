package dev.weir.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;

/**
 * The one table {@code weir bench} prints: figure, Weir, baseline, ratio, unit; plus the formats its
 * cells use. Rows are printed in the order they were added, figures and units left-aligned, numbers
 * right-aligned. Not thread-safe: one owner thread.
 */
final class FigureTable
{
    static final String NONE = "—";

    private static final String[] HEADER = {"figure", "Weir", "baseline", "ratio", "unit"};

    private final List<String[]> rows = new ArrayList<>();

    void row(final String figure, final String weir, final String baseline, final String ratio, final String unit)
    {
        rows.add(new String[] {figure, weir, baseline, ratio, unit});
    }

    void print(final PrintStream out)
    {
        final int[] width = new int[HEADER.length];
        for (int c = 0; c < HEADER.length; c++)
        {
            width[c] = HEADER[c].length();
            for (final String[] row : rows)
            {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        out.println();
        printRow(out, HEADER, width);
        final String[] rule = new String[HEADER.length];
        for (int c = 0; c < HEADER.length; c++)
        {
            rule[c] = "-".repeat(width[c]);
        }
        printRow(out, rule, width);
        for (final String[] row : rows)
        {
            printRow(out, row, width);
        }
    }

    static String millions(final double perSecond)
    {
        return Double.isNaN(perSecond) ? "n/a" : String.format("%.2f M", perSecond / 1e6);
    }

    static String bytes(final double value)
    {
        return Double.isNaN(value) ? "n/a" : String.format("%.3f", value);
    }

    static String ratio(final double a, final double b)
    {
        return Double.isNaN(a) || Double.isNaN(b) || b == 0 ? "n/a" : String.format("%.2fx", a / b);
    }

    static String percentiles(final Histogram h)
    {
        return String.format("%,.1f / %,.1f / %,.1f / %,.1f", h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0,
            h.getValueAtPercentile(99.99) / 1000.0, h.getMaxValue() / 1000.0);
    }

    private static void printRow(final PrintStream out, final String[] cells, final int[] width)
    {
        final StringBuilder line = new StringBuilder("|");
        for (int c = 0; c < cells.length; c++)
        {
            final String format = c == 0 || c == cells.length - 1 ? " %-" + width[c] + "s |" : " %" + width[c] + "s |";
            line.append(String.format(format, cells[c]));
        }
        out.println(line);
    }
}
