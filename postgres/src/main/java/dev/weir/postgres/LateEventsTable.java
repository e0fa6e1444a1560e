package dev.weir.postgres;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.weir.journal.schema.JournalSchema;

/**
 * The late-events table of the PostgreSQL sink (default {@value #DEFAULT_TABLE}): one row per late event of the
 * output journal's side output, with {@code results_table} (the results table delivered beside it: one per
 * pipeline, so pipelines may share the late-events table), the pipeline's key columns (named and typed as in the
 * results table), the event's {@code value} (bigint, or numeric at the value's scale; NULL, and the column nullable, for a
 * pipeline with named aggregates, whose events have no value), {@code event_id},
 * {@code event_time} (epoch ms) and {@code event_offset}, its offset in the events journal. The primary key is
 * {@code (results_table, event_offset)}: a late event a recovery regenerates has the same offset, so it is inserted
 * once ({@code ON CONFLICT DO NOTHING}). Rows are inserted in the transaction that delivers the results beside them
 * and moves the offsets; a results table created again (another journal's) deletes its late rows with its offsets.
 * Created when missing, checked like the results table, never altered. Immutable.
 */
final class LateEventsTable
{
    /** The default late-events table. */
    static final String DEFAULT_TABLE = "weir_late";
    /** The columns after the key columns, in table order. */
    private static final List<String> EVENT_COLUMNS = List.of("results_table", "value", "event_id", "event_time", "event_offset");
    private static final List<String> KEY = List.of("results_table", "event_offset");

    private final String table;
    private final String resultsTable;
    private final ResultsTableShape shape;
    private final Map<String, String> columns;
    /** The nullable columns, each with why: {@code value} for a pipeline with named aggregates; else none. */
    private final Map<String, String> nullable;

    /**
     * @param table        the late-events table's name.
     * @param resultsTable the results table's name.
     * @param shape        the results table's shape (its key columns and value scale).
     * @throws SinkRefusedException if the name is not allowed, is the results table's, or a key column has the name of
     *                              one of the event's columns.
     */
    LateEventsTable(final String table, final String resultsTable, final ResultsTableShape shape)
    {
        SinkSchema.checkName(table);
        if (table.equals(resultsTable))
        {
            throw new SinkRefusedException("the late-events table cannot be the results table: " + table);
        }
        this.table = table;
        this.resultsTable = resultsTable;
        this.shape = shape;
        final Map<String, String> all = new LinkedHashMap<>();
        all.put("results_table", "text");
        for (int i = 0; i < shape.keyArity(); i++)
        {
            final JournalSchema.Column key = shape.schema().column(shape.keyColumn(i));
            if (EVENT_COLUMNS.contains(key.name()))
            {
                throw new SinkRefusedException("key column " + key.name() + " cannot be delivered into the late-events table " + table
                    + ": it has a column " + key.name() + " of its own (" + String.join(", ", EVENT_COLUMNS) + "); key by other columns");
            }
            all.put(key.name(), shape.columns().get(key.name()));
        }
        all.put("value", shape.valueScale() == 0 ? "bigint" : shape.columns().get("sum"));
        all.put("event_id", "bigint");
        all.put("event_time", "bigint");
        all.put("event_offset", "bigint");
        this.columns = Collections.unmodifiableMap(all);
        this.nullable = shape.hasNamedAggregates() ? Map.of("value", "the late events of a pipeline with named aggregates have no value")
            : Map.of();
    }

    /** @return its name. */
    String table()
    {
        return table;
    }

    /** @return every column it must have, in table order, with its type as {@code format_type} spells it. */
    Map<String, String> columns()
    {
        return columns;
    }

    /** @return the columns that may be NULL, each with why (for messages); every other column is NOT NULL. */
    Map<String, String> nullable()
    {
        return nullable;
    }

    /** @return its primary key: the results table and the event's offset. */
    List<String> uniqueKey()
    {
        return KEY;
    }

    /** @return the results table whose late events it takes: the first parameter of {@link #insert()}. */
    String resultsTable()
    {
        return resultsTable;
    }

    /** @return the statement that creates it. */
    String createTable()
    {
        final StringBuilder sql = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(SinkSchema.quoted(table)).append(" (");
        columns.forEach((name, type) -> sql.append(SinkSchema.quoted(name)).append(' ').append(type)
            .append(nullable.containsKey(name) ? ", " : " NOT NULL, "));
        return sql.append("PRIMARY KEY (results_table, event_offset))").toString();
    }

    /** @return the statement that inserts one late event, its parameters in table order, nothing if it is there. */
    String insert()
    {
        final StringBuilder names = new StringBuilder();
        final StringBuilder values = new StringBuilder();
        for (final String name : columns.keySet())
        {
            names.append(names.length() == 0 ? "" : ", ").append(SinkSchema.quoted(name));
            values.append(values.length() == 0 ? "?" : ", ?");
        }
        return "INSERT INTO " + SinkSchema.quoted(table) + " (" + names + ") VALUES (" + values + ") ON CONFLICT (results_table, event_offset) DO NOTHING";
    }

    /**
     * @param unscaled a late event's value.
     * @return it as the {@code value} column holds it: null for a pipeline with named aggregates.
     */
    Object value(final long unscaled)
    {
        if (shape.hasNamedAggregates())
        {
            return null;
        }
        return shape.valueScale() == 0 ? (Object) unscaled : BigDecimal.valueOf(unscaled, shape.valueScale());
    }
}
