package dev.weir.engine.model;

import java.util.Objects;

/**
 * One input event for the test-only reference model: {@code event_id, event_time, key, value}
 * exactly as in DESIGN.md. Test-only; shares no code with the engine.
 *
 * @param eventId   unique per logical event.
 * @param eventTime epoch milliseconds, {@code >= 0}.
 * @param key       the grouping key.
 * @param value     the fixed-point value that is counted, summed (wrapping), min'ed and max'ed.
 */
public record ModelEvent(long eventId, long eventTime, String key, long value)
{
    public ModelEvent
    {
        Objects.requireNonNull(key, "key");
        if (eventTime < 0)
        {
            throw new IllegalArgumentException("eventTime must be >= 0: " + eventTime);
        }
    }

    /**
     * @return the event as a late (side output) row: {@code event_id,event_time,key,value}.
     */
    public String toCsv()
    {
        return eventId + "," + eventTime + "," + key + "," + value;
    }
}
