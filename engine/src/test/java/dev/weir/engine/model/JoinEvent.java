package dev.weir.engine.model;

import java.util.Map;
import java.util.Objects;

/**
 * An event (or a heartbeat) of a journal with tables: the window model's event and the event columns a join
 * and an expression read, by name. Immutable. Test-only; shares no code with the engine.
 *
 * @param event   the window model's event ({@link ModelEvent#heartbeat} for a heartbeat); its value is the
 *                {@code amount} column's unscaled long.
 * @param columns the other event columns by name (empty for a heartbeat): a String or a Long.
 */
public record JoinEvent(ModelEvent event, Map<String, Object> columns) implements JournalEntry
{
    public JoinEvent
    {
        Objects.requireNonNull(event, "event");
        columns = Map.copyOf(columns);
    }

    /**
     * @param time the heartbeat's time.
     * @return a heartbeat.
     */
    public static JoinEvent heartbeat(final long time)
    {
        return new JoinEvent(ModelEvent.heartbeat(time), Map.of());
    }

    /** @return true for a heartbeat. */
    public boolean isHeartbeat()
    {
        return event.isHeartbeat();
    }

    /**
     * @param name an event column, or {@code amount}.
     * @return its value: a String or a Long.
     */
    public Object column(final String name)
    {
        if (name.equals("amount"))
        {
            return event.value();
        }
        final Object v = columns.get(name);
        if (v == null)
        {
            throw new IllegalArgumentException("no event column " + name + " in " + columns.keySet());
        }
        return v;
    }
}
