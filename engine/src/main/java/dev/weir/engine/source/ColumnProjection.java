package dev.weir.engine.source;

import dev.weir.journal.ColumnType;
import dev.weir.journal.JournalSchema;
import dev.weir.journal.KeyTuples;

/**
 * Which of a journal's columns a pipeline groups by and aggregates: the key, one or more columns of any
 * type, and the value column (a {@link ColumnType#LONG} or {@link ColumnType#DECIMAL} column, whose long,
 * unscaled for a decimal, becomes the slot's value). The source copies a key id and the value into each ring
 * slot, so the window stages see the same (key id, value) whatever the journal's width. A key of one string
 * column has that column's dictionary ids as key ids; any other key (several columns, or a long or decimal
 * column) has the ids of its {@link KeyTuples}, numbered in order of first occurrence in the journal.
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
    private final int[] keyColumns;
    private final int valueColumn;

    private ColumnProjection(final JournalSchema schema, final int[] keyColumns, final int valueColumn)
    {
        this.schema = schema;
        this.keyColumns = keyColumns;
        this.valueColumn = valueColumn;
    }

    /**
     * @param schema the journal's schema.
     * @param key    the key column's name, or several names separated by commas (a composite key).
     * @param value  the value column's name.
     * @return the projection.
     * @throws IllegalArgumentException if a column is missing, named twice or of the wrong type; the message
     *                                  names the journal's columns.
     */
    public static ColumnProjection of(final JournalSchema schema, final String key, final String value)
    {
        final String[] names = key.split(",", -1);
        final int[] keys = new int[names.length];
        for (int i = 0; i < names.length; i++)
        {
            final String name = names[i].strip();
            keys[i] = schema.indexOf(name);
            if (keys[i] < 0)
            {
                throw new IllegalArgumentException((name.isEmpty() ? "an empty key column name in '" + key + "'" : "no column '" + name + "'")
                    + " to key by: the journal's columns are " + schema + " (choose the key with --key / keyColumns)");
            }
            for (int j = 0; j < i; j++)
            {
                if (keys[j] == keys[i])
                {
                    throw new IllegalArgumentException("key column '" + name + "' is named twice in '" + key + "'");
                }
            }
        }
        final int v = schema.indexOf(value);
        if (v < 0 || schema.column(v).type() == ColumnType.STRING)
        {
            throw new IllegalArgumentException((v < 0 ? "no column '" + value + "'" : "column '" + value + "' is not a long or decimal column")
                + " to aggregate: the journal's columns are " + schema + " (choose the value with --value / valueColumn)");
        }
        return new ColumnProjection(schema, keys, v);
    }

    /** @return the number of key columns. */
    public int keyArity()
    {
        return keyColumns.length;
    }

    /**
     * @param index a key column's position in the key, 0 .. {@link #keyArity()} - 1.
     * @return its index in the schema.
     */
    public int keyColumn(final int index)
    {
        return keyColumns[index];
    }

    /** @return the key columns' indexes in the schema, in key order (a copy). */
    public int[] keyColumns()
    {
        return keyColumns.clone();
    }

    /**
     * @return true if key ids are {@link KeyTuples} ids; false if they are the dictionary ids of the one
     *         string key column.
     */
    public boolean keysByTuple()
    {
        return keyColumns.length > 1 || schema.column(keyColumns[0]).type() != ColumnType.STRING;
    }

    /** @return the schema the columns are in. */
    public JournalSchema schema()
    {
        return schema;
    }

    /** @return the value column's index in the schema. */
    public int valueColumn()
    {
        return valueColumn;
    }

    /** @return the key column's name, or the names separated by commas for a composite key. */
    public String keyName()
    {
        final StringBuilder names = new StringBuilder();
        for (int i = 0; i < keyColumns.length; i++)
        {
            names.append(i == 0 ? "" : ",").append(schema.column(keyColumns[i]).name());
        }
        return names.toString();
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
