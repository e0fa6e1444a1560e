package dev.weir.files;

import java.nio.charset.StandardCharsets;

import dev.weir.journal.codec.LateFields;
import dev.weir.journal.codec.ResultFields;
import dev.weir.journal.codec.ResultKind;
import dev.weir.journal.files.TextBytes;

/**
 * Writes rows straight into a {@link TextBytes} buffer: results as CSV or JSON lines and late events as
 * CSV, with the same bytes as the text of their {@link ResultRow} (which stays the reference), line end
 * included. Numbers are written as ASCII digits, decimals at their scale, and a key's fields are encoded
 * once per key id ({@link KeyBytes}), instants as epoch milliseconds or ISO-8601 text ({@link IsoTimes}), named aggregates
 * as {@link ResultRow} shows them (an empty value as an empty field or {@code null}); nothing is allocated
 * per row once every key was seen (an instant after year 9999 excepted).
 * <p>
 * Not thread-safe: one writer thread, the one that may read the key text.
 */
final class RowWriter
{
    private static final byte[] JSON_WINDOW_START = ascii("{\"window_start\":");
    private static final byte[] JSON_WINDOW_END = ascii(",\"window_end\":");
    private static final byte[] JSON_COUNT = ascii(",\"count\":");
    private static final byte[] JSON_SUM = ascii(",\"sum\":");
    private static final byte[] JSON_MIN = ascii(",\"min\":");
    private static final byte[] JSON_MAX = ascii(",\"max\":");
    private static final byte[] JSON_VERSION = ascii(",\"version\":");
    private static final byte[] JSON_KIND = ascii(",\"kind\":\"");
    private static final byte[] JSON_NULL = ascii("null");
    private static final ResultKind[] KINDS = ResultKind.values();

    private final KeyBytes keys;
    private final int valueScale;
    private final int[] aggregateScales;
    private final byte[][] jsonAggregates;
    private final byte[][] kindLabels = new byte[KINDS.length][];
    /** Whether rows show named aggregates ({@link ResultRow#named}): no count, sum, min and max, an empty value possible. */
    private final boolean named;
    private final boolean withKind;
    private final boolean isoTimes;
    private final byte[] time = new byte[IsoTimes.MAX_LENGTH];
    /** The window of the last row, whose prefix the next rows of the same window copy. */
    private final WindowPrefix csvWindow;
    private final WindowPrefix jsonWindow;

    RowWriter(final ResultRow format, final int valueScale, final String[] aggregateNames, final int[] aggregateScales, final boolean named,
        final boolean withKind, final boolean isoTimes)
    {
        this.named = named;
        this.csvWindow = new WindowPrefix(new byte[0], ascii(","), ascii(","), isoTimes);
        this.jsonWindow = isoTimes // an ISO instant is a JSON string
            ? new WindowPrefix(ascii("{\"window_start\":\""), ascii("\",\"window_end\":\""), ascii("\""), true)
            : new WindowPrefix(JSON_WINDOW_START, JSON_WINDOW_END, new byte[0], false);
        this.isoTimes = isoTimes;
        this.keys = new KeyBytes(format);
        this.valueScale = valueScale;
        this.aggregateScales = aggregateScales.clone();
        this.jsonAggregates = new byte[aggregateNames.length][];
        for (int i = 0; i < aggregateNames.length; i++)
        {
            jsonAggregates[i] = (",\"" + aggregateNames[i] + "\":").getBytes(StandardCharsets.UTF_8);
        }
        for (final ResultKind kind : KINDS)
        {
            kindLabels[kind.ordinal()] = ascii(kind.label());
        }
        this.withKind = withKind;
    }

    /**
     * Write one result as a CSV row and its line end.
     *
     * @param out where to write.
     * @param r   the result.
     */
    void csv(final TextBytes out, final ResultFields r)
    {
        if (named)
        {
            namedCsv(out, r);
            return;
        }
        csvWindow.write(out, r.windowStart(), r.windowEnd()).put(keys.csv(r.keyId())).put((byte)',')
            .number(r.count()).put((byte)',')
            .scaled(r.sum(), valueScale).put((byte)',')
            .scaled(r.min(), valueScale).put((byte)',')
            .scaled(r.max(), valueScale).put((byte)',')
            .number(r.version());
        if (withKind)
        {
            out.put((byte)',').put(kindLabels[r.kind().ordinal()]);
        }
        for (int i = 0; i < aggregateScales.length; i++)
        {
            out.put((byte)',').scaled(r.aggregate(i), aggregateScales[i]);
        }
        out.put((byte)'\n');
    }

