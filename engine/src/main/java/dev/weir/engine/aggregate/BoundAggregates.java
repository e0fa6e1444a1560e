package dev.weir.engine.aggregate;

import java.util.List;

import dev.weir.engine.expr.StringTexts;

/**
 * Named aggregates bound to a pipeline's columns: each one's scale, its window-slot state machine and the
 * per-event inputs they read.
 * <p>
 * Immutable; thread-safe ({@link #newAggregations()} and {@link #newInputs} give fresh objects per run).
 */
public final class BoundAggregates
{
    private BoundAggregates()
    {
    }

    /** @return the definitions, as parsed. */
    public NamedAggregates definitions()
    {
        throw new UnsupportedOperationException("i33-parse: not yet");
    }

    /** @return how many named aggregates. */
    public int size()
    {
        throw new UnsupportedOperationException("i33-parse: not yet");
    }

    /**
     * @param i 0 .. {@link #size()} - 1.
     * @return its name.
     */
    public String name(final int i)
    {
        throw new UnsupportedOperationException("i33-parse: not yet");
    }

    /**
     * @param i 0 .. {@link #size()} - 1.
     * @return the scale of its values, 0 to 18.
     */
    public int scale(final int i)
    {
        throw new UnsupportedOperationException("i33-parse: not yet");
    }

    /**
     * @param i 0 .. {@link #size()} - 1.
     * @return true if its values are decimals ({@code scale(i) > 0}).
     */
    public boolean isDecimal(final int i)
    {
        return scale(i) > 0;
    }

    /** @return fresh window-slot state machines, one per named aggregate, in order. */
    public List<Aggregation> newAggregations()
    {
        throw new UnsupportedOperationException("i33-parse: not yet");
    }

    /**
     * @param strings the run's string texts, for filters' string literals.
     * @return the per-event inputs, compiled for one run.
     */
    public AggregateInputs newInputs(final StringTexts strings)
    {
        throw new UnsupportedOperationException("i33-parse: not yet");
    }

    /** @return how many longs each event carries for the aggregates ({@code EventSlot.inputs}). */
    public int inputCount()
    {
        throw new UnsupportedOperationException("i33-parse: not yet");
    }
}
