package dev.weir.engine.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The simplest obviously-correct model of the as-of join: for each event, a scan of the whole journal before it.
 * Test-only brute-force model; shares no code with the engine.
 *
 * <p>The rule. An event joins, per join, the row of its key (the event's join columns equal the table's key
 * columns) with the greatest valid-from at or before the event's time, among the table rows appended to the
 * journal before the event; of two rows of one key with the same valid-from, the later appended wins; a
 * tombstone found that way means no row. The horizon: {@code maxTime} is the greatest event or heartbeat time
 * read before the event (every event, matched or not), and {@code horizon = maxTime - lag}, with
 * {@code lag = outOfOrderness + allowedLateness + reach} (reach: the window size, or the session gap). If the
 * row found has a successor (the least valid-from of its key greater than its own, among the rows appended
 * before the event) at or before the horizon, the event has no row.
 *
 * <p>Counting the event's own time in {@code maxTime} or not gives the same answer when {@code lag > 0}: the
 * successor is after the event's time, so it can only be at or before the horizon when the event is older than
 * the horizon, and then the event is not the newest. {@link #join} checks both and fails if they ever differ.
 */
public final class AsOfJoinModel
{
    private AsOfJoinModel()
    {
    }

    /**
     * An event of the journal with what each join found.
     *
     * @param event the event or heartbeat.
     * @param rows  per join, in join order, the values of the row found by column name, or empty for no row
     *              (always empty for a heartbeat).
     */
    public record Joined(JoinEvent event, List<Optional<Map<String, Object>>> rows)
    {
        public Joined
        {
            rows = List.copyOf(rows);
        }

        /** @return true if every join found a row. */
        public boolean matched()
        {
            return rows.stream().allMatch(Optional::isPresent);
        }
    }

    /**
     * @param journal the journal, in append order.
     * @param tables  the tables.
     * @param joins   the joins, in join order.
     * @param lag     {@code outOfOrderness + allowedLateness + reach}, {@code > 0}.
     * @return one entry per event and heartbeat of the journal, in journal order.
     */
    public static List<Joined> join(final List<JournalEntry> journal, final List<ModelTable> tables, final List<ModelJoin> joins, final long lag)
    {
        if (lag <= 0)
        {
            throw new IllegalArgumentException("lag must be > 0: " + lag);
        }
        final List<Joined> out = new ArrayList<>();
        for (int i = 0; i < journal.size(); i++)
        {
            if (!(journal.get(i) instanceof JoinEvent event))
            {
                continue;
            }
            final List<Optional<Map<String, Object>>> rows = new ArrayList<>();
            for (final ModelJoin join : joins)
            {
                if (event.isHeartbeat())
                {
                    rows.add(Optional.empty());
                    continue;
                }
                final ModelTable table = table(tables, join.table());
                final Optional<Map<String, Object>> before = lookUp(journal, i, table, join, lag, false);
                final Optional<Map<String, Object>> including = lookUp(journal, i, table, join, lag, true);
                if (!before.equals(including))
                {
                    throw new AssertionError("the horizon with and without the event's own time disagree at entry " + i);
                }
                rows.add(before);
            }
            out.add(new Joined(event, rows));
        }
        return out;
    }

    /** The row the event at {@code index} finds in {@code table}, scanning every entry before it. */
    private static Optional<Map<String, Object>> lookUp(
        final List<JournalEntry> journal, final int index, final ModelTable table, final ModelJoin join, final long lag, final boolean ownTime)
    {
        final JoinEvent event = (JoinEvent)journal.get(index);
        final long t = event.event().eventTime();
        final List<Object> key = join.eventColumns().stream().map(event::column).toList();
        long maxTime = ownTime ? t : Long.MIN_VALUE;
        ModelTableRow found = null;
        for (int i = 0; i < index; i++)
        {
            final JournalEntry e = journal.get(i);
            if (e instanceof JoinEvent other)
            {
                maxTime = Math.max(maxTime, other.event().eventTime());
            }
            else if (e instanceof ModelTableRow row && row.table().equals(table.name()) && row.key(table).equals(key)
                && row.validFrom() <= t && (found == null || row.validFrom() >= found.validFrom()))
            {
                found = row; // >=: of two rows with the same valid-from, the later appended wins
            }
        }
        if (found == null || found.tombstone())
        {
            return Optional.empty();
        }
        final long horizon = maxTime == Long.MIN_VALUE ? Long.MIN_VALUE : maxTime - lag;
        for (int i = 0; i < index; i++)
        {
            if (journal.get(i) instanceof ModelTableRow row && row.table().equals(table.name()) && row.key(table).equals(key)
                && row.validFrom() > found.validFrom() && row.validFrom() <= horizon)
            {
                return Optional.empty(); // a successor at or before the horizon: the row found is dead
            }
        }
        return Optional.of(found.values());
    }

    /**
     * @param tables the tables.
     * @param name   a table's name.
     * @return that table.
     */
    public static ModelTable table(final List<ModelTable> tables, final String name)
    {
        for (final ModelTable t : tables)
        {
            if (t.name().equals(name))
            {
                return t;
            }
        }
        throw new IllegalArgumentException("no table " + name);
    }
}
