package dev.weir.engine.model;

import java.util.List;
import java.util.Objects;

/**
 * One generated journal with tables: the seed that reproduces it ({@link JoinStreamGenerator#generate}), the
 * window configuration, the event column that keys the windows, the tables and the journal in append order.
 * Test-only; shares no code with the engine.
 *
 * @param seed      the generator seed.
 * @param config    the window and lateness configuration.
 * @param keyColumn the event column holding the model event's key: {@code card} or {@code merchant}.
 * @param tables    the tables.
 * @param journal   table rows, events and heartbeats in append order.
 */
public record JoinCase(long seed, ModelConfig config, String keyColumn, List<ModelTable> tables, List<JournalEntry> journal)
{
    public JoinCase
    {
        Objects.requireNonNull(config, "config");
        tables = List.copyOf(tables);
        journal = List.copyOf(journal);
    }

    /** @return {@code outOfOrderness + allowedLateness + reach} (reach: the window size, or the session gap). */
    public long horizonLag()
    {
        return config.outOfOrderness() + config.allowedLateness() + config.size();
    }

    /** @return the same case with another journal (a reduced one). */
    public JoinCase withJournal(final List<JournalEntry> entries)
    {
        return new JoinCase(seed, config, keyColumn, tables, entries);
    }

    /** @return the seed, flags and journal, one entry a line, for a failure message. */
    public String describe()
    {
        final StringBuilder sb = new StringBuilder("seed=").append(seed).append(" (JoinStreamGenerator.generate(").append(seed)
            .append("L, WindowKind.").append(config.kind()).append("))\nflags: ").append(config.toFlags()).append(" --key ").append(keyColumn)
            .append('\n').append(journal.size()).append(" entries:\n");
        for (final JournalEntry e : journal)
        {
            if (e instanceof ModelTableRow row)
            {
                sb.append("  row ").append(row.describe(AsOfJoinModel.table(tables, row.table())));
            }
            else if (e instanceof JoinEvent event && event.isHeartbeat())
            {
                sb.append("  heartbeat ").append(event.event().eventTime());
            }
            else
            {
                final JoinEvent event = (JoinEvent)e;
                sb.append("  event ").append(event.event().toCsv()).append(' ').append(new java.util.TreeMap<>(event.columns()));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
