package dev.weir.engine.expr;

import java.util.Objects;

import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.KeyTuples;
import dev.weir.journal.schema.JournalSchema;

/**
 * Which of a journal's columns a pipeline groups by and aggregates: the key, one or more columns of any
 * type, and the value column (a {@link ColumnType#LONG} or {@link ColumnType#DECIMAL} column, whose long,
 * unscaled for a decimal, becomes the slot's value) or a value expression over the event ({@link EventValue},
 * e.g. {@code amount - fee}, computed by the source). The source copies a key id and the value into each ring
 * slot, so the window stages see the same (key id, value) whatever the journal's width. A key of one string
 * column has that column's dictionary ids as key ids; any other key (several columns, or a long or decimal
 * column) has the ids of its {@link KeyTuples}, numbered in order of first occurrence in the journal.
 * <p>
 * The projection is part of the configuration a checkpoint fixes: {@link #describe()} adds it to the
 * configuration string (a value expression as its normalised text), except for the default ({@code key} and {@code value} of
 * {@link JournalSchema#DEFAULT}), whose string stays as it was before columns existed. It names columns, never
 * the schema: a journal that gains columns ({@link JournalSchema#extend}) leaves every projection's string as it
 * was, so a pipeline that does not use the new columns resumes from its checkpoints.
 * <p>
 * A projection {@link #withoutValue without a value} (a pipeline of named aggregates, which name their values
 * themselves) gives every event the value 0: count counts, sum, min and max are not shown.
 * <p>
 * Immutable and thread-safe (a value expression is evaluated by the source's thread only).
 */
public final class ColumnProjection
{
    /** The key column's name when none is given. */
    public static final String DEFAULT_KEY = "key";
    /** The value column's name when none is given. */
    public static final String DEFAULT_VALUE = "value";
    /** The default schema's key and value: the projection of every journal created before columns existed. */
    public static final ColumnProjection DEFAULT = of(JournalSchema.DEFAULT, DEFAULT_KEY, DEFAULT_VALUE);

    /** The value text of a projection without a value: its constant. */
    private static final String NO_VALUE_TEXT = "0";

    /** The key part {@link #describe()} writes, the names as the schema's column names rule allows them. */
    private static final java.util.regex.Pattern KEY_PART =
        java.util.regex.Pattern.compile(" key=([a-z_][a-z0-9_]*(?:,[a-z_][a-z0-9_]*)*) value=");

    private final JournalSchema schema;
    private final int[] keyColumns;
    private final int valueColumn;
    private final EventValue valueExpression;
    private final String valueText;

    private ColumnProjection(
        final JournalSchema schema, final int[] keyColumns, final int valueColumn, final EventValue valueExpression, final String valueText)
    {
        this.schema = schema;
        this.keyColumns = keyColumns;
        this.valueColumn = valueColumn;
        this.valueExpression = valueExpression;
        this.valueText = valueText;
    }

    /**
     * @param schema the journal's schema.
     * @param key    the key column's name, or several names separated by commas (a composite key).
     * @param value  the value column's name, or a value expression ({@link Expressions#value}) if it is not a
     *               plain name.
     * @return the projection.
     * @throws IllegalArgumentException if a column is missing, named twice or of the wrong type; the message
     *                                  names the journal's columns; an {@code ExpressionException}, with its
     *                                  position, if the value is an expression that does not compile.
     */
    public static ColumnProjection of(final JournalSchema schema, final String key, final String value)
    {
        return of(schema, ExpressionColumns.of(schema), key, value);
    }

