package dev.weir.engine.aggregate;

/**
 * One call of a named aggregate, bound: its function, the event input it reads, the filter bit it needs and the
 * scale of its values; it makes fresh state machines. Immutable; thread-safe.
 *
 * @param function   count, sum, min, max, first, last, avg or approx_distinct.
 * @param input      the index of its value among the event's inputs (-1 for count).
 * @param filter     its filter's bit, or -1 for none.
 * @param valueScale the scale of its value (0 for count and approx_distinct).
 */
record CallPlan(String function, int input, int filter, int valueScale)
{
    /** @return the scale of its results. */
    int scale()
    {
        return switch (function)
        {
            case "count", "approx_distinct" -> 0;
            case "avg" -> AverageAggregate.scaleOf(valueScale);
            default -> valueScale;
        };
    }

    /** @return how many longs of state its state machine keeps. */
    int stateLongs()
    {
        return newAggregation("").stateLongs();
    }

    /**
     * @param name the name of the state machine, in the configuration.
     * @return a fresh state machine for the call.
     */
    CallAggregate newAggregation(final String name)
    {
        return switch (function)
        {
            case "count" -> new CountAggregate(name, filter);
            case "sum" -> new SumAggregate(name, input, filter);
            case "min" -> new ExtremeAggregate(name, input, filter, false);
            case "max" -> new ExtremeAggregate(name, input, filter, true);
            case "first" -> new FirstLastAggregate(name, input, filter, false);
            case "last" -> new FirstLastAggregate(name, input, filter, true);
            case "avg" -> new AverageAggregate(name, input, filter, valueScale);
            case "approx_distinct" -> new DistinctAggregate(name, input, filter);
            default -> throw new IllegalStateException("function " + function);
        };
    }
}
