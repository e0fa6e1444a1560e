package dev.weir.engine.source;

/**
 * One pre-allocated, mutable entry of the ring buffer: an event read from the journal, and what the
 * window-assignment stage decided about it.
 * <p>
 * The publisher fills the event fields ({@link #type} to {@link #valueWrapped}, {@link #columns}, {@link #inputs}
 * and {@link #matched}); the assignment stage fills the
 * decision fields ({@link #watermarkBefore} to {@link #windowCount}); the aggregation stage reads both.
 * Each field has one writer, and the ring's sequences order the hand-over, so fields are plain.
 */
public final class EventSlot
{
    /** An event from the journal. */
    public static final int EVENT = 0;
    /** The end of a bounded input: the watermark goes to plus infinity and every window fires. */
    public static final int END_OF_INPUT = 1;
    /** The pipeline is being stopped (follow mode): checkpoint and finish, without firing open windows. */
    public static final int STOP = 2;
    /**
     * A heartbeat from the journal: no event; the watermark advances as an event of {@link #eventTime} would
     * move it, at {@link #offset}. Only the type, offset and event time are set.
     */
    public static final int HEARTBEAT = 3;
    /**
     * An event the pipeline's filter rejected: the watermark advances as it would for an event of
     * {@link #eventTime}, at {@link #offset}, and the event is counted as filtered, nothing else. Only the
     * type, offset and event time are set.
     */
    public static final int FILTERED = 4;
    /** The event time of a {@link #position} slot: no time, the watermark stays where it is. */
    public static final long NO_TIME = Long.MIN_VALUE;
    /** The inputs of a slot without named aggregates: none (never written). */
    private static final long[] NO_INPUTS = new long[0];

    /** The event lies in {@link #windowCount} non-late windows starting at {@link #firstStart}. */
    public static final int ASSIGNED = 0;
    /** Every window of the event is late and the event itself is late: drop or side-output it. */
    public static final int SKIPPED = 1;
    /** The event lies in no window but is not late: count it and ignore it. */
    public static final int IGNORED = 2;

    /** {@link #EVENT}, {@link #END_OF_INPUT}, {@link #STOP}, {@link #HEARTBEAT} or {@link #FILTERED}. */
    public int type;
    /** Journal offset of the event. */
    public long offset;
    /** Event id. */
    public long eventId;
    /** Event time, epoch ms. */
    public long eventTime;
    /** Dense key id. */
    public int keyId;
    /** Value. */
    public long value;
    /**
     * True if the value expression's arithmetic wrapped computing {@link #value} ({@link
     * dev.weir.engine.expr.EventValue#wrapped()}); {@link #event} clears it.
     */
    public boolean valueWrapped;
    /**
     * In a {@link #FILTERED} slot: true if the event was dropped because a join found no row of its key (counted
     * as unmatched), false if the filter rejected it (counted as filtered).
     */
    public boolean unmatched;
    /**
     * Every column of the event, when a user aggregation reads them (else empty): a string column's id, a
     * long column's value, a decimal column's unscaled long, by column index. Pre-allocated; the publisher
     * fills it with the event fields.
     */
    public final long[] columns;
    /**
     * The event's named-aggregate inputs ({@link dev.weir.engine.aggregate.AggregateInputs#fill}): one long per input
     * of the pipeline's named aggregates, empty without them. Pre-allocated; the publisher fills it with the event
     * fields.
     */
    public final long[] inputs;
    /** With named aggregates: the filter bitmask of the event (bit f set when filter f matched); else 0. */
    public long matched;

    /**
     * {@code System.nanoTime()} when the publisher read the slot's poll of the journal (not set in end and stop
     * markers), for the read-to-applied latency.
     */
    public long readNanos;

    /** The watermark the event is judged against (left by the events before it). */
    public long watermarkBefore;
    /** The watermark after the event. */
    public long watermarkAfter;
    /** {@link #ASSIGNED}, {@link #SKIPPED} or {@link #IGNORED}. */
    public int disposition;
    /** Start of the first non-late window (aligned windows) or of the event's own session. */
    public long firstStart;
    /** Number of non-late aligned windows, consecutive from {@link #firstStart} by the slide. */
    public int windowCount;

    /** A slot that carries no columns beyond the key id and the value. */
    public EventSlot()
    {
        this(0);
    }

    /**
     * @param columnCount how many columns of each event the slot carries in {@link #columns}: 0, or the
     *                    journal schema's size when a user aggregation reads them.
     */
    public EventSlot(final int columnCount)
    {
        this(columnCount, 0);
    }

    /**
     * @param columnCount how many columns of each event the slot carries in {@link #columns}: 0, or the
     *                    journal schema's size when a user aggregation reads them.
     * @param inputCount  how many named-aggregate inputs it carries in {@link #inputs}: 0 without named aggregates.
     */
    public EventSlot(final int columnCount, final int inputCount)
    {
        this.columns = new long[columnCount];
        this.inputs = inputCount == 0 ? NO_INPUTS : new long[inputCount];
    }

    /**
     * Fill the event fields (publisher use).
     *
     * @param offset    journal offset.
     * @param eventId   event id.
     * @param eventTime event time.
     * @param keyId     key id.
     * @param value     value.
     */
    public void event(final long offset, final long eventId, final long eventTime, final int keyId, final long value)
    {
        this.type = EVENT;
        this.offset = offset;
        this.eventId = eventId;
        this.eventTime = eventTime;
        this.keyId = keyId;
        this.value = value;
        this.valueWrapped = false;
    }

    /**
     * Fill this slot with the position of a table row read after a poll's last event or heartbeat (publisher use): a {@link #HEARTBEAT} of time {@link #NO_TIME}, which moves no
     * watermark and fires nothing, so the pipeline's applied offset (and {@code awaitOffset}) reaches it.
     *
     * @param offset the document's journal offset.
     */
    public void position(final long offset)
    {
        heartbeat(offset, NO_TIME);
    }

    /**
     * Fill this slot with a heartbeat (publisher use).
     *
     * @param offset    the heartbeat's journal offset.
     * @param eventTime its event time.
     */
    public void heartbeat(final long offset, final long eventTime)
    {
        this.type = HEARTBEAT;
        this.offset = offset;
        this.eventTime = eventTime;
    }

    /**
     * Fill this slot with an event the pipeline's filter rejected (publisher use).
     *
     * @param offset    the event's journal offset.
     * @param eventTime its event time.
     */
    public void filtered(final long offset, final long eventTime)
    {
        this.type = FILTERED;
        this.offset = offset;
        this.eventTime = eventTime;
        this.unmatched = false;
    }

    /**
     * Fill this slot with an event a join found no row for, under {@code --join-missing drop} (publisher use): a
     * {@link #FILTERED} slot, counted as unmatched.
     *
     * @param offset    the event's journal offset.
     * @param eventTime its event time.
     */
    public void unmatched(final long offset, final long eventTime)
    {
        this.type = FILTERED;
        this.offset = offset;
        this.eventTime = eventTime;
        this.unmatched = true;
    }

    /**
     * Mark this slot as a stop request (publisher use).
     */
    public void stop()
    {
        this.type = STOP;
    }

    /**
     * Mark this slot as the end of a bounded input (publisher use).
     *
     * @param lastOffset the offset of the last event read, or -1.
     */
    public void endOfInput(final long lastOffset)
    {
        this.type = END_OF_INPUT;
        this.offset = lastOffset;
    }
}
