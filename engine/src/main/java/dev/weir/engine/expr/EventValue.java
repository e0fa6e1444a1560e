package dev.weir.engine.expr;

/** A compiled long value of one event (a decimal's unscaled long at scale()). Allocation-free; one owner thread. */
public interface EventValue
{
    /**
     * @param event the event, valid during the call only.
     * @return the value, unscaled at {@link #scale()}.
     */
    long value(dev.weir.journal.EventView event);

    /** @return the value's decimal scale, 0 to 18 (0 for a whole number). */
    int scale();
}
