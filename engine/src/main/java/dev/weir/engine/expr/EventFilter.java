package dev.weir.engine.expr;

/** A compiled filter over one event of a journal's schema. Allocation-free; one owner thread. */
@FunctionalInterface
public interface EventFilter
{
    /**
     * @param event the event, valid during the call only.
     * @return true if the pipeline keeps the event.
     */
    boolean test(dev.weir.journal.schema.EventView event);
}
