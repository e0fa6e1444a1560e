package dev.weir.engine.join;

import java.util.Arrays;

import dev.weir.journal.EventViewConsumer;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.journal.schema.TableRowView;

/**
 * A pipeline's joins and their {@link Horizon}, owned by the thread that reads the journal for it (its publisher):
 * it applies each table row in journal order ({@link #onTableRow}), notes each event's and heartbeat's time, and
 * joins each event when its slot is filled ({@link #join}). So an event sees exactly the rows appended before it,
 * and nothing waits.
 * <p>
 * A resumed run rebuilds this state as of its checkpoint by reading the journal before it ({@link #readBefore}):
 * its table rows and the times of its events and heartbeats, nothing else.
 * <p>
 * Not thread-safe: one owner thread; handed to the publisher before it starts.
 */
public final class TableJoins
{
    private static final int BATCH = 4096;

    private final Horizon horizon;
    private final AsOfJoin[] joins;
    /** Per table index of the journal, the join of it, or null. */
    private final AsOfJoin[] byTable = new AsOfJoin[TableDefinition.MAX_TABLES];
    private final JoinedView view;
    private final boolean keepMissing;

    /**
     * @param horizon      the pipeline's horizon.
     * @param joins        the joins, in order, each of another table.
     * @param eventColumns the number of the event's columns.
     * @param missing      what becomes of an event a join finds no row for.
     */
    public TableJoins(final Horizon horizon, final AsOfJoin[] joins, final int eventColumns, final JoinMissing missing)
    {
        this.horizon = horizon;
        this.joins = joins.clone();
        for (final AsOfJoin join : joins)
        {
            if (byTable[join.table()] != null)
            {
                throw new IllegalArgumentException("table " + join.definition().name() + " is joined twice");
            }
            byTable[join.table()] = join;
        }
        this.view = new JoinedView(eventColumns, joins);
        this.keepMissing = missing == JoinMissing.KEEP;
    }

    /**
     * Apply a table row read from the journal (a row of a table no join reads is passed over).
     *
     * @param row the row, valid during the call.
     */
    public void onTableRow(final TableRowView row)
    {
        final AsOfJoin join = byTable[row.table()];
        if (join != null)
        {
            join.apply(row, horizon.horizon());
        }
    }

    /**
     * Note a heartbeat's time.
     *
     * @param time the heartbeat's time.
     */
    public void onHeartbeat(final long time)
    {
        horizon.read(time);
    }

    /**
     * Note an event's time and look it up in every join; {@link #view()} then reads it with the rows found.
     *
     * @param event the event, valid during the call and while the view is read.
     * @return true if the event goes on to the rule: every join found a row, or a join found none and missing rows
     *         are kept; false if it is dropped as unmatched.
     */
    public boolean join(final EventView event)
    {
        horizon.read(event.eventTime());
        return view.join(event, horizon.horizon()) || keepMissing;
    }

    /** @return the event last {@link #join joined}, with its joined columns. */
    public JoinedView view()
    {
        return view;
    }

    /** @return the horizon. */
    public Horizon horizon()
    {
        return horizon;
    }

    /** @return the joins, in order. */
    public AsOfJoin[] joins()
    {
        return joins.clone();
    }

    /**
     * Rebuild the state as of an offset: read the journal from its first document to just before it, applying
     * table rows and the times of events and heartbeats only.
     *
     * @param directory    the journal.
     * @param beforeOffset the first offset not to read; {@link Long#MIN_VALUE} to read nothing.
     */
    public void readBefore(final JournalDirectory directory, final long beforeOffset)
    {
        if (beforeOffset == Long.MIN_VALUE)
        {
            return;
        }
        final Scan scan = new Scan(beforeOffset);
        try (JournalReader reader = JournalReader.open(directory))
        {
            while (!scan.done && reader.poll(scan, BATCH) > 0)
            {
                // read on
            }
        }
    }

    /** Reads the documents before an offset into this state. */
    private final class Scan implements EventViewConsumer
    {
        private final long before;
        boolean done;

        Scan(final long before)
        {
            this.before = before;
        }

        private boolean past(final long offset)
        {
            done |= offset >= before;
            return done;
        }

        @Override
        public void onEvent(final long offset, final EventView event)
        {
            if (!past(offset))
            {
                horizon.read(event.eventTime());
            }
        }

        @Override
        public void onHeartbeat(final long offset, final long eventTime)
        {
            if (!past(offset))
            {
                horizon.read(eventTime);
            }
        }

        @Override
        public void onTableRow(final long offset, final TableRowView row)
        {
            if (!past(offset))
            {
                TableJoins.this.onTableRow(row);
            }
        }
    }

    @Override
    public String toString()
    {
        return "joins " + Arrays.toString(Arrays.stream(joins).map(j -> j.definition().name()).toArray());
    }
}
