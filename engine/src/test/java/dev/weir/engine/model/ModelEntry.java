package dev.weir.engine.model;

import java.util.Comparator;
import java.util.Objects;

/**
 * An event as a window of the reference model holds it: the event and its place in the journal (arrival
 * order), which breaks ties of event time for {@code first} and {@code last}. Test-only; shares no code with
 * the engine.
 *
 * @param event  the event.
 * @param offset its place in the journal: a later event has a greater offset.
 */
public record ModelEntry(ModelEvent event, long offset)
{
    /** Event time, then journal order: {@code first} is the least entry, {@code last} the greatest. */
    public static final Comparator<ModelEntry> BY_TIME_THEN_OFFSET =
        Comparator.comparingLong((ModelEntry e) -> e.event().eventTime()).thenComparingLong(ModelEntry::offset);

    public ModelEntry
    {
        Objects.requireNonNull(event, "event");
    }
}
