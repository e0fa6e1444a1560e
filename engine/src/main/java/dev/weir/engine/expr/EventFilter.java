package dev.weir.engine.expr;

/** A compiled filter over one event of a journal's schema. Allocation-free; one owner thread. */
@FunctionalInterface
public interface EventFilter
{
    boolean test(dev.weir.journal.EventView event);
}
