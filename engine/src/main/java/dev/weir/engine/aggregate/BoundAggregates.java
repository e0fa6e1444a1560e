package dev.weir.engine.aggregate;

import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.expr.EventFilter;
import dev.weir.engine.expr.EventValue;
import dev.weir.engine.expr.ExpressionColumns;
import dev.weir.engine.expr.Expressions;
import dev.weir.engine.expr.StringTexts;

/**
 * Named aggregates bound to a pipeline's columns ({@link NamedAggregates#bind}): each one's name and scale, its
 * window-slot state machine, and the inputs every event carries for them: one long per different value (equal
 * normalised values share one) and one filter bit per different filter.
 * <p>
 * Immutable; thread-safe: {@link #newAggregations()} and {@link #newInputs} give fresh objects, one set per run.
 */
public final class BoundAggregates
{
    private final NamedAggregates definitions;
    private final List<AggregatePlan> plans;
    private final List<AggregateBinder.InputSource> inputs;
    private final List<String> filters;
    private final ExpressionColumns columns;

    BoundAggregates(final NamedAggregates definitions, final List<AggregatePlan> plans, final List<AggregateBinder.InputSource> inputs,
        final List<String> filters, final ExpressionColumns columns)
    {
        this.definitions = definitions;
        this.plans = List.copyOf(plans);
        this.inputs = List.copyOf(inputs);
        this.filters = List.copyOf(filters);
        this.columns = columns;
    }

    /** @return the definitions, as parsed. */
    public NamedAggregates definitions()
    {
        return definitions;
    }

    /** @return how many named aggregates. */
    public int size()
    {
        return plans.size();
    }

    /**
     * @param i 0 .. {@link #size()} - 1.
     * @return its name.
     */
    public String name(final int i)
    {
        return plans.get(i).name();
    }

    /**
     * @param i 0 .. {@link #size()} - 1.
     * @return the scale of its values, 0 to 18: every value of the aggregate, in every row, is unscaled at it.
     */
    public int scale(final int i)
    {
        return plans.get(i).scale();
    }

    /**
     * @param i 0 .. {@link #size()} - 1.
     * @return true if its values are decimals ({@code scale(i) > 0}).
     */
    public boolean isDecimal(final int i)
    {
        return scale(i) > 0;
    }

    /**
     * @return fresh window-slot state machines, one per named aggregate, in order; each
     *         {@link Aggregation#readsInputs() reads the inputs}, keeps at most {@link Aggregation#MAX_STATE_LONGS}
     *         longs and allocates nothing; {@link Aggregation#hasValue} false means the window has no value for it.
     *         For the engine's last-stage thread.
     */
    public List<Aggregation> newAggregations()
    {
        final List<Aggregation> aggregations = new ArrayList<>(plans.size());
        for (final AggregatePlan plan : plans)
        {
            aggregations.add(plan.newAggregation());
        }
        return List.copyOf(aggregations);
    }

    /**
     * @param strings the run's string texts, for the filters' string literals and string column comparisons.
     * @return the inputs, compiled for one run; for the source stage's thread.
     */
    public AggregateInputs newInputs(final StringTexts strings)
    {
        final EventValue[] values = new EventValue[inputs.size()];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = inputs.get(i).compile(columns);
        }
        final EventFilter[] compiled = new EventFilter[filters.size()];
        for (int f = 0; f < compiled.length; f++)
        {
            compiled[f] = Expressions.filter(filters.get(f), columns, strings);
        }
        return new AggregateInputs(values, compiled);
    }

    /** @return how many longs each event carries for the aggregates ({@code EventSlot.inputs}); may be 0. */
    public int inputCount()
    {
        return inputs.size();
    }

    @Override
    public String toString()
    {
        return definitions.text();
    }
}
