package dev.weir.engine.expr;

/** A compiled long value of one event (a decimal's unscaled long at scale()). Allocation-free; one owner thread. */
public interface EventValue
{
    long value(dev.weir.journal.EventView event);

    int scale();
}
