package dev.weir.postgres;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.weir.engine.aggregate.BoundAggregates;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;

/**
 * The columns of one pipeline's results table, from the pipeline's key and value columns: one column per
 * key column, named after it and typed by it ({@code string} is {@code text}, {@code long} is
 * {@code bigint}, {@code decimal(N)} is {@code numeric(38,N)}), then {@code window_start}, {@code window_end},
 * {@code count}, {@code sum}, {@code min}, {@code max}, {@code version}, {@code source_offset} and
 * {@code aggregate}, unique on the key columns and the window. {@code sum}, {@code min} and {@code max} are
 * {@code bigint} for a long value column and {@code numeric(38,N)} for a {@code decimal(N)} one, holding the
 * exact decimal (the unscaled long 1234 at scale 2 is 12.34; 38 digits hold any long at any scale up to
 * {@value JournalSchema#MAX_SCALE}). {@code aggregate} (nullable) is {@code bigint}, or {@code numeric(38,N)}
 * when the pipeline's aggregation is a mean of a {@code decimal(N)} value, printed at its scale.
 * <p>
 * {@link #DEFAULT} (key {@code key}, value {@code value} of {@link JournalSchema#DEFAULT}) is the table of
 * before columns existed: {@code (key text, window_start bigint, ..., aggregate bigint)} unique on
 * {@code (key, window_start, window_end)}.
 * <p>
 * {@link #withEarly()} (a pipeline with an early condition) adds a last column {@code early boolean}: true
 * once the window emitted its early row. The early row is upserted as soon as it is delivered, with
 * version -1 (so the table shows the alert at once); the window's final row replaces it, as any higher
 * version does, and keeps {@code early} true; a session's final row replaces it even when the session grew
 * after the alert ({@link BatchUpsert}). Update rows are never delivered. The table of a pipeline
 * without an early condition has no {@code early} column.
 * <p>
 * A pipeline with named aggregates ({@link #of(JournalSchema, int[], BoundAggregates)}) has, after its key columns,
 * {@code window_start}, {@code window_end}, one column per aggregate named after it ({@code bigint} at scale 0,
 * else {@code numeric(38,S)}; NULL when the window has no value for it), {@code version} and {@code source_offset}
 * (and {@code early}): no {@code count}, {@code sum}, {@code min}, {@code max} or {@code aggregate}.
 * <p>
 * Immutable and thread-safe.
 */
public final class ResultsTableShape
{
    /** The columns after the key columns, in table order, with their types for a long value column. */
    private static final List<String> WINDOW_COLUMNS = List.of("window_start", "window_end", "count", "sum", "min", "max", "version",
        "source_offset", "aggregate");
    /** Why the {@code aggregate} column is nullable, for messages. */
    private static final Map<String, String> AGGREGATE_NULLABLE = Map.of("aggregate", "results without a user aggregation have none");
    /** The column that tells a window emitted its early row (with {@link #withEarly()}). */
    static final String EARLY = "early";
    /** The version an early row is upserted with: any final row replaces it. */
    static final int EARLY_VERSION = -1;
    /** PostgreSQL's longest identifier, in bytes (a longer one would be truncated). */
    private static final int MAX_IDENTIFIER = 63;
    /** Digits of a numeric column: a long has 19, and a scale is at most 18. */
    private static final int PRECISION = 38;

    /** The default columns' table: the one of before columns existed. */
    public static final ResultsTableShape DEFAULT = of(JournalSchema.DEFAULT, new int[] {0}, 1, 0);

    private final JournalSchema schema;
    private final int[] keyColumns;
    private final int valueScale;
    private final int aggregateScale;
    /** The named aggregates' names and scales, in order; null without named aggregates. */
    private final String[] namedAggregates;
    private final int[] namedScales;
    private final Map<String, String> columns;
    /** The nullable columns, each with why it may be NULL (for messages). */
    private final Map<String, String> nullable;
    private final List<String> uniqueKey;
    private final boolean withEarly;

    private ResultsTableShape(final JournalSchema schema, final int[] keyColumns, final int valueScale, final int aggregateScale)
    {
        this(schema, keyColumns, valueScale, aggregateScale, null, null, false);
    }

