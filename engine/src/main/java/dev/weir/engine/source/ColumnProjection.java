package dev.weir.engine.source;

import dev.weir.journal.ColumnType;
import dev.weir.journal.JournalSchema;

/**
 * Which of a journal's columns a pipeline groups by and aggregates: the key column (a
 * {@link ColumnType#STRING} column, whose dictionary id becomes the slot's key id) and the value
 * column (a {@link ColumnType#LONG} or {@link ColumnType#DECIMAL} column, whose long, unscaled for a
 * decimal, becomes the slot's value). The source copies those two into each ring slot, so the window
 * stages see the same (key id, value) whatever the journal's width.
 * <p>
 * The projection is part of the configuration a checkpoint fixes: {@link #describe()} adds it to the
 * configuration string, except for the default ({@code key} and {@code value} of
 * {@link JournalSchema#DEFAULT}), whose string stays as it was before columns existed.
 * <p>
 * Immutable and thread-safe.
 */
public final class ColumnProjection
{
    /** The key column's name when none is given. */
    public static final String DEFAULT_KEY = "key";
    /** The value column's name when none is given. */
    public static final String DEFAULT_VALUE = "value";
    /** The default schema's key and value: the projection of every journal created before columns existed. */
    public static final ColumnProjection DEFAULT = of(JournalSchema.DEFAULT, DEFAULT_KEY, DEFAULT_VALUE);

    private final JournalSchema schema;
    private final int keyColumn;
    private final int valueColumn;

    private ColumnProjection(final JournalSchema schema, final int keyColumn, final int valueColumn)
    {
        this.schema = schema;
        this.keyColumn = keyColumn;
        this.valueColumn = valueColumn;
    }

    /**
     * @param schema the journal's schema.
     * @param key    the key column's name.
     * @param value  the value column's name.
     * @return the projection.
     * @throws IllegalArgumentException if a column is missing or of the wrong type; the message names the
     *                                  journal's columns.
     */
    public static ColumnProjection of(final JournalSchema schema, final String key, final String value)
    {
        final int k = schema.indexOf(key);
        if (k < 0 || schema.column(k).type() != ColumnType.STRING)
        {
            throw new IllegalArgumentException((k < 0 ? "no column '" + key + "'" : "column '" + key + "' is not a string column")
                + " to key by: the journal's columns are " + schema + " (choose the key with --key / keyColumn)");
        }
        final int v = schema.indexOf(value);
        if (v < 0 || schema.column(v).type() == ColumnType.STRING)
        {
            throw new IllegalArgumentException((v < 0 ? "no column '" + value + "'" : "column '" + value + "' is not a long or decimal column")
                + " to aggregate: the journal's columns are " + schema + " (choose the value with --value / valueColumn)");
        }
        return new ColumnProjection(schema, k, v);
    }

    /** @return the key column's index in the schema. */
    public int keyColumn()
    {
        return keyColumn;
    }

    /** @return the value column's index in the schema. */
    public int valueColumn()
    {
        return valueColumn;
    }

    /** @return the key column's name. */
    public String keyName()
    {
        return schema.column(keyColumn).name();
    }

    /** @return the value column's name. */
    public String valueName()
    {
        return schema.column(valueColumn).name();
    }

    /** @return the value column's scale: fraction digits of a decimal, 0 for a long. */
    public int valueScale()
    {
        return schema.column(valueColumn).scale();
    }

    /**
     * @return true if this is the default schema's key and value: the events are read on the original
     *         four-field path.
     */
    public boolean isDefault()
    {
        return schema.isDefault() && keyName().equals(DEFAULT_KEY) && valueName().equals(DEFAULT_VALUE);
    }

    /**
     * @return what the configuration string adds for this projection: nothing for the default, else
     *         {@code " key=NAME value=NAME"}.
     */
    public String describe()
    {
        return isDefault() ? "" : " key=" + keyName() + " value=" + valueName();
    }

    @Override
    public String toString()
    {
        return "key=" + keyName() + " value=" + valueName();
    }
}
