package dev.weir.engine;

import dev.weir.engine.aggregate.BoundAggregates;
import dev.weir.engine.expr.ExpressionColumns;
import dev.weir.engine.operator.OperatorConfiguration;
import dev.weir.engine.operator.WindowConditions;
import dev.weir.engine.window.WindowSpec;

/**
 * The engine's rules for early rows ({@link PipelineBuilder#earlyWhen(String)},
 * {@link PipelineBuilder#earlyOncePerKey(boolean)}), for a command line or a sink that checks its own options before
 * it builds a pipeline: the same checks, the same messages. Stateless; thread-safe.
 */
public final class EarlyRows
{
    private EarlyRows()
    {
    }

    /**
     * @param window a window spec.
     * @return null if its windows of a key overlap (sliding, with a slide less than the size), so early rows once per
     *         key apply to it; else why they do not.
     */
    public static String oncePerKeyProblem(final WindowSpec window)
    {
        return OperatorConfiguration.earlyOncePerKeyProblem(window);
    }

    /**
     * Reads an early condition's text as {@link PipelineBuilder#earlyWhen(String)} will when the configuration is
     * concluded, a comparison's right side naming a number or a long or decimal column.
     *
     * @param condition    the condition's text.
     * @param valueScale   the value column's decimal scale, 0 for a long column.
     * @param aggregations how many user aggregations the pipeline has.
     * @param columns      the columns the condition may name: the event's, then joined tables' ({@code TABLE.COLUMN}).
     * @throws IllegalArgumentException if the text does not follow the grammar, names a missing aggregate, or names
     *                                  an unknown or string column; the message names the position.
     */
    public static void checkCondition(final String condition, final int valueScale, final int aggregations, final ExpressionColumns columns)
    {
        WindowConditions.parse(condition, valueScale, aggregations, columns);
    }

    /**
     * Reads an early condition's text over named aggregates as {@link PipelineBuilder#earlyWhen(String)} will when the
     * configuration has {@link PipelineBuilder#aggregates(String) named aggregates}.
     *
     * @param condition the condition's text, e.g. {@code declines>=3 and approved>1000.00}.
     * @param named     the pipeline's named aggregates, bound to its columns.
     * @param columns   the columns the condition may name: the event's, then joined tables' ({@code TABLE.COLUMN}).
     * @throws IllegalArgumentException if the text does not follow the grammar, names no aggregate of the list (or
     *                                  {@code sum}, {@code min}, {@code max}, {@code aggregate}), or names an unknown or
     *                                  string column; the message names the position.
     */
    public static void checkCondition(final String condition, final BoundAggregates named, final ExpressionColumns columns)
    {
        WindowConditions.parse(condition, named, columns);
    }
}