    /**
     * @param schema  the journal's schema.
     * @param columns the columns a value expression may name: the schema's, then joined tables' ({@code TABLE.COLUMN}).
     * @param key     the key column's name, or several names separated by commas (a composite key): event columns
     *                only.
     * @param value   the value column's name, or a value expression ({@link Expressions#value}) if it is not a
     *                plain name (a table's column, {@code fx.rate}, is an expression).
     * @return the projection.
     * @throws IllegalArgumentException as {@link #of(JournalSchema, String, String)}, and if the key names a table's
     *                                  column ({@code TABLE.COLUMN}).
     */
    public static ColumnProjection of(final JournalSchema schema, final ExpressionColumns columns, final String key, final String value)
    {
        final int[] keys = keys(schema, key);
        final int v = schema.indexOf(value);
        if (v < 0 && !isName(value))
        {
            final EventValue expression = Expressions.value(value, columns);
            return new ColumnProjection(schema, keys, -1, expression, expression.toString());
        }
        if (v < 0 || schema.column(v).type() == ColumnType.STRING)
        {
            throw new IllegalArgumentException((v < 0 ? "no column '" + value + "'" : "column '" + value + "' is not a long or decimal column")
                + " to aggregate: the journal's columns are " + schema + " (choose the value with --value / valueColumn)"
                + (v < 0 ? defaultColumnsHint(schema) : ""));
        }
        return new ColumnProjection(schema, keys, v, null, null);
    }

    /**
     * A projection without a value: every event's value is the constant 0 ({@link #hasValue()} false), for a
     * pipeline whose named aggregates name their values themselves.
     *
     * @param schema the journal's schema.
     * @param key    the key column's name, or several names separated by commas (a composite key).
     * @return the projection.
     * @throws IllegalArgumentException if a key column is missing or named twice.
     */
    public static ColumnProjection withoutValue(final JournalSchema schema, final String key)
    {
        return new ColumnProjection(schema, keys(schema, key), -1, null, null);
    }

    /**
     * @param schema the journal's schema.
     * @param key    the key column's name, or several names separated by commas (a composite key).
     * @param value  a value expression written in Java, evaluated by the source's thread on each event.
     * @param name   its name in the configuration string, which a checkpoint must match.
     * @return the projection.
     * @throws IllegalArgumentException if a key column is missing or named twice.
     */
    public static ColumnProjection of(final JournalSchema schema, final String key, final EventValue value, final String name)
    {
        return new ColumnProjection(schema, keys(schema, key), -1, Objects.requireNonNull(value, "value"), Objects.requireNonNull(name, "name"));
    }

    private static int[] keys(final JournalSchema schema, final String key)
    {
        final String[] names = key.split(",", -1);
        final int[] keys = new int[names.length];
        for (int i = 0; i < names.length; i++)
        {
            final String name = names[i].strip();
            keys[i] = schema.indexOf(name);
            if (keys[i] < 0 && name.indexOf('.') > 0)
            {
                // a tuple's id is numbered from the events alone (KeyTuples), as exports and resumed runs read it back
                throw new IllegalArgumentException("--key cannot name a table column yet: '" + name + "'; key by event columns");
            }
            if (keys[i] < 0)
            {
                throw new IllegalArgumentException((name.isEmpty() ? "an empty key column name in '" + key + "'" : "no column '" + name + "'")
                    + " to key by: the journal's columns are " + schema + " (choose the key with --key / keyColumns)" + defaultColumnsHint(schema));
            }
            for (int j = 0; j < i; j++)
            {
                if (keys[j] == keys[i])
                {
                    throw new IllegalArgumentException("key column '" + name + "' is named twice in '" + key + "'");
                }
            }
        }
        return keys;
    }

    /** @return for a journal of the default columns, the likely cause of a missing column: a CSV ingested without its columns. */
    private static String defaultColumnsHint(final JournalSchema schema)
    {
        return schema.isDefault() ? "; these are the default columns: was the CSV ingested without --columns?" : "";
    }

