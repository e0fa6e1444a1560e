package dev.weir.engine.aggregate;

import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.expr.EventValue;
import dev.weir.engine.expr.ExpressionColumns;
import dev.weir.engine.expr.ExpressionException;
import dev.weir.engine.expr.Expressions;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;

/**
 * Binds parsed named aggregates to a pipeline's columns: compiles each call's value and filter (an error placed in
 * the whole list), gives equal values one input and equal filters one bit, works out every scale and refuses what
 * cannot run (a product over 18 decimals, more than 64 filters, a result needing more state than an aggregation may
 * keep). One use, one thread.
 */
final class AggregateBinder
{
    private static final int MAX_FILTERS = Long.SIZE;

    private final NamedAggregates definitions;
    private final ExpressionColumns columns;
    /** Each input's key ({@code value TEXT} or {@code column INDEX}), in input order. */
    private final List<String> inputKeys = new ArrayList<>();
    private final List<InputSource> inputs = new ArrayList<>();
    /** Each filter's normalised text, in bit order. */
    private final List<String> filterKeys = new ArrayList<>();
    private final List<String> filters = new ArrayList<>();

    AggregateBinder(final NamedAggregates definitions, final ExpressionColumns columns)
    {
        this.definitions = definitions;
        this.columns = columns;
    }

    BoundAggregates bind()
    {
        final List<AggregatePlan> plans = new ArrayList<>();
        for (final AggregateParser.Definition definition : definitions.definitionList())
        {
            final List<CallPlan> calls = new ArrayList<>();
            final int scale = scale(definition.result(), calls);
            final StringBuilder label = new StringBuilder(definition.name()).append('=');
            definition.result().render(label);
            final AggregatePlan plan = new AggregatePlan(definition.name(), label.toString(), definition.result(), List.copyOf(calls), scale);
            if (plan.stateLongs() > Aggregation.MAX_STATE_LONGS)
            {
                throw error(definition.position(), "'" + definition.name() + "' needs " + plan.stateLongs() + " longs of state",
                    "at most " + Aggregation.MAX_STATE_LONGS + ": name fewer calls in it");
            }
            plans.add(plan);
        }
        return new BoundAggregates(definitions, plans, inputs, filters, columns);
    }

    /** @return the scale of {@code syntax}; its calls bound and appended to {@code calls} in walking order. */
    private int scale(final AggregateSyntax syntax, final List<CallPlan> calls)
    {
        if (syntax instanceof AggregateSyntax.Call call)
        {
            final CallPlan plan = call(call);
            calls.add(plan);
            return plan.scale();
        }
        if (syntax instanceof AggregateSyntax.Literal literal)
        {
            return literal.scale();
        }
        if (syntax instanceof AggregateSyntax.Reference reference)
        {
            return scale(reference.definition(), calls);
        }
        if (syntax instanceof AggregateSyntax.Negation negation)
        {
            return scale(negation.operand(), calls);
        }
        final AggregateSyntax.Arithmetic operation = (AggregateSyntax.Arithmetic)syntax;
        final int left = scale(operation.left(), calls);
        final int right = scale(operation.right(), calls);
        final int scale = ResultNodes.Operation.scaleOf(operation.operator(), left, right);
        if (scale > JournalSchema.MAX_SCALE)
        {
            throw error(operation.position(), "the product has " + scale + " decimals", "at most " + JournalSchema.MAX_SCALE);
        }
        return scale;
    }

    private CallPlan call(final AggregateSyntax.Call call)
    {
        final int filter = call.filter() == null ? -1 : filter(call.filter(), call.filterAt());
        return switch (call.function())
        {
            case "count" -> new CallPlan("count", -1, filter, 0);
            case "approx_distinct" -> new CallPlan("approx_distinct", column(call.value(), call.valueAt()), filter, 0);
            default -> value(call, filter);
        };
    }

    private CallPlan value(final AggregateSyntax.Call call, final int filter)
    {
        final EventValue value;
        try
        {
            value = Expressions.value(call.value(), columns);
        }
        catch (final ExpressionException ex)
        {
            throw placed(ex, "value", call.value(), call.valueAt());
        }
        return new CallPlan(call.function(), input("value " + value, new InputSource(call.value(), -1)), filter, value.scale());
    }

    private int column(final String written, final int at)
    {
        final String name = written.strip();
        final int index = columns.indexOf(name);
        if (index < 0)
        {
            throw error(at + AggregateParser.leadingSpaces(written), "unknown column '" + name + "'", "expected one of " + columnNames());
        }
        return input("column " + index, new InputSource(null, index));
    }

    private String columnNames()
    {
        final StringBuilder names = new StringBuilder();
        for (int i = 0; i < columns.size(); i++)
        {
            names.append(i == 0 ? "" : ", ").append(columns.name(i));
        }
        return names.toString();
    }

    private int input(final String key, final InputSource source)
    {
        final int known = inputKeys.indexOf(key);
        if (known >= 0)
        {
            return known;
        }
        inputKeys.add(key);
        inputs.add(source);
        return inputs.size() - 1;
    }

    private int filter(final String written, final int at)
    {
        final String normalised;
        try
        {
            normalised = Expressions.check(written, columns);
        }
        catch (final ExpressionException ex)
        {
            throw placed(ex, "filter", written, at);
        }
        final int known = filterKeys.indexOf(normalised);
        if (known >= 0)
        {
            return known;
        }
        if (filterKeys.size() == MAX_FILTERS)
        {
            throw error(at + AggregateParser.leadingSpaces(written), "more than " + MAX_FILTERS + " different filters", null);
        }
        filterKeys.add(normalised);
        filters.add(written);
        return filters.size() - 1;
    }

    /** An expression's error, placed in the whole list: {@code unknown column 'x'} and what was expected there. */
    private AggregateSyntaxException placed(final ExpressionException ex, final String kind, final String written, final int at)
    {
        final String prefix = "expression '" + written + "' at position " + (ex.position() + 1) + ": ";
        final String problem = ex.getMessage().startsWith(prefix) ? ex.getMessage().substring(prefix.length()) : ex.getMessage();
        final int position = at + ex.position();
        if (problem.startsWith("expected"))
        {
            return error(position, "bad " + kind + " '" + written.strip() + "'", problem);
        }
        final int colon = problem.indexOf(": ");
        return colon < 0 ? error(position, problem, null) : error(position, problem.substring(0, colon), problem.substring(colon + 2));
    }

    private AggregateSyntaxException error(final int position, final String problem, final String expected)
    {
        return new AggregateSyntaxException(definitions.list(), position, problem, expected);
    }

    /**
     * Where one input comes from: a value as written, or the raw long of a column (approx_distinct's).
     *
     * @param value  the value as written, or null for a column.
     * @param column the column's index, or -1 for a value.
     */
    record InputSource(String value, int column)
    {
        /**
         * @param columns the pipeline's columns.
         * @return a fresh compiled input.
         */
        EventValue compile(final ExpressionColumns columns)
        {
            return value != null ? Expressions.value(value, columns)
                : new RawColumn(column, columns.column(column).type() == ColumnType.STRING);
        }
    }
}
