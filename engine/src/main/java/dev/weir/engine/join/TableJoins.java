package dev.weir.engine.join;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
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
 * A resumed run rebuilds this state as of its checkpoint: from the newest fitting join-state file, if any
 * ({@link JoinSnapshots}), then by reading the journal up to the checkpoint ({@link #readBefore}): its table rows and
 * the times of its events and heartbeats, nothing else. While it runs, the state is written to such a file now and
 * then ({@link #snapshotIfDue}).
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
    /** Where this state is written, or null. */
    private JoinSnapshots snapshots;
    /** The offset of the last document read into this state, or {@link Long#MIN_VALUE}. */
    private long lastRead = Long.MIN_VALUE;
    /** The documents read since the last join-state file (or since the run began). */
    /** Documents read by this state's owner in this run, for the join-state files' kept file. */
    private long documentsRead;
    private long readSinceSnapshot;
    /** True if a table row or a greater time was read since the last join-state file. */
    private boolean changed;
    private long scanned;

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
     * @param offset the row's offset.
     * @param row    the row, valid during the call.
     */
    public void onTableRow(final long offset, final TableRowView row)
    {
        final AsOfJoin join = byTable[row.table()];
        if (join != null)
        {
            join.apply(row, horizon.horizon());
            changed = true;
        }
        read(offset);
    }

    /**
     * Note a heartbeat's time.
     *
     * @param offset the heartbeat's offset.
     * @param time   the heartbeat's time.
     */
    public void onHeartbeat(final long offset, final long time)
    {
        readTime(time);
        read(offset);
    }

    /**
     * Note an event's time and look it up in every join; {@link #view()} then reads it with the rows found.
     *
     * @param offset the event's offset.
     * @param event  the event, valid during the call and while the view is read.
     * @return true if the event goes on to the rule: every join found a row, or a join found none and missing rows
     *         are kept; false if it is dropped as unmatched.
     */
    public boolean join(final long offset, final EventView event)
    {
        readTime(event.eventTime());
        read(offset);
        return view.join(event, horizon.horizon()) || keepMissing;
    }

    private void readTime(final long time)
    {
        if (time > horizon.maxTime())
        {
            horizon.read(time);
            changed = true;
        }
    }

    private void read(final long offset)
    {
        lastRead = offset;
        readSinceSnapshot++;
        documentsRead++;
    }

    /**
     * Write this state to the pipeline's join-state files when it is due ({@link JoinSnapshots}): the state changed
     * since the last one and enough documents were read since that the write's cost, spread over them, stays a
     * bounded cost per document. For the reading thread, between documents.
     */
    public void snapshotIfDue()
    {
        if (snapshots == null || !changed || readSinceSnapshot < snapshots.every(entries()))
        {
            return;
        }
        snapshots.write(this, lastRead, documentsRead);
        changed = false;
        readSinceSnapshot = 0;
    }

    /** @return the entries held by every join: versions, keys and texts. */
    long entries()
    {
        long entries = 0;
        for (final AsOfJoin join : joins)
        {
            entries += join.entries();
        }
        return entries;
    }

    /**
     * @param files where to write this state from now on ({@link #snapshotIfDue}), or null for nowhere; set before
     *              the reading thread starts.
     */
    public void snapshotTo(final JoinSnapshots files)
    {
        this.snapshots = files;
    }

    /** @return the documents the last {@link #readBefore} read from the journal (after a snapshot, if it loaded one). */
    public long scanned()
    {
        return scanned;
    }

    /** @return the offset of the last document read into this state, or {@link Long#MIN_VALUE} before any. */
    public long lastRead()
    {
        return lastRead;
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
     * table rows and the times of events and heartbeats only; or, when this state was {@link #read(DataInputStream,
     * long) read} from a join-state file, from just after the file's offset.
     *
     * @param directory    the journal.
     * @param beforeOffset the first offset not to read; {@link Long#MIN_VALUE} to read nothing.
     */
    public void readBefore(final JournalDirectory directory, final long beforeOffset)
    {
        scanned = 0;
        if (beforeOffset == Long.MIN_VALUE)
        {
            return;
        }
        final Scan scan = new Scan(beforeOffset);
        try (JournalReader reader = JournalReader.open(directory))
        {
            if (lastRead != Long.MIN_VALUE)
            {
                reader.seekAfter(lastRead);
            }
            while (!scan.done && reader.poll(scan, BATCH) > 0)
            {
                // read on
            }
        }
        readSinceSnapshot = 0; // a resumed run counts from its first document, as it would from a snapshot written there
    }

    /**
     * Write this state as a join-state file's body does ({@link JoinStateFile}): the greatest time read, then each
     * join's state.
     */
    void write(final DataOutputStream out) throws IOException
    {
        out.writeLong(horizon.maxTime());
        for (final AsOfJoin join : joins)
        {
            join.write(out);
        }
    }

    /**
     * Read what {@link #write} wrote into this state, which must be new: it then stands as after reading the
     * journal up to and including {@code offset}.
     */
    void read(final DataInputStream in, final long offset) throws IOException
    {
        horizon.restore(in.readLong());
        for (final AsOfJoin join : joins)
        {
            join.read(in);
        }
        lastRead = offset;
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
                scanned++;
                readTime(event.eventTime());
                read(offset);
            }
        }

        @Override
        public void onHeartbeat(final long offset, final long eventTime)
        {
            if (!past(offset))
            {
                scanned++;
                TableJoins.this.onHeartbeat(offset, eventTime);
            }
        }

        @Override
        public void onTableRow(final long offset, final TableRowView row)
        {
            if (!past(offset))
            {
                scanned++;
                TableJoins.this.onTableRow(offset, row);
            }
        }
    }

    @Override
    public String toString()
    {
        return "joins " + Arrays.toString(Arrays.stream(joins).map(j -> j.definition().name()).toArray());
    }
}