    private static boolean isName(final String text)
    {
        if (text.isEmpty() || !Character.isJavaIdentifierStart(text.charAt(0)))
        {
            return false;
        }
        for (int i = 1; i < text.length(); i++)
        {
            if (!Character.isJavaIdentifierPart(text.charAt(i)))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return false for a projection {@link #withoutValue without a value} (every event's value is 0), true if the
     *         value is a column or an expression.
     */
    public boolean hasValue()
    {
        return valueColumn >= 0 || valueExpression != null;
    }

    /** @return the value expression, or null if the value is a column ({@link #valueColumn()}) or there is none. */
    public EventValue valueExpression()
    {
        return valueExpression;
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
        return keysByTuple(schema, keyColumns);
    }

    /**
     * @param schema     a journal's schema.
     * @param keyColumns a key's columns, indexes in it.
     * @return true if that key's ids are {@link KeyTuples} ids: several columns, or one long or decimal column.
     */
    public static boolean keysByTuple(final JournalSchema schema, final int[] keyColumns)
    {
        return keyColumns.length > 1 || schema.column(keyColumns[0]).type() != ColumnType.STRING;
    }

    /**
     * The key columns of the pipeline a configuration string (a checkpoint's) describes: the key part
     * {@link #describe()} wrote ({@code " key=NAMES value="}), its names read as {@link #of} reads a key. A
     * string without one is the default projection's ({@link #DEFAULT_KEY}), which only a journal of the
     * default schema has.
     *
     * @param schema        the journal's schema.
     * @param configuration a configuration string, as a checkpoint stores it.
     * @return the key columns' indexes in the schema.
     * @throws IllegalArgumentException if the string names no key columns of this schema.
     */
    public static int[] keyColumnsOf(final JournalSchema schema, final String configuration)
    {
        final java.util.regex.Matcher part = KEY_PART.matcher(configuration);
        while (part.find())
        {
            try
            {
                return keys(schema, part.group(1));
            }
            catch (final IllegalArgumentException ex)
            {
                // the text of an earlier part that looks like a key part: try the next
            }
        }
        if (schema.original().isDefault())
        {
            return keys(schema, DEFAULT_KEY);
        }
        throw new IllegalArgumentException("the configuration [" + configuration + "] names no key columns of " + schema);
    }

    /** @return the schema the columns are in. */
    public JournalSchema schema()
    {
        return schema;
    }

    /** @return the value column's index in the schema, or -1 for a value expression or no value. */
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

    /** @return the value column's name; {@code value} for a value expression; null without a value. */
    public String valueName()
    {
        if (!hasValue())
        {
            return null;
        }
        return valueExpression != null ? DEFAULT_VALUE : schema.column(valueColumn).name();
    }

    /**
     * @return the value's scale: fraction digits of a decimal column, 0 for a long, the expression's
     *         {@link EventValue#scale()}; 0 without a value.
     */
    public int valueScale()
    {
        if (!hasValue())
        {
            return 0;
        }
        return valueExpression != null ? valueExpression.scale() : schema.column(valueColumn).scale();
    }

    /** @return the value column's name, or the value expression's (normalised) text; {@code 0} without a value. */
    public String valueText()
    {
        if (!hasValue())
        {
            return NO_VALUE_TEXT;
        }
        return valueExpression != null ? valueText : schema.column(valueColumn).name();
    }

    /**
     * @return true if this is the default schema's key and value: the events are read on the original
     *         four-field path. So it stays when a journal created with the default schema gains columns
     *         ({@link JournalSchema#original()}): its pipelines' configuration strings do not change.
     */
    public boolean isDefault()
    {
        return schema.original().isDefault() && valueColumn >= 0 && keyName().equals(DEFAULT_KEY) && valueName().equals(DEFAULT_VALUE);
    }

    /**
     * @return what the configuration string adds for this projection: nothing for the default, else
     *         {@code " key=NAME value=NAME"} ({@code value=0} without a value).
     */
    public String describe()
    {
        return isDefault() ? "" : " key=" + keyName() + " value=" + valueText();
    }

    @Override
    public String toString()
    {
        return "key=" + keyName() + " value=" + valueText();
    }
}
