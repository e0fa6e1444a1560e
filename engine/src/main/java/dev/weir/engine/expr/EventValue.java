package dev.weir.engine.expr;

/**
 * A compiled long value of one event (a decimal's unscaled long at scale()). Allocation-free; one owner thread.
 * <p>
 * Its arithmetic wraps as 64-bit two's complement; {@link #wrapped()} tells whether the last value did, and the
 * engine counts those events ({@code values wrapped}).
 */
public interface EventValue
{
    /**
     * @param event the event, valid during the call only.
     * @return the value, unscaled at {@link #scale()}.
     */
    long value(dev.weir.journal.schema.EventView event);

    /**
     * @return true if the last {@link #value} wrapped: a step of its arithmetic (an operation, or rescaling an
     *         operand) left the 64-bit range (where {@code Math.addExact} and the like would throw), so the value
     *         may not be the exact result. A compiled expression
     *         ({@link Expressions#value}) tells; a value written in Java says false unless it overrides this.
     */
    default boolean wrapped()
    {
        return false;
    }

    /** @return the value's decimal scale, 0 to 18 (0 for a whole number). */
    int scale();
}
