package dev.weir.files;

import java.math.BigDecimal;

import dev.weir.engine.emit.WindowResult;
import dev.weir.journal.codec.LateFields;
import dev.weir.journal.codec.ResultFields;
import dev.weir.journal.files.CsvText;

/**
 * The text of one pipeline's rows: results in the results CSV
 * ({@code window_start,window_end,KEY,count,sum,min,max,version}, then {@code aggregate} when the run has
 * a user aggregation, or a column per aggregation, named after it, when it has several; with update or early
 * rows a {@code kind} column after {@code version}: {@link #withKinds()}) or as one JSON
 * object with the same fields, and late events
 * ({@code event_id,event_time,KEY,VALUE}), where KEY is the names of the pipeline's key columns (one
 * field each) and VALUE the name of its value column ({@code key} and {@code value} by default, which gives the files of before columns
 * existed). A mean (the {@code average} aggregation) is printed at the value's scale too. A key reads back through its column's dictionary and is quoted as RFC 4180 (CSV) or escaped
 * (JSON) where it needs it; a decimal value column's sum, min, max and late values are printed at its
 * scale ({@code 1234} at scale 2 is {@code 12.34}). Instants are epoch milliseconds, or ISO-8601 UTC text
 * ({@link #withIsoTimes()}).
 * <p>
 * With named aggregates ({@code --aggregates}) rows show the aggregates instead:
 * {@code window_start,window_end,KEY,NAME1,...,NAMEn,version} (and {@code kind}), each at its scale, an empty field
 * (JSON {@code null}) when the window has no value for it; late events are {@code event_id,event_time,KEY}: such a
 * pipeline has no value column. A stored result carries the N values, then the mask of those present
 * ({@link #presence}).
 * <p>
 * The text is the reference; the files are written with the same bytes by its {@code writer()}. Made by
 * {@link RowColumns#rows}.
 * <p>
 * Immutable; thread-safe if its key lookup is (a dictionary read on the thread that owns it).
 */
public final class ResultRow
{
    /** The results CSV header of the default columns, without a user aggregation (DESIGN.md's format). */
    public static final String HEADER = "window_start,window_end,key,count,sum,min,max,version";

    private final KeyColumns keys;
    private final String valueName;
    private final int valueScale;
    private final String[] aggregateNames;
    private final int[] aggregateScales;
    private final boolean named;
    private final boolean withKind;
    private final boolean isoTimes;

    /**
     * @param keys          the key columns' names and a key id's text in each.
     * @param valueName     the value column's name.
     * @param valueScale    the value column's scale (0 for a long column).
     * @param withAggregate  whether rows carry a user aggregation's value.
     * @param aggregateScale the scale to print that value at: the value column's for a mean, 0 for a count.
     */
    ResultRow(
        final KeyColumns keys,
        final String valueName,
        final int valueScale,
        final boolean withAggregate,
        final int aggregateScale)
    {
        this(keys, valueName, valueScale, withAggregate ? new String[] {"aggregate"} : new String[0],
            withAggregate ? new int[] {aggregateScale} : new int[0]);
    }

    /**
     * @param keys            the key columns' names and a key id's text in each.
     * @param valueName       the value column's name.
     * @param valueScale      the value column's scale (0 for a long column).
     * @param aggregateNames  the column of each user aggregation's value, in order (none without one).
     * @param aggregateScales the scale to print each at: the value column's for a mean, 0 for a count.
     */
    ResultRow(
        final KeyColumns keys,
        final String valueName,
        final int valueScale,
        final String[] aggregateNames,
        final int[] aggregateScales)
    {
        this(keys, valueName, valueScale, aggregateNames, aggregateScales, false, false, false);
    }

    private ResultRow(
        final KeyColumns keys,
        final String valueName,
        final int valueScale,
        final String[] aggregateNames,
        final int[] aggregateScales,
        final boolean named,
        final boolean withKind,
        final boolean isoTimes)
    {
        assert aggregateNames.length == aggregateScales.length : "a scale per aggregate";
        this.keys = keys;
        this.named = named;
        this.valueName = valueName;
        this.valueScale = valueScale;
        this.aggregateNames = aggregateNames.clone();
        this.aggregateScales = aggregateScales.clone();
        this.withKind = withKind;
        this.isoTimes = isoTimes;
    }

    /**
     * @param keys   the key columns' names and a key id's text in each.
     * @param names  the named aggregates, in order.
     * @param scales the scale of each.
     * @return the rows of a pipeline with named aggregates: a column per aggregate, no value column.
     */
    static ResultRow named(final KeyColumns keys, final String[] names, final int[] scales)
    {
        return new ResultRow(keys, null, 0, names, scales, true, false, false);
    }