    private ResultsTableShape(
        final JournalSchema schema,
        final int[] keyColumns,
        final int valueScale,
        final int aggregateScale,
        final String[] namedAggregates,
        final int[] namedScales,
        final boolean withEarly)
    {
        this.withEarly = withEarly;
        this.schema = schema;
        this.keyColumns = keyColumns;
        this.valueScale = valueScale;
        this.aggregateScale = aggregateScale;
        this.namedAggregates = namedAggregates;
        this.namedScales = namedScales;
        final Map<String, String> all = new LinkedHashMap<>();
        final List<String> key = new ArrayList<>();
        for (final int column : keyColumns)
        {
            final JournalSchema.Column c = schema.column(column);
            all.put(c.name(), sqlType(c.type(), c.scale()));
            key.add(c.name());
        }
        if (namedAggregates == null)
        {
            final String value = numeric(valueScale);
            final String[] types = {"bigint", "bigint", "bigint", value, value, value, "integer", "bigint", numeric(aggregateScale)};
            for (int i = 0; i < WINDOW_COLUMNS.size(); i++)
            {
                all.put(WINDOW_COLUMNS.get(i), types[i]);
            }
            nullable = AGGREGATE_NULLABLE;
        }
        else
        {
            final Map<String, String> nullableAggregates = new LinkedHashMap<>();
            all.put("window_start", "bigint");
            all.put("window_end", "bigint");
            for (int i = 0; i < namedAggregates.length; i++)
            {
                all.put(namedAggregates[i], numeric(namedScales[i]));
                nullableAggregates.put(namedAggregates[i], "an aggregate is NULL where a window has no value for it");
            }
            all.put("version", "integer");
            all.put("source_offset", "bigint");
            nullable = Collections.unmodifiableMap(nullableAggregates);
        }
        if (withEarly)
        {
            all.put(EARLY, "boolean");
        }
        key.add("window_start");
        key.add("window_end");
        this.columns = Collections.unmodifiableMap(all);
        this.uniqueKey = List.copyOf(key);
    }

    /**
     * @param schema         the journal's columns.
     * @param keyColumns     the key columns' indexes in the schema, in key order (one or more).
     * @param valueColumn    the value column's index (a long or decimal column).
     * @param aggregateScale the scale of the user aggregation's value: the value column's for a mean of it, else 0.
     * @return the table's shape.
     * @throws SinkRefusedException    if a key column cannot be a column of the table: it has the name of
     *                                 one of the window's columns, or a name longer than PostgreSQL's identifiers.
     * @throws IllegalArgumentException if a column index is out of range, a key column is repeated or the
     *                                 value column is a string column.
     */
    public static ResultsTableShape of(final JournalSchema schema, final int[] keyColumns, final int valueColumn, final int aggregateScale)
    {
        return of(schema, keyColumns, valueColumn, 0, aggregateScale);
    }

    /**
     * The same as {@link #of(JournalSchema, int[], int, int)}, for a value column or a value expression.
     *
     * @param schema         the journal's columns.
     * @param keyColumns     the key columns' indexes in the schema, in key order (one or more).
     * @param valueColumn    the value column's index (a long or decimal column), or -1 for a value expression,
     *                       whose scale is {@code valueScale}.
     * @param valueScale     the value expression's scale (0 to 18), when {@code valueColumn} is -1; else ignored.
     * @param aggregateScale the scale of the user aggregation's value: the value's for a mean of it, else 0.
     * @return the table's shape.
     * @throws SinkRefusedException    as {@link #of(JournalSchema, int[], int, int)}.
     * @throws IllegalArgumentException as {@link #of(JournalSchema, int[], int, int)}, or a value scale out of range.
     */
    public static ResultsTableShape of(
        final JournalSchema schema, final int[] keyColumns, final int valueColumn, final int valueScale, final int aggregateScale)
    {
        final int[] keys = checkedKeys(schema, keyColumns, WINDOW_COLUMNS);
        final JournalSchema.Column value = valueColumn < 0 ? null : schema.column(valueColumn);
        if (value != null && value.type() == ColumnType.STRING)
        {
            throw new IllegalArgumentException("value column " + value.name() + " is a string column");
        }
        if (value == null && (valueScale < 0 || valueScale > JournalSchema.MAX_SCALE))
        {
            throw new IllegalArgumentException("value scale must be 0 to " + JournalSchema.MAX_SCALE + ": " + valueScale);
        }
        if (aggregateScale < 0 || aggregateScale > JournalSchema.MAX_SCALE)
        {
            throw new IllegalArgumentException("aggregate scale must be 0 to " + JournalSchema.MAX_SCALE + ": " + aggregateScale);
        }
        return new ResultsTableShape(schema, keys, value != null ? value.scale() : valueScale, aggregateScale);
    }

