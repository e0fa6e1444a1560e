package dev.weir.engine.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * What a pipeline with joins hands its window stage, in the model: the joined events of {@link AsOfJoinModel}
 * through the join-missing policy, then the filter and the value, as {@link ModelFilters} does. An event with
 * no row under drop is counted unmatched (not filtered) and, like a filtered event, still moves the watermark:
 * it becomes a {@link ModelEvent#heartbeat} of its time. Under keep, a missing row's columns read the table's
 * defaults. Test-only; shares no code with the engine.
 */
public final class ModelJoins
{
    private ModelJoins()
    {
    }

    /**
     * The columns an expression names for one joined event: the event's by plain name, a table's as
     * {@code TABLE.COLUMN}.
     */
    public static final class Columns
    {
        private final AsOfJoinModel.Joined joined;
        private final List<ModelTable> tables;
        private final List<ModelJoin> joins;

        Columns(final AsOfJoinModel.Joined joined, final List<ModelTable> tables, final List<ModelJoin> joins)
        {
            this.joined = joined;
            this.tables = tables;
            this.joins = joins;
        }

        /** @return the event. */
        public ModelEvent event()
        {
            return joined.event().event();
        }

        /**
         * @param name {@code COLUMN} or {@code TABLE.COLUMN}.
         * @return its value: a String, or a Long (a decimal's unscaled long).
         */
        public Object get(final String name)
        {
            final int dot = name.indexOf('.');
            if (dot < 0)
            {
                return joined.event().column(name);
            }
            final String table = name.substring(0, dot);
            final String column = name.substring(dot + 1);
            for (int j = 0; j < joins.size(); j++)
            {
                if (joins.get(j).table().equals(table))
                {
                    final Optional<Map<String, Object>> row = joined.rows().get(j);
                    return row.isPresent() ? row.get().get(column) : AsOfJoinModel.table(tables, table).column(column).defaultValue();
                }
            }
            throw new IllegalArgumentException("no join of table " + table);
        }

        /** @return a long or decimal column's (unscaled) value. */
        public long longOf(final String name)
        {
            return (Long)get(name);
        }

        /** @return a string column's text. */
        public String stringOf(final String name)
        {
            return (String)get(name);
        }
    }

    /**
     * What the window stage receives.
     *
     * @param stream    the stream for {@link ReferenceModel}: kept events with their value, the others as heartbeats.
     * @param unmatched events with no row under drop.
     * @param filtered  events the filter rejected.
     * @param columns   the columns of each event kept, by event id, for an early condition that names table columns.
     * @param firstSeen the events' keys in the order the journal first saw them, the events left out included
     *                  ({@link ReferenceModel#run(List, ModelConfig, ModelOptions, List)}).
     */
    public record Outcome(List<ModelEvent> stream, long unmatched, long filtered, Map<Long, Columns> columns, List<String> firstSeen)
    {
    }

    /**
     * @param joined the joined journal ({@link AsOfJoinModel#join}).
     * @param tables the tables.
     * @param joins  the joins.
     * @param keep   join-missing keep (else drop).
     * @param where  the filter.
     * @param value  the value of a kept event.
     * @return the stream the window model runs and the counters.
     */
    public static Outcome apply(
        final List<AsOfJoinModel.Joined> joined, final List<ModelTable> tables, final List<ModelJoin> joins, final boolean keep,
        final Predicate<Columns> where, final ToLongFunction<Columns> value)
    {
        final List<ModelEvent> out = new ArrayList<>(joined.size());
        final Map<Long, Columns> kept = new HashMap<>();
        final LinkedHashSet<String> firstSeen = new LinkedHashSet<>();
        long unmatched = 0;
        long filtered = 0;
        for (final AsOfJoinModel.Joined j : joined)
        {
            final ModelEvent e = j.event().event();
            if (e.isHeartbeat())
            {
                out.add(e);
                continue;
            }
            firstSeen.add(e.key());
            final Columns columns = new Columns(j, tables, joins);
            if (!keep && !j.matched())
            {
                unmatched++;
                out.add(ModelEvent.heartbeat(e.eventTime()));
            }
            else if (!where.test(columns))
            {
                filtered++;
                out.add(ModelEvent.heartbeat(e.eventTime()));
            }
            else
            {
                out.add(new ModelEvent(e.eventId(), e.eventTime(), e.key(), value.applyAsLong(columns)));
                kept.put(e.eventId(), columns);
            }
        }
        return new Outcome(out, unmatched, filtered, kept, List.copyOf(firstSeen));
    }
}
