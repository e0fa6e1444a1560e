package dev.weir.engine.expr;

/** A compiled filter over one event of a journal's schema. Allocation-free; one owner thread. */
@FunctionalInterface
public interface EventFilter
{
    /**
     * @param event the event, valid only during the call.
     * @return true to keep the event for the pipeline, false to filter it out.
     */
    boolean test(dev.weir.journal.EventView event);
}
