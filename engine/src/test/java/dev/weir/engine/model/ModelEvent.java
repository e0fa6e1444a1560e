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

    /** The key of a {@link #heartbeat}: no key of the generated streams (they have no '~'). */
    public static final String HEARTBEAT_KEY = "~heartbeat";

    /**
     * @param eventTime the heartbeat's time.
     * @return a heartbeat: no event, it only moves the watermark as an event of that time would.
     */
    public static ModelEvent heartbeat(final long eventTime)
    {
        return new ModelEvent(-1, eventTime, HEARTBEAT_KEY, 0);
    }

    /**
     * @return true if this is a {@link #heartbeat}, not an event.
     */
    public boolean isHeartbeat()
    {
        return HEARTBEAT_KEY.equals(key);
    }

    /**
     * @return the event as a late (side output) row: {@code event_id,event_time,key,value}.
     */
    public String toCsv()
    {
        return eventId + "," + eventTime + "," + key + "," + value;
    }
}
