package dev.weir.engine.source;

import dev.weir.engine.aggregate.AggregateInputs;
import dev.weir.engine.expr.ColumnProjection;
import dev.weir.engine.expr.EventFilter;
import dev.weir.engine.expr.EventValue;
import dev.weir.engine.join.TableJoins;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.KeyTuples;
import dev.weir.journal.schema.JournalSchema;

/**
 * Turns one whole event into the {@link EventSlot} the window stages read: the joins first, if any (an event a join
 * finds no row for, under {@code drop}, becomes an unmatched {@link EventSlot#FILTERED} slot, offset and time only;
 * from then on the filter, key, value and copied columns read the {@link dev.weir.engine.join.JoinedView}), then
 * the filter (an event it
 * rejects becomes a {@link EventSlot#FILTERED} slot, offset and time only), then the projection (the key id,
 * a string column's dictionary id or the event's {@link KeyTuples} id, and the value, a column or the value
 * expression, marked when the expression's arithmetic wrapped; the constant 0 without a value, under named aggregates),
 * the columns a user aggregation or the early condition reads (every column for a user aggregation that reads them),
 * and the named aggregates' inputs and filter verdicts ({@link AggregateInputs}), a wrap in them marked as the
 * value's is. Key tuples are numbered over every
 * event, those the filter rejects included, as {@link KeyTuples} has it. The per-event work of the
 * {@link JournalPublisher} and of anything else that feeds the window stages events, so they fill slots
 * alike.
 * <p>
 * Allocates nothing per event (a new key tuple grows the table as {@link KeyTuples} does). Not thread-safe:
 * the filter, the value expression, the aggregate inputs and the key tuples belong to the one thread that fills slots.
 */
public final class SlotFiller
{
    /** The value of every event of a projection without one: 0. */
    private static final EventValue NO_VALUE = new EventValue()
    {
        @Override
        public long value(final EventView event)
        {
            return 0;
        }

        @Override
        public int scale()
        {
            return 0;
        }
    };

    private final EventFilter filter;
    private final EventValue expression;
    private final int keyColumn;
    private final int valueColumn;
    private final KeyTuples keys;
    /** The columns copied into {@link EventSlot#columns}, or null for none. */
    private final int[] copied;
    /** Per copied column, true for a string column. */
    private final boolean[] copiedStrings;
    /** The pipeline's joins, or null for none. */
    private final TableJoins joins;
    /** The named aggregates' inputs, or null without named aggregates. */
    private final AggregateInputs inputs;

    /**
     * @param projection the key and value columns.
     * @param keys       the key tuples, owned by the filler's thread from now on; null if the projection's
     *                   key ids are dictionary ids ({@link ColumnProjection#keysByTuple()} false).
     * @param filter     the filter, owned by the filler's thread from now on; or null: every event is kept.
     * @param copyColumns true to copy every column into {@link EventSlot#columns} (the slots must have been
     *                   made with the schema's size).
     */
    public SlotFiller(final ColumnProjection projection, final KeyTuples keys, final EventFilter filter, final boolean copyColumns)
    {
        this(projection, keys, filter, copyColumns ? every(projection.schema()) : null);
    }

    /**
     * @param projection the key and value columns.
     * @param keys       the key tuples, owned by the filler's thread from now on; null if the projection's
     *                   key ids are dictionary ids ({@link ColumnProjection#keysByTuple()} false).
     * @param filter     the filter, owned by the filler's thread from now on; or null: every event is kept.
     * @param copied     the columns to copy into {@link EventSlot#columns}, each at its index (the slots must have
     *                   a column for each), or null for none; an index past the schema's is a joined column the
     *                   event view answers for.
     */
    public SlotFiller(final ColumnProjection projection, final KeyTuples keys, final EventFilter filter, final int[] copied)
    {
        this(projection, keys, filter, copied, null, null);
    }

    /**
     * @param projection  the key and value columns.
     * @param keys        as {@link #SlotFiller(ColumnProjection, KeyTuples, EventFilter, int[])}.
     * @param filter      as there (over the joined columns' indices when there are joins).
     * @param copied      as there (joined columns' indices too when there are joins).
     * @param joins       the pipeline's joins, owned by the filler's thread from now on; or null for none.
     * @param stringsCopied per copied column, true for a string column; null to read the types from the projection's
     *                    schema (without joins).
     */
    public SlotFiller(final ColumnProjection projection, final KeyTuples keys, final EventFilter filter, final int[] copied,
        final TableJoins joins, final boolean[] stringsCopied)
    {
        this(projection, keys, filter, copied, joins, stringsCopied, null);
    }

