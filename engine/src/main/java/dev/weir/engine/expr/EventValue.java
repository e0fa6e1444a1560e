package dev.weir.engine.expr;

/** A compiled long value of one event (a decimal's unscaled long at scale()). Allocation-free; one owner thread. */
public interface EventValue
{
    /**
     * @param event the event, valid only during the call.
     * @return its value, unscaled at {@link #scale()}.
     */
    long value(dev.weir.journal.EventView event);

    /** @return the value's scale: fraction digits, 0 for a whole number. */
    int scale();
}
