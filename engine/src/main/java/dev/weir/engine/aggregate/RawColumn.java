package dev.weir.engine.aggregate;

import dev.weir.engine.expr.EventValue;
import dev.weir.journal.schema.EventView;

/**
 * The raw long of one column, as {@code approx_distinct} counts it: a string's dictionary id, a long, a decimal's
 * unscaled long. Allocation-free; stateless and thread-safe.
 */
final class RawColumn implements EventValue
{
    private final int column;
    private final boolean string;

    /**
     * @param column the column's index among the pipeline's columns.
     * @param string true for a string column.
     */
    RawColumn(final int column, final boolean string)
    {
        this.column = column;
        this.string = string;
    }

    @Override
    public long value(final EventView event)
    {
        return string ? event.stringId(column) : event.longColumn(column);
    }

    @Override
    public int scale()
    {
        return 0;
    }
}