    /**
     * The table of a pipeline with named aggregates ({@code --aggregates}, {@code PipelineBuilder.aggregates}): its key
     * columns, {@code window_start}, {@code window_end}, one column per aggregate, {@code version} and
     * {@code source_offset}.
     *
     * @param schema     the journal's columns.
     * @param keyColumns the key columns' indexes in the schema, in key order (one or more).
     * @param aggregates the pipeline's named aggregates, bound to its columns: their names and scales.
     * @return the table's shape.
     * @throws SinkRefusedException    if a key column cannot be a column of the table: it has the name of one of the
     *                                 table's other columns, or a name longer than PostgreSQL's identifiers.
     * @throws IllegalArgumentException if a column index is out of range or a key column is repeated.
     */
    public static ResultsTableShape of(final JournalSchema schema, final int[] keyColumns, final BoundAggregates aggregates)
    {
        final String[] names = new String[aggregates.size()];
        final int[] scales = new int[names.length];
        for (int i = 0; i < names.length; i++)
        {
            names[i] = aggregates.name(i);
            scales[i] = aggregates.scale(i);
        }
        return named(schema, keyColumns, names, scales);
    }

    /**
     * As {@link #of(JournalSchema, int[], BoundAggregates)}, by the aggregates' names and scales.
     *
     * @param names  the named aggregates' names, in order: lower-case identifiers, none a column of the window.
     * @param scales their scales, 0 to 18.
     */
    static ResultsTableShape named(final JournalSchema schema, final int[] keyColumns, final String[] names, final int[] scales)
    {
        final List<String> own = new ArrayList<>(List.of("window_start", "window_end"));
        own.addAll(List.of(names));
        own.add("version");
        own.add("source_offset");
        return new ResultsTableShape(schema, checkedKeys(schema, keyColumns, own), 0, 0, names.clone(), scales.clone(), false);
    }

    /**
     * @param own the table's columns besides the key columns.
     * @return a copy of the key columns, each of which can be a column of the table.
     */
    private static int[] checkedKeys(final JournalSchema schema, final int[] keyColumns, final List<String> own)
    {
        if (keyColumns.length == 0)
        {
            throw new IllegalArgumentException("a key has at least one column");
        }
        final int[] keys = keyColumns.clone();
        for (int i = 0; i < keys.length; i++)
        {
            final String name = schema.column(keys[i]).name();
            for (int j = 0; j < i; j++)
            {
                if (keys[j] == keys[i])
                {
                    throw new IllegalArgumentException("key column " + name + " is named twice");
                }
            }
            if (own.contains(name))
            {
                throw new SinkRefusedException("key column " + name + " cannot be delivered into PostgreSQL: the results table has a column "
                    + name + " of its own (" + String.join(", ", own) + "); key by other columns, or write --results or --output-dir");
            }
            if (name.length() > MAX_IDENTIFIER)
            {
                throw new SinkRefusedException("key column " + name + " cannot be delivered into PostgreSQL: its name is longer than "
                    + MAX_IDENTIFIER + " characters, PostgreSQL's longest column name");
            }
        }
        return keys;
    }

    /**
     * @return the same table with an {@code early} boolean column: for a pipeline with an early condition.
     * @throws SinkRefusedException if a key column is named {@code early}.
     */
    public ResultsTableShape withEarly()
    {
        for (final int column : keyColumns)
        {
            if (schema.column(column).name().equals(EARLY))
            {
                throw new SinkRefusedException("key column early cannot be delivered into PostgreSQL with an early condition: the results "
                    + "table has a column early of its own; key by other columns, or write --results or --output-dir");
            }
        }
        return new ResultsTableShape(schema, keyColumns, valueScale, aggregateScale, namedAggregates, namedScales, true);
    }

