package dev.weir.postgres;

import java.math.BigDecimal;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.KeyTupleReader;
import dev.weir.journal.StringDictionaries;
import dev.weir.journal.schema.JournalSchema;

/**
 * The values of a pipeline's key ids in its results table's key columns: a string column's text from its
 * dictionary, a long column's {@link Long}, a decimal column's {@link BigDecimal} at its scale. A key of one
 * string column has that column's dictionary ids; any other key has {@link dev.weir.journal.KeyTuples} ids,
 * resolved by reading the journal's events as far as each id's first event.
 * <p>
 * Not thread-safe: the delivering thread owns it.
 */
final class KeyFields implements AutoCloseable
{
    private final JournalSchema schema;
    private final ResultsTableShape shape;
    private final StringDictionaries strings;
    private final KeyTupleReader tuples;

    private KeyFields(final JournalDirectory journal, final ResultsTableShape shape)
    {
        this.schema = journal.schema();
        this.shape = shape;
        final int[] columns = new int[shape.keyArity()];
        for (int i = 0; i < columns.length; i++)
        {
            columns[i] = shape.keyColumn(i);
        }
        this.tuples = shape.keysByTuple() ? KeyTupleReader.open(journal, columns) : null;
        try
        {
            this.strings = StringDictionaries.open(journal);
        }
        catch (final RuntimeException ex)
        {
            if (tuples != null)
            {
                tuples.close();
            }
            throw ex;
        }
    }

    /**
     * @param journal the journal, of the shape's columns.
     * @param shape   the results table's shape.
     * @return its key fields.
     */
    static KeyFields open(final JournalDirectory journal, final ResultsTableShape shape)
    {
        assert journal.schema().equals(shape.schema()) : journal.schema() + " is not " + shape.schema();
        return new KeyFields(journal, shape);
    }

    /**
     * @param keyId a key id from an output.
     * @param index a key column's position in the key.
     * @return that column's value for the key: a String (null if the journal holds no such id), Long or BigDecimal.
     */
    Object value(final int keyId, final int index)
    {
        final int column = shape.keyColumn(index);
        if (tuples == null)
        {
            return strings.dictionary(column).name(keyId);
        }
        final long component = tuples.component(keyId, index);
        final JournalSchema.Column c = schema.column(column);
        if (c.type() == ColumnType.STRING)
        {
            return strings.dictionary(column).name((int)component);
        }
        return c.type() == ColumnType.LONG ? (Object)component : BigDecimal.valueOf(component, c.scale());
    }

    /**
     * Let go of the events cycles the key lookups passed, so that a delivery that runs for long keeps no cycle
     * that retention deleted open (see {@link StringDictionaries#releasePassedCycles()}). Call it between
     * deliveries.
     */
    void releasePassedCycles()
    {
        if (tuples != null)
        {
            tuples.releasePassedCycles();
        }
        strings.releasePassedCycles();
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
