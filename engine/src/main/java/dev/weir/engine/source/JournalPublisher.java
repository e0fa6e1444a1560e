package dev.weir.engine.source;

import java.util.Objects;

import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import dev.weir.engine.aggregate.AggregateInputs;
import dev.weir.engine.expr.ColumnProjection;
import dev.weir.engine.expr.EventFilter;
import dev.weir.engine.join.TableJoins;
import dev.weir.journal.codec.EventConsumer;
import dev.weir.journal.EventViewConsumer;
import dev.weir.journal.JournalReader;
import dev.weir.journal.schema.TableRowView;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.KeyTuples;
import dev.weir.journal.schema.JournalSchema;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Reads the journal and publishes each event into the ring: the pipeline's single producer.
 * <p>
 * Bounded: reads from the reader's position to the end of the journal (or past {@code lastOffset}), then
 * publishes an end-of-input marker. The events of one poll of the journal (up to a batch) are published
 * together, when the poll returns. Following: keeps polling for new events, idling with a back-off
 * when there are none, until {@link #stop()}, then publishes a stop marker. Each event is copied into a
 * pre-allocated {@link EventSlot}: nothing is allocated per event. A heartbeat read from the journal is
 * published as a {@link EventSlot#HEARTBEAT} slot at its offset. With a
 * {@link #filter(ColumnProjection, EventFilter) filter}, an event it rejects is published as a
 * {@link EventSlot#FILTERED} slot (offset and time only), so it still moves the watermark: the watermark
 * belongs to the journal. With {@link #join joins}, the publisher owns their state: it applies each table row as it
 * reads it, in journal order, and joins each event as it fills its slot, so an event sees exactly the rows appended
 * before it; an event a join finds no row for (under {@code drop}) is published as an unmatched
 * {@link EventSlot#FILTERED} slot. Runs on one publisher thread;
 * {@link #stop()} may be called from any thread.
 */
public final class JournalPublisher implements Runnable, EventConsumer
{
    /** Returned by {@link #step()} once the publisher has published its last slot. */
    public static final int FINISHED = -1;

    private static final int BATCH = 1024;

    private final JournalReader reader;
    private final RingBuffer<EventSlot> ring;
    private final RunFailure completion;
    private final boolean follow;
    private final long lastOffset;
    private final IdleStrategy idle;
    /**
     * How the publisher waits for the consumer when the ring is full: a few spins, then yields, then parks
     * from 1 µs up to 50 µs, instead of spinning on the consumer's sequence (which takes the core and the
     * cache line the consumer needs, and on two cores a core it could run on).
     */
    private final IdleStrategy fullRing = new BackoffIdleStrategy(64, 16, 1_000, 50_000);
    private final int batch;
    private AtomicCounter rejectedLines;
    private AtomicCounter lastEventRead;
    private AtomicCounter lastHeartbeatRead;
    /** Heartbeats claimed since the last poll began. */
    private int heartbeatsInPoll;
    private long firstUnpublished = -1;
    private long lastClaimed = -1;
    private boolean pastEnd;
    private boolean finished;
    private long lastPublished = -1;
    /** The offset of the last {@link EventSlot#position} published, or -1. */
    private long lastPositioned = -1;
    /** {@code System.nanoTime()} at the first slot of the current poll, stamped into its slots; 0 before it. */
    private long pollNanos;
    private volatile boolean stopped;
    private final ColumnProjection projection;
    private final KeyTuples keys;
    /** The pipeline's filter, or null: every event is kept. */
    private EventFilter filter;
    /** What to do when the reader reads into another cycle ({@link #onNewCycle}), or null. */
    private Runnable newCycle;
    /** The cycle the reader stood in at the last poll. */
    private int readCycle = Integer.MIN_VALUE;
    /** True if every column of each event is copied into its slot too ({@link #copyEveryColumn}). */
    private int[] copied;
    /**
     * Fills a slot with a whole event (filter, key and value, every column if copied), for a projection other
     * than the default, a filter, or columns copied; null on the four-field path.
     */
    private SlotFiller filler;
    /** The pipeline's joins, or null for none. */
    private TableJoins joins;
    /** The named aggregates' inputs, or null without named aggregates. */
    private AggregateInputs inputs;
    /** With joins, per copied column, true for a string column; else null. */
    private boolean[] copiedStrings;
    /** With joins, per column of the joined view, true for a string column; else null. */
    private boolean[] joinedStrings;
    /** Hands whole events to {@link #onEvent(long, EventView)} and heartbeats to {@link #onHeartbeat}. */
    private final EventViewConsumer views = new EventViewConsumer()
    {
        @Override
        public void onEvent(final long offset, final EventView event)
        {
            JournalPublisher.this.onEvent(offset, event);
        }

        @Override
        public void onHeartbeat(final long offset, final long eventTime)
        {
            JournalPublisher.this.onHeartbeat(offset, eventTime);
        }

        @Override
        public void onTableRow(final long offset, final TableRowView row)
        {
            if (joins != null && offset <= lastOffset && !stopped)
            {
                joins.onTableRow(offset, row);
            }
        }
    };

    /**
     * @param reader     positioned at the first event to process; owned by this publisher from now on.
     * @param ring       the ring to publish into.
     * @param completion told if reading fails.
     * @param follow     keep reading new events until stopped, instead of ending at the journal's end.
     * @param lastOffset the last offset to publish (bounded runs), or {@link Long#MAX_VALUE}.
     * @param idle       how to wait for new events while following.
     * @param projection the key and value columns to copy into each slot.
     * @param keys       the key tuples of the events before the reader's position, which this publisher
     *                   owns from now on and numbers the next events' tuples with; null if the projection's
     *                   key ids are dictionary ids ({@link ColumnProjection#keysByTuple()} false).
     */
    public JournalPublisher(
        final JournalReader reader,
        final RingBuffer<EventSlot> ring,
        final RunFailure completion,
        final boolean follow,
        final long lastOffset,
        final IdleStrategy idle,
        final ColumnProjection projection,
        final KeyTuples keys)
    {
        assert (keys != null) == projection.keysByTuple();
        this.projection = projection;
        this.keys = keys;
        // null: the four-field path, as before columns existed
        this.filler = projection.isDefault() ? null : new SlotFiller(projection, keys, null, false);
        this.idle = idle;
        this.batch = Math.min(BATCH, ring.getBufferSize());
        this.reader = reader;
        this.ring = ring;
        this.completion = completion;
        this.follow = follow;
        this.lastOffset = lastOffset;
    }

    /**
     * Filter the events: publish those the filter rejects as {@link EventSlot#FILTERED} slots. Reads whole
     * events then, whatever the projection. Call before the publisher runs.
     *
     * @param projection  the key and value columns, as given to the constructor.
     * @param eventFilter the filter, owned by the publisher's thread from now on.
     */
    public void filter(final ColumnProjection projection, final EventFilter eventFilter)
    {
        assert projection == this.projection;
        this.filter = Objects.requireNonNull(eventFilter, "filter");
        this.filler = new SlotFiller(projection, keys, filter, copied, joins, copiedStrings, inputs);
    }

    /**
     * Join every event: apply table rows as they are read, look each event up before the filter. Reads whole events
     * then, whatever the projection. Call before the publisher runs, before {@link #filter} and
     * {@link #copyColumns}, which keep the joins.
     *
     * @param projection    the key and value columns, as given to the constructor.
     * @param tableJoins    the joins, their state as of the reader's position, owned by the publisher's thread from now on.
     * @param stringColumns per column of the joined view (the event's, then the tables'), true for a string column.
     */
    public void join(final ColumnProjection projection, final TableJoins tableJoins, final boolean[] stringColumns)
    {
        assert projection == this.projection && copied == null : "join first";
        this.joins = Objects.requireNonNull(tableJoins, "joins");
        this.joinedStrings = stringColumns.clone();
        this.filler = new SlotFiller(projection, keys, filter, copied, joins, copiedStrings, inputs);
    }

    /**
     * Fill each event's named-aggregate inputs and filter verdicts ({@link EventSlot#inputs}, {@link EventSlot#matched});
     * the ring's slots must have been made with {@link AggregateInputs#inputCount()} inputs. Reads whole events then.
     * Call before the publisher runs (after {@link #join}, which the inputs read through).
     *
     * @param projection      the key and value columns, as given to the constructor.
     * @param aggregateInputs the inputs, compiled for this run, owned by the publisher's thread from now on.
     */
    public void aggregateInputs(final ColumnProjection projection, final AggregateInputs aggregateInputs)
    {
        assert projection == this.projection;
        assert ring.get(0).inputs.length == aggregateInputs.inputCount() : "the slots hold every input";
        this.inputs = Objects.requireNonNull(aggregateInputs, "inputs");
        this.filler = new SlotFiller(projection, keys, filter, copied, joins, copiedStrings, inputs);
    }

    /**
     * @param action what to do on the publisher's thread after a poll that read into another cycle of the journal
     *               (e.g. let the filter's dictionaries go of the cycle passed); set before the publisher runs.
     */
    public void onNewCycle(final Runnable action)
    {
        this.newCycle = action;
    }

    /**
     * @param counter where to publish the rejected-line records read so far (once per poll), or null; set
     *                before the publisher runs.
     */
    public void countRejectedLines(final AtomicCounter counter)
    {
        this.rejectedLines = counter;
    }

    /**
     * @param lastEvent     where to note the wall clock (epoch ms) of each poll that read an event, once per poll.
     * @param lastHeartbeat where to note the wall clock of each poll that read a heartbeat.
     *                      Set both before the publisher runs.
     */
    public void noteReadClocks(final AtomicCounter lastEvent, final AtomicCounter lastHeartbeat)
    {
        this.lastEventRead = lastEvent;
        this.lastHeartbeatRead = lastHeartbeat;
    }

    /**
     * Copy every column of each event into its slot's {@link EventSlot#columns} too (a string column's id, a
     * long, a decimal's unscaled long), for user aggregations that read them; the ring's slots must have been
     * made with that many columns. Reads whole events then, whatever the projection. Call before the
     * publisher runs.
     *
     * @param projection the key and value columns, as given to the constructor.
     * @param schema     the journal's schema.
     */
    public void copyEveryColumn(final ColumnProjection projection, final JournalSchema schema)
    {
        assert schema.equals(projection.schema());
        copyColumns(projection, SlotFiller.every(schema));
    }

    /**
     * Copy some columns of each event into its slot's {@link EventSlot#columns} too, each at its index, as
     * {@link #copyEveryColumn} does every column (for an early condition that names columns); the ring's slots must
     * have been made with a column for each index named. Call before the publisher runs.
     *
     * @param projection the key and value columns, as given to the constructor.
     * @param columns    the columns' indices.
     */
    public void copyColumns(final ColumnProjection projection, final int[] columns)
    {
        assert ring.get(0).columns.length >= (joins == null ? projection.schema().size() : joinedStrings.length) : "the slots hold every column";
        assert projection == this.projection;
        this.copied = columns.clone();
        if (joins != null)
        {
            copiedStrings = new boolean[copied.length];
            for (int i = 0; i < copied.length; i++)
            {
                copiedStrings[i] = joinedStrings[copied[i]];
            }
        }
        this.filler = new SlotFiller(projection, keys, filter, copied, joins, copiedStrings, inputs);
    }

    /**
     * @return the default idle strategy while following: spin, yield, then park from 1 µs up to 1 ms.
     */
    public static IdleStrategy defaultIdle()
    {
        return new BackoffIdleStrategy(100, 10, 1_000, 1_000_000);
    }

    @Override
    public void run()
    {
        try
        {
            int published;
            while ((published = step()) != FINISHED)
            {
                if (follow)
                {
                    idle.idle(published);
                }
            }
        }
        catch (final Throwable ex)
        {
            completion.fail(ex);
        }
    }

    /**
     * One step of publishing, for the thread that owns this publisher: publish up to a batch of new events,
     * or, once the input is over (bounded run at the journal's end, or a stop request), the end-of-input or
     * stop marker.
     *
     * @return the events and heartbeats published (0 when a following publisher found nothing new), or {@link #FINISHED}
     *         once the marker has been published (or the run failed): nothing more will be published.
     */
    public int step()
    {
        if (finished)
        {
            return FINISHED;
        }
        if (!stopped && !pastEnd)
        {
            final int published = filler == null ? reader.poll(this, batch) : reader.poll(views, batch);
            publishPosition(reader.lastTableRowRead());
            flush();
            pollNanos = 0;
            if (joins != null)
            {
                joins.snapshotIfDue(); // after the poll's slots are published: the write does not hold them back
            }
            if (rejectedLines != null)
            {
                rejectedLines.setRelease(reader.rejectedRead());
            }
            if (lastEventRead != null && published > 0)
            {
                noteClocks(published);
            }
            heartbeatsInPoll = 0;
            if (newCycle != null && published > 0 && reader.cycle() != readCycle)
            {
                readCycle = reader.cycle();
                newCycle.run();
            }
            if (published > 0 || follow)
            {
                return published;
            }
        }
        if (follow && !stopped)
        {
            return 0;
        }
        finished = true;
        final long sequence = claim(true);
        if (sequence >= 0)
        {
            if (follow || stopped)
            {
                ring.get(sequence).stop();
            }
            else
            {
                ring.get(sequence).endOfInput(lastPublished);
            }
            ring.publish(sequence);
        }
        return FINISHED;
    }

    /**
     * Publish a whole event: filtered, projected and copied into a slot by the {@link SlotFiller}.
     */
    private void onEvent(final long offset, final EventView event)
    {
        final long sequence = claimFor(offset);
        if (sequence >= 0)
        {
            filler.fill(ring.get(sequence), offset, event);
            claimed(sequence, offset);
        }
    }

    @Override
    public void onHeartbeat(final long offset, final long eventTime)
    {
        final long sequence = claimFor(offset);
        if (sequence >= 0)
        {
            if (joins != null)
            {
                joins.onHeartbeat(offset, eventTime);
            }
            ring.get(sequence).heartbeat(offset, eventTime);
            heartbeatsInPoll++;
            claimed(sequence, offset);
        }
    }

    /**
     * When a poll read a table row after its last event or heartbeat, publish the row's offset as a
     * {@link EventSlot#position}, so the applied offset reaches it: a table row appended last is awaited like an event.
     */
    private void publishPosition(final long lastRow)
    {
        if (lastRow > lastPublished && lastRow > lastPositioned && lastRow <= lastOffset && !stopped && !pastEnd)
        {
            final long sequence = claimFor(lastRow);
            if (sequence >= 0)
            {
                ring.get(sequence).position(lastRow);
                final long lastSource = lastPublished; // the end of input's results keep the last event's offset
                claimed(sequence, lastRow);
                lastPublished = lastSource;
                lastPositioned = lastRow;
            }
        }
    }

    /**
     * Claim a slot for a slot at {@code offset} (a heartbeat or a whole event), unless it is past
     * the end or the run is stopping or failed.
     *
     * @return the sequence, or -1 (then the input is over for this publisher).
     */
    private long claimFor(final long offset)
    {
        if (offset > lastOffset || stopped)
        {
            pastEnd = true;
            return -1;
        }
        final long sequence = claim(false);
        if (sequence < 0)
        {
            pastEnd = true;
        }
        return sequence;
    }

    /** Note a slot claimed and filled, to publish with the poll's others. */
    private void claimed(final long sequence, final long offset)
    {
        stampRead(sequence);
        if (firstUnpublished < 0)
        {
            firstUnpublished = sequence;
        }
        lastClaimed = sequence;
        lastPublished = offset;
    }

    @Override
    public void onEvent(final long offset, final long eventId, final long eventTime, final int keyId, final long value)
    {
        if (offset > lastOffset || stopped)
        {
            pastEnd = true;
            return;
        }
        final long sequence = claim(false);
        if (sequence < 0)
        {
            pastEnd = true;
            return;
        }
        // fill the slot before claiming the next: a claim that finds the ring nearly full may move the
        // cursor itself (SingleProducerSequencer.tryNext), publishing every slot claimed so far
        ring.get(sequence).event(offset, eventId, eventTime, keyId, value);
        stampRead(sequence);
        if (firstUnpublished < 0)
        {
            firstUnpublished = sequence;
        }
        lastClaimed = sequence;
        lastPublished = offset;
    }

    /** Stamp a slot with the time its poll read it: one {@code nanoTime()} per poll, at its first slot. */
    private void stampRead(final long sequence)
    {
        if (pollNanos == 0)
        {
            pollNanos = System.nanoTime();
        }
        ring.get(sequence).readNanos = pollNanos;
    }

    private void noteClocks(final int published)
    {
        final long now = System.currentTimeMillis(); // once per poll that read something, for display only
        if (published > heartbeatsInPoll)
        {
            lastEventRead.setRelease(now);
        }
        if (heartbeatsInPoll > 0)
        {
            lastHeartbeatRead.setRelease(now);
        }
    }

    /**
     * Publish the slots claimed and filled since the last flush, in one cursor move: the consumer's thread
     * then sees the cursor's cache line change once per batch, not once per event.
     */
    private void flush()
    {
        if (firstUnpublished >= 0)
        {
            ring.publish(firstUnpublished, lastClaimed);
            firstUnpublished = -1;
        }
    }

    /**
     * Claim the next ring slot, waiting while the ring is full, unless the run fails (or, for an event,
     * is stopped) meanwhile.
     *
     * @param marker true for an end or stop marker, which must be published even after a stop request.
     * @return the sequence, or -1 if the run failed or was stopped.
     */
    private long claim(final boolean marker)
    {
        boolean waited = false;
        while (true)
        {
            try
            {
                final long sequence = ring.tryNext();
                if (waited)
                {
                    fullRing.reset();
                }
                return sequence;
            }
            catch (final InsufficientCapacityException full)
            {
                flush(); // the consumer may be waiting for them
                if (completion.failure() != null || (!marker && stopped))
                {
                    return -1;
                }
                waited = true;
                fullRing.idle();
            }
        }
    }

    /**
     * Ask the publisher to stop: a following publisher then publishes a stop marker, a bounded one ends early.
     */
    public void stop()
    {
        stopped = true;
    }
}