    /** @return true if the table has the {@code early} column. */
    public boolean hasEarly()
    {
        return withEarly;
    }

    private static String sqlType(final ColumnType type, final int scale)
    {
        switch (type)
        {
            case STRING:
                return "text";
            case LONG:
                return "bigint";
            default:
                return "numeric(" + PRECISION + "," + scale + ")";
        }
    }

    /** @return bigint at scale 0, else numeric(38,scale), in the spelling of PostgreSQL's {@code format_type}. */
    private static String numeric(final int scale)
    {
        return scale == 0 ? "bigint" : "numeric(" + PRECISION + "," + scale + ")";
    }

    /** @return the columns of the journal this shape is for. */
    public JournalSchema schema()
    {
        return schema;
    }

    /** @return the number of key columns. */
    public int keyArity()
    {
        return keyColumns.length;
    }

    /**
     * @param index a key column's position in the key.
     * @return its index in the schema.
     */
    public int keyColumn(final int index)
    {
        return keyColumns[index];
    }

    /**
     * @return true if the pipeline's key ids are {@link dev.weir.journal.KeyTuples} ids; false if they are
     *         the dictionary ids of its one string key column.
     */
    boolean keysByTuple()
    {
        return keyColumns.length > 1 || schema.column(keyColumns[0]).type() != ColumnType.STRING;
    }

    /** @return true if the table has a column per named aggregate (and no count, sum, min, max or aggregate). */
    boolean hasNamedAggregates()
    {
        return namedAggregates != null;
    }

    /** @return how many named aggregates the table has a column for; 0 without named aggregates. */
    int namedAggregateCount()
    {
        return namedAggregates == null ? 0 : namedAggregates.length;
    }

    /**
     * @param index a named aggregate's position in the list.
     * @return its scale: its column is numeric at it, or bigint at 0.
     */
    int namedAggregateScale(final int index)
    {
        return namedScales[index];
    }

    /** @return the value column's scale: sum, min and max are numeric at it, or bigint at 0 (0 with named aggregates). */
    int valueScale()
    {
        return valueScale;
    }

    /** @return the aggregate's scale: numeric at it, or bigint at 0. */
    int aggregateScale()
    {
        return aggregateScale;
    }

    /** @return every column the table must have, in table order, with its type as {@code format_type} spells it. */
    Map<String, String> columns()
    {
        return columns;
    }

    /** @return the columns that may be NULL, each with why (for messages); every other column is NOT NULL. */
    Map<String, String> nullable()
    {
        return nullable;
    }

    /** @return the columns of the unique key the upsert needs: the key columns, then the window. */
    List<String> uniqueKey()
    {
        return uniqueKey;
    }

    /**
     * @return what the table is for, for messages: {@code key merchant,country, value decimal(2)}, or
     *         {@code key symbol, aggregates open,close} with named aggregates.
     */
    String describe()
    {
        final StringBuilder text = new StringBuilder("key ");
        for (int i = 0; i < keyColumns.length; i++)
        {
            text.append(i == 0 ? "" : ",").append(schema.column(keyColumns[i]).name());
        }
        if (namedAggregates != null)
        {
            text.append(", aggregates ").append(String.join(",", namedAggregates));
        }
        else
        {
            text.append(", value ").append(valueScale == 0 ? "long" : "decimal(" + valueScale + ")");
        }
        return text.append(withEarly ? ", early" : "").toString();
    }

    /**
     * @param table the results table, checked.
     * @return the statement that creates it.
     */
    String createTable(final String table)
    {
        final StringBuilder sql = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(SinkSchema.quoted(table)).append(" (");
        columns.forEach((name, type) -> sql.append(SinkSchema.quoted(name)).append(' ').append(type)
            .append(nullable.containsKey(name) ? ", " : " NOT NULL, "));
        return sql.append("PRIMARY KEY (").append(quotedList(uniqueKey)).append("))").toString();
    }

    private static String quotedList(final Iterable<String> names)
    {
        final StringBuilder list = new StringBuilder();
        for (final String name : names)
        {
            list.append(list.length() == 0 ? "" : ", ").append(SinkSchema.quoted(name));
        }
        return list.toString();
    }

    @Override
    public String toString()
    {
        return describe();
    }
}
