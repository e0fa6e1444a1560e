package dev.weir.files;

import java.util.List;
import java.util.Objects;

import dev.weir.engine.EarlyRows;
import dev.weir.engine.aggregate.BoundAggregates;
import dev.weir.engine.aggregate.NamedAggregates;
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
 * before several existed), a column named after each for several ({@link AggregateSpec#fileColumn()}). With named
 * aggregates ({@code --aggregates}) the rows show the key and a column named after each aggregate instead, at its
 * scale; no aggregate may be named like a key column.
 * <p>
 * Immutable and thread-safe.
 *
 * @param key        the key column's name, or several separated by commas.
 * @param value      the value column's name, or null with named aggregates.
 * @param aggregates the user aggregations, in order; a mean is printed at the value column's scale, a count
 *                   as it is.
 * @param updates    whether the pipeline emits update rows ({@code emitUpdates(true)}, {@code --emit updates}).
 * @param earlyWhen  the pipeline's early condition ({@code earlyWhen}, {@code --early-when}), or null; with either option rows carry
 *                   a {@code kind} column.
 * @param where      the pipeline's filter ({@code where}, {@code --where}), or null: no column of the rows, checked with them.
 * @param times      how rows print their instants ({@code --time-format}).
 * @param joins      the tables the pipeline joins ({@code join}, {@code --join}), in order, whose columns the value, the
 *                   filter and the early condition may name ({@code TABLE.COLUMN}); empty for none.
 * @param named      the pipeline's named aggregates ({@code aggregates(String)}, {@code --aggregates}), or null for none:
 *                   with them rows show a column per aggregate instead of count, sum, min and max, and late events no
 *                   value; the value is then null and there are no user aggregations.
 */
public record RowColumns(String key, String value, List<AggregateSpec> aggregates, boolean updates, String earlyWhen, String where,
    TimeFormat times, List<String> joins, NamedAggregates named)
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
     * @param value      the value column's name, or null with named aggregates.
     * @param aggregates the user aggregations, in order; empty with named aggregates.
     * @param updates    whether the pipeline emits update rows.
     * @param earlyWhen  the pipeline's early condition, or null.
     * @param where      the pipeline's filter, or null.
     * @param times      how rows print their instants.
     * @param joins      the joined tables' names, in order.
     * @param named      the named aggregates, or null.
     * @throws IllegalArgumentException with named aggregates and a value or user aggregations (as the pipeline refuses them).
     */
    public RowColumns
    {
        aggregates = List.copyOf(aggregates);
        joins = List.copyOf(joins);
        Objects.requireNonNull(times, "times");
        if (named != null && value != null)
        {
            throw new IllegalArgumentException("--value: with --aggregates, name the value in an aggregate, e.g. total=sum(amount)");
        }
        if (named != null && !aggregates.isEmpty())
        {
            throw new IllegalArgumentException("--aggregate and --aggregates exclude each other: name the aggregation in --aggregates");
        }
    }

    /**
     * The columns of a pipeline without named aggregates.
     *
     * @param key        the key column's name, or several separated by commas.
     * @param value      the value column's name.
     * @param aggregates the user aggregations, in order.
     * @param updates    whether the pipeline emits update rows.
     * @param earlyWhen  the pipeline's early condition, or null.
     * @param where      the pipeline's filter, or null.
     * @param times      how rows print their instants.
     * @param joins      the joined tables' names, in order.
     */
    public RowColumns(final String key, final String value, final List<AggregateSpec> aggregates, final boolean updates, final String earlyWhen,
        final String where, final TimeFormat times, final List<String> joins)
    {
        this(key, value, aggregates, updates, earlyWhen, where, times, joins, null);
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
     * @return the key and value columns in it (no value with named aggregates).
     * @throws ExportRefusedException as {@link #projection(JournalSchema)}, and if a joined table is not among them, or
     *                                a named aggregate does not bind to the columns or is named like a key column.
     */
    public ColumnProjection projection(final JournalSchema schema, final List<TableDefinition> tables)
    {
        return checked(schema, tables).projection();
    }

    /** The columns a journal gives the rows: the key and value, and the named aggregates bound (null without). */
    private record Checked(ColumnProjection projection, BoundAggregates named)
    {
    }

    private Checked checked(final JournalSchema schema, final List<TableDefinition> tables)
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
                projection = named != null ? ColumnProjection.withoutValue(schema, key) : ColumnProjection.of(schema, columns, key, value);
            }
            catch (final ExpressionException ex)
            {
                throw new ExportRefusedException(expressionError("--value", value, ex));
            }
            final BoundAggregates bound = named == null ? null : bound(projection, columns);
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
            if (earlyWhen != null && bound != null)
            {
                EarlyRows.checkCondition(earlyWhen, bound, columns);
            }
            else if (earlyWhen != null)
            {
                EarlyRows.checkCondition(earlyWhen, projection.valueScale(), aggregates.size(), columns);
            }
            return new Checked(projection, bound);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ExportRefusedException(ex.getMessage());
        }
    }

    /**
     * @return the named aggregates bound to the columns: names, scales.
     * @throws ExportRefusedException {@code --aggregates: } and why they do not bind, or the name that is a key column's.
     */
    private BoundAggregates bound(final ColumnProjection projection, final ExpressionColumns columns)
    {
        for (int i = 0; i < projection.keyArity(); i++)
        {
            final String keyName = projection.schema().column(projection.keyColumn(i)).name();
            if (named.indexOf(keyName) >= 0)
            {
                throw new ExportRefusedException("--aggregates: '" + keyName + "' is a key column: a row would have two columns of that name; "
                    + "name the aggregate otherwise");
            }
        }
        try
        {
            return named.bind(columns);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ExportRefusedException("--aggregates: " + ex.getMessage());
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
        final Checked checked = checked(directory.schema(), directory.tables());
        final ResultRow row = checked.named() == null ? userAggregateRows(checked.projection(), keys) : namedRows(checked.named(), keys);
        final ResultRow kinds = withKind() ? row.withKinds() : row;
        return times == TimeFormat.iso ? kinds.withIsoTimes() : kinds;
    }

    private ResultRow userAggregateRows(final ColumnProjection projection, final KeyColumns keys)
    {
        final String[] names = new String[aggregates.size()];
        final int[] scales = new int[aggregates.size()];
        for (int i = 0; i < names.length; i++)
        {
            names[i] = names.length == 1 ? "aggregate" : aggregates.get(i).fileColumn();
            scales[i] = aggregates.get(i).isAValue() ? projection.valueScale() : 0;
        }
        return new ResultRow(keys, projection.valueName(), projection.valueScale(), names, scales);
    }

    private static ResultRow namedRows(final BoundAggregates bound, final KeyColumns keys)
    {
        final String[] names = new String[bound.size()];
        final int[] scales = new int[bound.size()];
        for (int i = 0; i < names.length; i++)
        {
            names[i] = bound.name(i);
            scales[i] = bound.scale(i);
        }
        return ResultRow.named(keys, names, scales);
    }
}
