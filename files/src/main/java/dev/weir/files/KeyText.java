package dev.weir.files;

import java.math.BigDecimal;

import dev.weir.engine.expr.ColumnProjection;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.KeyTupleReader;
import dev.weir.journal.StringDictionaries;
import dev.weir.journal.schema.JournalSchema;

/**
 * The text of a pipeline's key ids, one field per key column: a string column's value from its dictionary,
 * a long column's digits, a decimal column's value at its scale. A key of one string column has that
 * column's dictionary ids; any other key has {@link dev.weir.journal.KeyTuples} ids, resolved by reading the
 * journal's events as far as each id's first event.
 * <p>
 * Not thread-safe: one owner thread at a time ({@link #handOff()} moves it).
 */
public final class KeyText implements KeyColumns, AutoCloseable
{
    private final JournalSchema schema;
    private final int[] columns;
    private final StringDictionaries strings;
    private final KeyTupleReader tuples;

    private KeyText(final JournalDirectory directory, final ColumnProjection projection)
    {
        this.schema = projection.schema();
        this.columns = projection.keyColumns();
        this.strings = StringDictionaries.open(directory);
        this.tuples = projection.keysByTuple() ? KeyTupleReader.open(directory, columns) : null;
    }

    /**
     * @param directory  the journal.
     * @param projection the pipeline's key and value columns.
     * @return the key text of that pipeline's outputs.
     */
    public static KeyText open(final JournalDirectory directory, final ColumnProjection projection)
    {
        return new KeyText(directory, projection);
    }

    /** @return the number of key columns. */
    @Override
    public int arity()
    {
        return columns.length;
    }

    /**
     * @param index a key column's position in the key.
     * @return its name.
     */
    @Override
    public String name(final int index)
    {
        return schema.column(columns[index]).name();
    }

    /**
     * @param index a key column's position in the key.
     * @return true if it is a string column (quoted in JSON), false for a number.
     */
    @Override
    public boolean isString(final int index)
    {
        return schema.column(columns[index]).type() == ColumnType.STRING;
    }

    /**
     * @param keyId a key id from an output.
     * @param index a key column's position in the key.
     * @return that column's value for the key, as text.
     */
    @Override
    public String text(final int keyId, final int index)
    {
        if (tuples == null)
        {
            return strings.dictionary(columns[0]).name(keyId);
        }
        final long component = tuples.component(keyId, index);
        final JournalSchema.Column column = schema.column(columns[index]);
        if (column.type() == ColumnType.STRING)
        {
            return strings.dictionary(columns[index]).name((int)component);
        }
        return column.scale() == 0 ? Long.toString(component) : BigDecimal.valueOf(component, column.scale()).toPlainString();
    }

    /** Hand it to another thread: the next thread to use it becomes its owner. */
    public void handOff()
    {
        strings.handOff();
        if (tuples != null)
        {
            tuples.handOff();
        }
    }

    @Override
    public void close()
    {
        if (tuples != null)
        {
            tuples.close();
        }
        strings.close();
    }
}
