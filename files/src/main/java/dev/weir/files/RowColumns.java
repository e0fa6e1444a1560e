package dev.weir.files;

import java.util.List;
import java.util.Objects;

import dev.weir.engine.EarlyRows;
import dev.weir.engine.expr.ColumnProjection;
import dev.weir.engine.expr.ExpressionColumns;
import dev.weir.engine.expr.ExpressionException;
import dev.weir.engine.expr.Expressions;
import dev.weir.engine.join.JoinedColumns;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;

/**
 * Which columns a pipeline's rows show: its key and value columns (by name, as the pipeline's builder and
 * {@code --key} and {@code --value} give them) and a column per user aggregation: {@code aggregate} for one (the files of
 * before several existed), a column named after each for several ({@link AggregateSpec#fileColumn()}).
 * <p>
 * Immutable and thread-safe.
 *
 * @param key        the key column's name, or several separated by commas.
 * @param value      the value column's name.
 * @param aggregates the user aggregations, in order; a mean is printed at the value column's scale, a count
 *                   as it is.
 * @param updates    whether the pipeline emits update rows ({@code emitUpdates(true)}, {@code --emit updates}).
 * @param earlyWhen  the pipeline's early condition ({@code earlyWhen}, {@code --early-when}), or null; with either option rows carry
 *                   a {@code kind} column.
 * @param where      the pipeline's filter ({@code where}, {@code --where}), or null: no column of the rows, checked with them.
 * @param times      how rows print their instants ({@code --time-format}).
 * @param joins      the tables the pipeline joins ({@code join}, {@code --join}), in order, whose columns the value, the
 *                   filter and the early condition may name ({@code TABLE.COLUMN}); empty for none.
 */
public record RowColumns(String key, String value, List<AggregateSpec> aggregates, boolean updates, String earlyWhen, String where,
    TimeFormat times, List<String> joins)
{
    /**
     * The columns of a pipeline with final rows only.
     *
     * @param key        the key column's name, or several separated by commas.
     * @param value      the value column's name.
     * @param aggregates the user aggregations, in order.
     */
    public RowColumns(final String key, final String value, final List<AggregateSpec> aggregates)
    {
        this(key, value, aggregates, false, null, null);
    }

    /**
     * The columns of a pipeline whose rows print instants in epoch milliseconds.
     *
     * @param key        the key column's name, or several separated by commas.
     * @param value      the value column's name.
     * @param aggregates the user aggregations, in order.
     * @param updates    whether the pipeline emits update rows.
     * @param earlyWhen  the pipeline's early condition, or null.
     * @param where      the pipeline's filter, or null.
     */
    public RowColumns(final String key, final String value, final List<AggregateSpec> aggregates, final boolean updates, final String earlyWhen,
        final String where)
    {
        this(key, value, aggregates, updates, earlyWhen, where, TimeFormat.epoch);
    }

    /**
     * @param key        the key column's name, or several separated by commas.
     * @param value      the value column's name.
     * @param aggregates the user aggregations, in order.
     * @param updates    whether the pipeline emits update rows.
     * @param earlyWhen  the pipeline's early condition, or null.
     * @param where      the pipeline's filter, or null.
     * @param times      how rows print their instants.
     * @param joins      the joined tables' names, in order.
     */
    public RowColumns
    {
        aggregates = List.copyOf(aggregates);
        joins = List.copyOf(joins);
        Objects.requireNonNull(times, "times");
    }

    /**
     * The columns of a pipeline without joins.
     *
     * @param key        the key column's name, or several separated by commas.
     * @param value      the value column's name.
     * @param aggregates the user aggregations, in order.
     * @param updates    whether the pipeline emits update rows.
     * @param earlyWhen  the pipeline's early condition, or null.
     * @param where      the pipeline's filter, or null.
     * @param times      how rows print their instants.
     */
    public RowColumns(final String key, final String value, final List<AggregateSpec> aggregates, final boolean updates, final String earlyWhen,
        final String where, final TimeFormat times)
    {
        this(key, value, aggregates, updates, earlyWhen, where, times, List.of());
    }

    /** @return whether rows carry a {@code kind} column: with update or early rows. */
    public boolean withKind()
    {
        return updates || earlyWhen != null;
    }

    /**
     * @param schema a journal's columns.
     * @return the key and value columns in it.
     * @throws ExportRefusedException if a column is missing or of the wrong type, the key's, the value's or one an
     *                                aggregation reads (the message names the columns), or the filter or the early
     *                                condition does not read (the message names the position).
     */
    public ColumnProjection projection(final JournalSchema schema)
    {
        return projection(schema, List.of());
    }

    /**
     * @param schema a journal's columns.
     * @param tables its tables, in definition order (the joined ones are read from them).
     * @return the key and value columns in it.
     * @throws ExportRefusedException as {@link #projection(JournalSchema)}, and if a joined table is not among them.
     */
    public ColumnProjection projection(final JournalSchema schema, final List<TableDefinition> tables)
    {
        try
        {
            final ExpressionColumns columns = JoinedColumns.of(schema, tables, joins);
            for (final AggregateSpec spec : aggregates)
            {
                spec.aggregation().bind(schema);
            }
            final ColumnProjection projection;
            try
            {
                projection = ColumnProjection.of(schema, columns, key, value);
            }
            catch (final ExpressionException ex)
            {
                throw new ExportRefusedException(expressionError("--value", value, ex));
            }
            if (where != null)
            {
                try
                {
                    Expressions.check(where, columns);
                }
                catch (final ExpressionException ex)
                {
                    throw new ExportRefusedException(expressionError("--where", where, ex));
                }
            }
            if (earlyWhen != null)
            {
                EarlyRows.checkCondition(earlyWhen, projection.valueScale(), aggregates.size(), columns);
            }
            return projection;
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ExportRefusedException(ex.getMessage());
        }
    }

    /**
     * @param option the option that gave the expression.
     * @param text   the expression.
     * @param ex     why it does not compile.
     * @return the one line to print: the option, then the problem as the expression language words it (it
     *         quotes the expression and names the 1-based position).
     */
    private static String expressionError(final String option, final String text, final ExpressionException ex)
    {
        assert ex.getMessage().contains("at position " + (ex.position() + 1)) : "the message names the position: " + ex.getMessage();
        return option + ": " + ex.getMessage();
    }

    /**
     * @param directory the journal.
     * @return the text of the pipeline's key ids, to close after use.
     * @throws ExportRefusedException if a column is missing or of the wrong type.
     */
    public KeyText keyText(final JournalDirectory directory)
    {
        return KeyText.open(directory, projection(directory.schema(), directory.tables()));
    }

    /**
     * @param directory the journal, whose schema names the columns' types.
     * @param keys      the text of the pipeline's key ids, read on the thread that owns it.
     * @return the row format.
     * @throws ExportRefusedException if a column is missing or of the wrong type.
     */
    public ResultRow rows(final JournalDirectory directory, final KeyColumns keys)
    {
        final ColumnProjection projection = projection(directory.schema(), directory.tables());
        final String[] names = new String[aggregates.size()];
        final int[] scales = new int[aggregates.size()];
        for (int i = 0; i < names.length; i++)
        {
            names[i] = names.length == 1 ? "aggregate" : aggregates.get(i).fileColumn();
            scales[i] = aggregates.get(i).isAValue() ? projection.valueScale() : 0;
        }
        final ResultRow row = new ResultRow(keys, projection.valueName(), projection.valueScale(), names, scales);
        final ResultRow kinds = withKind() ? row.withKinds() : row;
        return times == TimeFormat.iso ? kinds.withIsoTimes() : kinds;
    }
}