    /**
     * @param projection    the key and value columns.
     * @param keys          as {@link #SlotFiller(ColumnProjection, KeyTuples, EventFilter, int[])}.
     * @param filter        as there (over the joined columns' indices when there are joins).
     * @param copied        as there (joined columns' indices too when there are joins).
     * @param joins         the pipeline's joins, owned by the filler's thread from now on; or null for none.
     * @param stringsCopied per copied column, true for a string column; null to read the types from the projection's
     *                      schema (without joins).
     * @param inputs        the named aggregates' inputs, owned by the filler's thread from now on (the slots must have
     *                      {@link AggregateInputs#inputCount()} inputs); or null without named aggregates.
     */
    public SlotFiller(final ColumnProjection projection, final KeyTuples keys, final EventFilter filter, final int[] copied,
        final TableJoins joins, final boolean[] stringsCopied, final AggregateInputs inputs)
    {
        this.joins = joins;
        this.inputs = inputs;
        if ((keys != null) != projection.keysByTuple())
        {
            throw new IllegalArgumentException("key tuples are needed exactly when the key is not one string column: " + projection);
        }
        this.filter = filter;
        this.expression = projection.hasValue() ? projection.valueExpression() : NO_VALUE;
        this.keyColumn = projection.keyColumn(0);
        this.valueColumn = projection.valueColumn();
        this.keys = keys;
        this.copied = copied == null || copied.length == 0 ? null : copied.clone();
        this.copiedStrings = new boolean[this.copied == null ? 0 : this.copied.length];
        final JournalSchema schema = projection.schema();
        for (int i = 0; i < copiedStrings.length; i++)
        {
            // a joined column copied is one an early condition names; without the join's types, one past the schema is a number
            copiedStrings[i] = stringsCopied != null ? stringsCopied[i]
                : this.copied[i] < schema.size() && schema.column(this.copied[i]).type() == ColumnType.STRING;
        }
    }

    /**
     * @param schema the events' schema.
     * @return the indices of all its columns, in order.
     */
    public static int[] every(final JournalSchema schema)
    {
        final int[] all = new int[schema.size()];
        for (int i = 0; i < all.length; i++)
        {
            all[i] = i;
        }
        return all;
    }

    /**
     * Fill a slot with an event.
     *
     * @param slot   the slot, with {@link EventSlot#columns} of the schema's size if columns are copied.
     * @param offset the event's journal offset.
     * @param read   the event as read, valid during the call.
     * @return true if the filter kept the event (an {@link EventSlot#EVENT} slot), false if it rejected it or a
     *         join found no row for it (a {@link EventSlot#FILTERED} slot).
     */
    public boolean fill(final EventSlot slot, final long offset, final EventView read)
    {
        // every event's tuple is numbered, kept or not: tuple ids are the journal's numbering (KeyTuples), which
        // an export (KeyTupleReader) and a resumed run (KeyTuples.readBefore) read back from every event
        final int tupleId = keys == null ? -1 : keys.idOf(read);
        final EventView event;
        if (joins == null)
        {
            event = read;
        }
        else if (joins.join(offset, read))
        {
            event = joins.view();
        }
        else
        {
            slot.unmatched(offset, read.eventTime());
            return false;
        }
        if (filter != null && !filter.test(event))
        {
            slot.filtered(offset, event.eventTime());
            return false;
        }
        final int keyId = keys == null ? event.stringId(keyColumn) : tupleId;
        final EventValue computed = expression;
        if (computed != null)
        {
            slot.event(offset, event.eventId(), event.eventTime(), keyId, computed.value(event));
            slot.valueWrapped = computed.wrapped();
        }
        else
        {
            slot.event(offset, event.eventId(), event.eventTime(), keyId, event.longColumn(valueColumn));
        }
        final int[] columns = copied;
        if (columns != null)
        {
            final boolean[] strings = copiedStrings;
            final long[] into = slot.columns;
            for (int i = 0; i < columns.length; i++)
            {
                final int c = columns[i];
                into[c] = strings[i] ? event.stringId(c) : event.longColumn(c);
            }
        }
        final AggregateInputs named = inputs;
        if (named != null)
        {
            slot.matched = named.fill(event, slot.inputs);
            slot.valueWrapped |= named.wrapped(); // one wrapped value per event, whichever arithmetic wrapped
        }
        return true;
    }
}