    /**
     * @return the same format with a {@code kind} column after {@code version} ({@code final}, {@code update} or
     *         {@code early}; JSON {@code "kind"}): the rows of a pipeline with update or early rows.
     */
    ResultRow withKinds()
    {
        return new ResultRow(keys, valueName, valueScale, aggregateNames, aggregateScales, named, true, isoTimes);
    }

    /**
     * @return the same format with its instants, {@code window_start}, {@code window_end} and a late event's
     *         {@code event_time}, as ISO-8601 UTC text ({@link IsoTimes}; a JSON string) instead of epoch milliseconds.
     */
    ResultRow withIsoTimes()
    {
        return new ResultRow(keys, valueName, valueScale, aggregateNames, aggregateScales, named, withKind, true);
    }

    /** @return whether rows carry a {@code kind} column. */
    boolean withKind()
    {
        return withKind;
    }

    /** @return whether rows carry a user aggregation's value. */
    boolean withAggregate()
    {
        return aggregateNames.length > 0;
    }

    /** @return how many user aggregations' values rows carry. */
    int aggregates()
    {
        return aggregateNames.length;
    }

    /** @return whether rows show named aggregates. */
    boolean named()
    {
        return named;
    }

    /** @return how many aggregate longs a stored result of these rows carries: with named aggregates, the mask too. */
    int storedAggregates()
    {
        return named ? aggregateNames.length + 1 : aggregateNames.length;
    }

    /**
     * @param r     a result of a pipeline with named aggregates: stored (its N values, then the mask) or the engine's.
     * @param count how many named aggregates the pipeline has (N).
     * @return the mask of the aggregates the window has a value for: bit i for aggregate i.
     */
    static long presence(final ResultFields r, final int count)
    {
        if (r.aggregateCount() > count)
        {
            return r.aggregate(count);
        }
        long mask = 0;
        if (r instanceof WindowResult result)
        {
            for (int i = 0; i < count; i++)
            {
                mask |= result.hasAggregate(i) ? 1L << i : 0;
            }
        }
        return mask;
    }

    /**
     * @return a writer of these rows as bytes (the same text), with its own cache of key text: one per
     *         writing thread.
     */
    RowWriter writer()
    {
        return new RowWriter(this, valueScale, aggregateNames, aggregateScales, named, withKind, isoTimes);
    }

    /** @return the results CSV header. */
    public String header()
    {
        if (named)
        {
            return "window_start,window_end," + keyNames() + "," + String.join(",", aggregateNames) + ",version" + (withKind ? ",kind" : "");
        }
        final StringBuilder b = new StringBuilder("window_start,window_end,").append(keyNames()).append(",count,sum,min,max,version")
            .append(withKind ? ",kind" : "");
        for (final String name : aggregateNames)
        {
            b.append(',').append(name);
        }
        return b.toString();
    }

    /** @return the late events CSV header. */
    public String lateHeader()
    {
        return "event_id,event_time," + keyNames() + (named ? "" : "," + valueName);
    }

    private String keyNames()
    {
        final StringBuilder names = new StringBuilder();
        for (int i = 0; i < keys.arity(); i++)
        {
            names.append(i == 0 ? "" : ",").append(keys.name(i));
        }
        return names.toString();
    }

    /**
     * Append a key's JSON fields, each with its leading comma: {@code ,"NAME":VALUE} per key column.
     *
     * @param row   where to write.
     * @param keyId the key.
     * @return {@code row}.
     */
    StringBuilder jsonKey(final StringBuilder row, final int keyId)
    {
        for (int i = 0; i < keys.arity(); i++)
        {
            row.append(",\"").append(keys.name(i)).append("\":");
            if (keys.isString(i))
            {
                jsonString(row, keys.text(keyId, i));
            }
            else
            {
                row.append(keys.text(keyId, i));
            }
        }
        return row;
    }

    /**
     * Append a key's CSV fields, comma-separated, each quoted where it needs it.
     *
     * @param row   where to write.
     * @param keyId the key.
     * @return {@code row}.
     */
    StringBuilder csvKey(final StringBuilder row, final int keyId)
    {
        for (int i = 0; i < keys.arity(); i++)
        {
            row.append(i == 0 ? "" : ",").append(CsvText.quote(keys.text(keyId, i)));
        }
        return row;
    }

