package dev.weir.cli;

import dev.weir.engine.source.ColumnProjection;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalSchema;
import dev.weir.postgres.ResultsTableShape;
import dev.weir.postgres.SinkRefusedException;

/**
 * Which columns a pipeline's rows show: its key and value columns (by name, as {@code --key} and
 * {@code --value} give them) and whether a user aggregation adds a column.
 *
 * @param key           the key column's name, or several separated by commas.
 * @param value         the value column's name.
 * @param withAggregate whether rows carry a user aggregation's value.
 * @param aggregateIsAValue whether that value is in the value column's unit (a mean), so printed at its
 *                      scale, rather than a count (distinct values).
 */
record RowColumns(String key, String value, boolean withAggregate, boolean aggregateIsAValue)
{
    /**
     * @param schema a journal's columns.
     * @return the key and value columns in it.
     * @throws BadInputException if a column is missing or of the wrong type (the message names the columns).
     */
    ColumnProjection projection(final JournalSchema schema)
    {
        try
        {
            return ColumnProjection.of(schema, key, value);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
    }

    /**
     * @param schema a journal's columns.
     * @return the PostgreSQL results table of the pipeline's rows: its key columns, and its value and
     *         aggregate (a mean is at the value's scale) as bigint or exact numeric columns.
     * @throws BadInputException if a column is missing or of the wrong type, or a key column cannot be a
     *                           column of the table.
     */
    ResultsTableShape tableShape(final JournalSchema schema)
    {
        final ColumnProjection projection = projection(schema);
        try
        {
            return ResultsTableShape.of(schema, projection.keyColumns(), projection.valueColumn(),
                withAggregate && aggregateIsAValue ? projection.valueScale() : 0);
        }
        catch (final SinkRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
    }

    /**
     * @return true for the default columns, {@code key} and {@code value}.
     */
    boolean isDefault()
    {
        return key.equals(ColumnProjection.DEFAULT_KEY) && value.equals(ColumnProjection.DEFAULT_VALUE);
    }

    /**
     * @param directory the journal.
     * @return the text of the pipeline's key ids, to close after use.
     * @throws BadInputException if a column is missing or of the wrong type.
     */
    KeyText keyText(final JournalDirectory directory)
    {
        return KeyText.open(directory, projection(directory.schema()));
    }

    /**
     * @param directory the journal, whose schema names the columns' types.
     * @param keys      the text of the pipeline's key ids, read on the thread that owns it.
     * @return the row format.
     * @throws BadInputException if a column is missing or of the wrong type.
     */
    ResultRow rows(final JournalDirectory directory, final KeyColumns keys)
    {
        final ColumnProjection projection = projection(directory.schema());
        return new ResultRow(keys, projection.valueName(), projection.valueScale(), withAggregate, aggregateIsAValue ? projection.valueScale() : 0);
    }
}