    /**
     * Write one result as a JSON object and its line end.
     *
     * @param out where to write.
     * @param r   the result.
     */
    void json(final TextBytes out, final ResultFields r)
    {
        if (named)
        {
            namedJson(out, r);
            return;
        }
        jsonWindow.write(out, r.windowStart(), r.windowEnd()).put(keys.json(r.keyId()))
            .put(JSON_COUNT).number(r.count())
            .put(JSON_SUM).scaled(r.sum(), valueScale)
            .put(JSON_MIN).scaled(r.min(), valueScale)
            .put(JSON_MAX).scaled(r.max(), valueScale)
            .put(JSON_VERSION).number(r.version());
        if (withKind)
        {
            out.put(JSON_KIND).put(kindLabels[r.kind().ordinal()]).put((byte)'"');
        }
        for (int i = 0; i < aggregateScales.length; i++)
        {
            out.put(jsonAggregates[i]).scaled(r.aggregate(i), aggregateScales[i]);
        }
        out.put((byte)'}').put((byte)'\n');
    }

    private void namedCsv(final TextBytes out, final ResultFields r)
    {
        csvWindow.write(out, r.windowStart(), r.windowEnd()).put(keys.csv(r.keyId()));
        final long present = ResultRow.presence(r, aggregateScales.length);
        for (int i = 0; i < aggregateScales.length; i++)
        {
            out.put((byte)',');
            if ((present >>> i & 1) != 0)
            {
                out.scaled(r.aggregate(i), aggregateScales[i]);
            }
        }
        out.put((byte)',').number(r.version());
        if (withKind)
        {
            out.put((byte)',').put(kindLabels[r.kind().ordinal()]);
        }
        out.put((byte)'\n');
    }

    private void namedJson(final TextBytes out, final ResultFields r)
    {
        jsonWindow.write(out, r.windowStart(), r.windowEnd()).put(keys.json(r.keyId()));
        final long present = ResultRow.presence(r, aggregateScales.length);
        for (int i = 0; i < aggregateScales.length; i++)
        {
            out.put(jsonAggregates[i]);
            if ((present >>> i & 1) != 0)
            {
                out.scaled(r.aggregate(i), aggregateScales[i]);
            }
            else
            {
                out.put(JSON_NULL);
            }
        }
        out.put(JSON_VERSION).number(r.version());
        if (withKind)
        {
            out.put(JSON_KIND).put(kindLabels[r.kind().ordinal()]).put((byte)'"');
        }
        out.put((byte)'}').put((byte)'\n');
    }

    /**
     * Write one late event as a CSV row and its line end.
     *
     * @param out where to write.
     * @param e   the late event.
     */
    void late(final TextBytes out, final LateFields e)
    {
        out.number(e.eventId()).put((byte)',');
        (isoTimes ? out.put(time, IsoTimes.write(e.eventTime(), time, 0)) : out.number(e.eventTime())).put((byte)',').put(keys.csv(e.keyId()));
        if (!named)
        {
            out.put((byte)',').scaled(e.value(), valueScale);
        }
        out.put((byte)'\n');
    }

    private static byte[] ascii(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The text before a row's key, {@code START,END,} or {@code {"window_start":START,"window_end":END} (each instant
     * quoted when it is ISO-8601 text), kept
     * for the window of the last row: the rows of one window (thousands when windows fire for many keys at
     * once) copy it instead of writing the same two numbers again.
     */
    private static final class WindowPrefix
    {
        private final byte[] text = new byte[128];
        private final byte[] before;
        private final byte[] between;
        private final byte[] after;
        private final boolean isoTimes;
        private long start;
        private long end;
        private int length = -1;

        WindowPrefix(final byte[] before, final byte[] between, final byte[] after, final boolean isoTimes)
        {
            this.before = before;
            this.between = between;
            this.after = after;
            this.isoTimes = isoTimes;
        }

        TextBytes write(final TextBytes out, final long windowStart, final long windowEnd)
        {
            if (length < 0 || windowStart != start || windowEnd != end)
            {
                int at = copy(before, 0);
                at = isoTimes ? IsoTimes.write(windowStart, text, at) : TextBytes.number(windowStart, text, at);
                at = copy(between, at);
                at = isoTimes ? IsoTimes.write(windowEnd, text, at) : TextBytes.number(windowEnd, text, at);
                length = copy(after, at);
                start = windowStart;
                end = windowEnd;
            }
            return out.put(text, length);
        }

        private int copy(final byte[] from, final int at)
        {
            System.arraycopy(from, 0, text, at, from.length);
            return at + from.length;
        }
    }
}