    /**
     * Append one CSV row (without the line end).
     *
     * @param row where to write.
     * @param r   the result.
     * @return {@code row}.
     */
    public StringBuilder csv(final StringBuilder row, final ResultFields r)
    {
        if (named)
        {
            return namedCsv(row, r);
        }
        csvKey(time(time(row, r.windowStart()).append(','), r.windowEnd()).append(','), r.keyId()).append(',').append(r.count()).append(',');
        value(row, r.sum()).append(',');
        value(row, r.min()).append(',');
        value(row, r.max()).append(',').append(r.version());
        if (withKind)
        {
            row.append(',').append(r.kind().label());
        }
        for (int i = 0; i < aggregateNames.length; i++)
        {
            scaled(row.append(','), r.aggregate(i), aggregateScales[i]);
        }
        return row;
    }

    /**
     * Append one JSON object (without the line end).
     *
     * @param row where to write.
     * @param r   the result.
     * @return {@code row}.
     */
    public StringBuilder json(final StringBuilder row, final ResultFields r)
    {
        if (named)
        {
            return namedJson(row, r);
        }
        jsonKey(jsonTime(jsonTime(row.append("{\"window_start\":"), r.windowStart()).append(",\"window_end\":"), r.windowEnd()), r.keyId());
        row.append(",\"count\":").append(r.count()).append(",\"sum\":");
        value(row, r.sum()).append(",\"min\":");
        value(row, r.min()).append(",\"max\":");
        value(row, r.max()).append(",\"version\":").append(r.version());
        if (withKind)
        {
            row.append(",\"kind\":\"").append(r.kind().label()).append('"');
        }
        for (int i = 0; i < aggregateNames.length; i++)
        {
            scaled(row.append(",\"").append(aggregateNames[i]).append("\":"), r.aggregate(i), aggregateScales[i]);
        }
        return row.append('}');
    }

    private StringBuilder namedCsv(final StringBuilder row, final ResultFields r)
    {
        csvKey(time(time(row, r.windowStart()).append(','), r.windowEnd()).append(','), r.keyId());
        final long present = presence(r, aggregateNames.length);
        for (int i = 0; i < aggregateNames.length; i++)
        {
            row.append(',');
            if ((present >>> i & 1) != 0)
            {
                scaled(row, r.aggregate(i), aggregateScales[i]);
            }
        }
        row.append(',').append(r.version());
        return withKind ? row.append(',').append(r.kind().label()) : row;
    }

    private StringBuilder namedJson(final StringBuilder row, final ResultFields r)
    {
        jsonKey(jsonTime(jsonTime(row.append("{\"window_start\":"), r.windowStart()).append(",\"window_end\":"), r.windowEnd()), r.keyId());
        final long present = presence(r, aggregateNames.length);
        for (int i = 0; i < aggregateNames.length; i++)
        {
            row.append(",\"").append(aggregateNames[i]).append("\":");
            if ((present >>> i & 1) != 0)
            {
                scaled(row, r.aggregate(i), aggregateScales[i]);
            }
            else
            {
                row.append("null");
            }
        }
        row.append(",\"version\":").append(r.version());
        if (withKind)
        {
            row.append(",\"kind\":\"").append(r.kind().label()).append('"');
        }
        return row.append('}');
    }

    /**
     * @param e a late event.
     * @return its CSV row (without the line end).
     */
    public String late(final LateFields e)
    {
        final StringBuilder row = csvKey(time(new StringBuilder(64).append(e.eventId()).append(','), e.eventTime()).append(','), e.keyId());
        return named ? row.toString() : value(row.append(','), e.value()).toString();
    }

    private StringBuilder time(final StringBuilder row, final long millis)
    {
        return isoTimes ? IsoTimes.append(row, millis) : row.append(millis);
    }

    private StringBuilder jsonTime(final StringBuilder row, final long millis)
    {
        return isoTimes ? IsoTimes.append(row.append('"'), millis).append('"') : row.append(millis);
    }

    private StringBuilder value(final StringBuilder row, final long unscaled)
    {
        return scaled(row, unscaled, valueScale);
    }

    private static StringBuilder scaled(final StringBuilder row, final long unscaled, final int scale)
    {
        return scale == 0 ? row.append(unscaled) : row.append(BigDecimal.valueOf(unscaled, scale).toPlainString());
    }

    private static StringBuilder jsonString(final StringBuilder row, final String text)
    {
        row.append('"');
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c == '"' || c == '\\')
            {
                row.append('\\').append(c);
            }
            else if (c < 0x20)
            {
                row.append(String.format("\\u%04x", (int)c));
            }
            else
            {
                row.append(c);
            }
        }
        return row.append('"');
    }
}
