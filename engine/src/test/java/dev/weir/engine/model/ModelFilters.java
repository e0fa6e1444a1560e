package dev.weir.engine.model;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * Filters and computed values in the reference model, with the rule that the watermark belongs to the
 * journal: an event the filter rejects moves the watermark as an event of its time would, and nothing else,
 * which is what a {@link ModelEvent#heartbeat} of its time does. The columns a filter reads are the model's
 * own: {@link #channel}, {@link #fee} and {@link #country} of an event, fixed by its id. Test-only; shares no
 * code with the engine.
 */
public final class ModelFilters
{
    private ModelFilters()
    {
    }

    /** @return {@code online, "web"} for an event id that is a multiple of 3, else {@code pos}. */
    public static String channel(final ModelEvent e)
    {
        return e.eventId() % 3 == 0 ? "online, \"web\"" : "pos";
    }

    /** @return three times the event id. */
    public static long fee(final ModelEvent e)
    {
        return e.eventId() * 3;
    }

    /** @return {@code FR} for an even event id, else {@code DE}. */
    public static String country(final ModelEvent e)
    {
        return e.eventId() % 2 == 0 ? "FR" : "DE";
    }

    /**
     * @param events the stream, heartbeats included.
     * @param keep   the filter.
     * @param value  the value of a kept event.
     * @return the stream the model runs: kept events with their value, rejected ones as heartbeats of their time.
     */
    public static List<ModelEvent> apply(final List<ModelEvent> events, final Predicate<ModelEvent> keep, final ToLongFunction<ModelEvent> value)
    {
        final List<ModelEvent> out = new ArrayList<>(events.size());
        for (final ModelEvent e : events)
        {
            if (e.isHeartbeat())
            {
                out.add(e);
            }
            else if (keep.test(e))
            {
                out.add(new ModelEvent(e.eventId(), e.eventTime(), e.key(), value.applyAsLong(e)));
            }
            else
            {
                out.add(ModelEvent.heartbeat(e.eventTime()));
            }
        }
        return out;
    }

    /**
     * @param events the stream.
     * @param keep   the filter.
     * @return how many events (not heartbeats) the filter rejects.
     */
    public static long rejected(final List<ModelEvent> events, final Predicate<ModelEvent> keep)
    {
        return events.stream().filter(e -> !e.isHeartbeat() && !keep.test(e)).count();
    }
}
