package dev.weir.engine.model;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Shrinks a failing stream: greedily removes chunks of events, halving the chunk size down to
 * single events, keeping every removal after which the predicate still reports failure. The
 * result still fails and no single event can be removed from it. Arrival order is preserved.
 * Test-only; shares no code with the engine.
 */
public final class StreamReducer
{
    private StreamReducer()
    {
    }

    /**
     * @param failing    the failing case.
     * @param stillFails true while the given stream (with the case's configuration) still fails.
     * @return a smaller stream that still fails (the case's own events if they do not fail).
     */
    public static List<ModelEvent> reduce(final GeneratedCase failing, final Predicate<List<ModelEvent>> stillFails)
    {
        return reduce(failing.events(), stillFails);
    }

    /**
     * @param <T>        an event, or any entry of a journal ({@link JournalEntry}).
     * @param events     a failing stream, in arrival order.
     * @param stillFails true while the given stream still fails; it receives unmodifiable lists.
     * @return a smaller stream that still fails (the input itself if it does not fail).
     */
    public static <T> List<T> reduce(final List<T> events, final Predicate<List<T>> stillFails)
    {
        List<T> current = List.copyOf(events);
        if (!stillFails.test(current))
        {
            return current;
        }
        int chunk = Math.max(1, current.size() / 2);
        while (true)
        {
            boolean removedAny = false;
            int from = 0;
            while (from < current.size())
            {
                final int to = Math.min(current.size(), from + chunk);
                final List<T> candidate = new ArrayList<>(current.subList(0, from));
                candidate.addAll(current.subList(to, current.size()));
                final List<T> frozen = List.copyOf(candidate);
                if (stillFails.test(frozen))
                {
                    current = frozen;
                    removedAny = true;
                }
                else
                {
                    from = to;
                }
            }
            if (!removedAny)
            {
                if (chunk == 1)
                {
                    return current;
                }
                chunk = Math.max(1, chunk / 2);
            }
        }
    }

    /**
     * @param c       the original case.
     * @param reduced the reduced stream.
     * @return the seed, the configuration (also as {@code weir run} flags) and the reduced stream as
     * CSV lines {@code event_id,event_time,key,value}, for a test failure message.
     */
    public static String describe(final GeneratedCase c, final List<ModelEvent> reduced)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append("seed=").append(c.seed())
            .append(" (StreamGenerator.generate(").append(c.seed()).append("L, WindowKind.")
            .append(c.config().kind()).append("))\n");
        sb.append("config=").append(c.config()).append('\n');
        sb.append("flags: ").append(c.config().toFlags()).append('\n');
        sb.append("events: ").append(reduced.size()).append(" (reduced from ").append(c.events().size()).append(")\n");
        sb.append("event_id,event_time,key,value\n");
        for (final ModelEvent e : reduced)
        {
            sb.append(e.toCsv()).append('\n');
        }
        return sb.toString();
    }
}
