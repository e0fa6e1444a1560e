package dev.weir.journal;

import java.util.Arrays;

import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.JournalSchema;

/**
 * The dense ids of a pipeline's composite key: a tuple of one or more key columns (string columns by
 * their dictionary id, long and decimal columns by their unscaled value), numbered from 0 in the order in
 * which the tuples first occur in the journal.
 * <p>
 * The numbering is a function of the journal alone: whoever reads the same events in order, from the
 * journal's first event, gives every tuple the same id. Once old cycles are removed, the numbering up to the
 * journal's {@link HistoryBase} is read from the base (a key-column set without a table there is numbered from
 * the base's first offset). So a pipeline that resumes from a checkpoint
 * rebuilds it by reading the events before its resume point ({@link #readBefore}), and an exporter
 * resolves an id in an output by reading as far as that id's first event ({@link KeyTupleReader}).
 * <p>
 * Lookup of a known tuple allocates nothing: an open-addressing table of ids over one flat array of
 * components. Growth allocates, as an Agrona map's does.
 * <p>
 * Not thread-safe: one owner thread.
 */
public final class KeyTuples
{
    private static final int EMPTY = -1;
    private static final int MIN_CAPACITY = 64;

    private final int[] columns;
    private final boolean[] stringColumn;
    private final int arity;
    /** The tuple being looked up, read from the event once. */
    private final long[] scratch;
    private long[] components;
    private int[] slots;
    private int mask;
    private int size;

    /**
     * @param schema  the journal's columns.
     * @param columns the indexes of the key columns in the schema, in key order (one or more).
     * @throws IllegalArgumentException if there are no columns or one is out of range.
     */
    public KeyTuples(final JournalSchema schema, final int[] columns)
    {
        if (columns.length == 0)
        {
            throw new IllegalArgumentException("a key has at least one column");
        }
        this.columns = columns.clone();
        this.arity = columns.length;
        this.scratch = new long[arity];
        this.stringColumn = new boolean[arity];
        for (int i = 0; i < arity; i++)
        {
            if (columns[i] < 0 || columns[i] >= schema.size())
            {
                throw new IllegalArgumentException("no column " + columns[i] + " in " + schema);
            }
            stringColumn[i] = schema.column(columns[i]).type() == ColumnType.STRING;
        }
        this.components = new long[MIN_CAPACITY * arity];
        this.slots = new int[MIN_CAPACITY * 2];
        Arrays.fill(slots, EMPTY);
        this.mask = slots.length - 1;
    }

    /**
     * A table holding the ids of every tuple of the events before an offset.
     *
     * @param directory    the journal.
     * @param columns      the key columns' indexes.
     * @param beforeOffset the first offset not to read; {@link Long#MIN_VALUE} for none.
     * @return the table.
     */
    public static KeyTuples readBefore(final JournalDirectory directory, final int[] columns, final long beforeOffset)
    {
        final KeyTuples tuples = start(directory, columns);
        try (JournalReader reader = JournalReader.open(directory))
        {
            final boolean[] done = new boolean[1];
            final EventViewConsumer add = (offset, event) ->
            {
                if (offset >= beforeOffset)
                {
                    done[0] = true;
                }
                else if (!done[0])
                {
                    tuples.idOf(event);
                }
            };
            while (!done[0] && reader.poll(add, 4096) > 0)
            {
                // read on
            }
        }
        return tuples;
    }

    /**
     * @param directory the journal.
     * @param columns   the key columns' indexes.
     * @return a table holding the tuples of the journal's {@link HistoryBase}, if it has one (else empty).
     */
    static KeyTuples start(final JournalDirectory directory, final int[] columns)
    {
        final KeyTuples tuples = new KeyTuples(directory.schema(), columns);
        final HistoryBase base = HistoryBase.load(directory);
        if (base != null)
        {
            tuples.load(base.tuples(columns));
        }
        return tuples;
    }

    /**
     * The id of an event's tuple, giving it the next id if it is new.
     *
     * @param event an event of the journal.
     * @return its key tuple's id.
     */
    public int idOf(final EventView event)
    {
        final long[] tuple = scratch;
        long hash = 0;
        for (int i = 0; i < arity; i++)
        {
            tuple[i] = stringColumn[i] ? event.stringId(columns[i]) : event.longColumn(columns[i]); // each column read once
            hash = mix(hash, tuple[i]);
        }
        int slot = (int)hash & mask;
        while (true)
        {
            final int id = slots[slot];
            if (id == EMPTY)
            {
                return add(slot);
            }
            if (matches(id))
            {
                return id;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * Number tuples as if their events came next, in order (a {@link HistoryBase}'s table).
     *
     * @param tuples the tuples' components, flat, {@link #arity()} per tuple.
     */
    void load(final long[] tuples)
    {
        for (int base = 0; base < tuples.length; base += arity)
        {
            long hash = 0;
            for (int i = 0; i < arity; i++)
            {
                scratch[i] = tuples[base + i];
                hash = mix(hash, scratch[i]);
            }
            int slot = (int)hash & mask;
            while (slots[slot] != EMPTY && !matches(slots[slot]))
            {
                slot = (slot + 1) & mask;
            }
            if (slots[slot] == EMPTY)
            {
                add(slot);
            }
        }
    }

    /** @return every tuple's components, flat in id order (a copy). */
    long[] components()
    {
        return Arrays.copyOf(components, size * arity);
    }

    /** @return the number of tuples (one past the highest id). */
    public int size()
    {
        return size;
    }

    /** @return the number of key columns. */
    public int arity()
    {
        return arity;
    }

    /**
     * @param index a key column's position in the key, 0 .. {@link #arity()} - 1.
     * @return its index in the schema.
     */
    public int column(final int index)
    {
        return columns[index];
    }

    /**
     * @param id    a tuple's id, below {@link #size()}.
     * @param index a key column's position in the key.
     * @return that column's value in the tuple: a string column's dictionary id, or a long or decimal column's unscaled value.
     */
    public long component(final int id, final int index)
    {
        if (id < 0 || id >= size)
        {
            throw new IllegalArgumentException("no key tuple " + id + " (" + size + " known)");
        }
        return components[id * arity + index];
    }

    private boolean matches(final int id)
    {
        final int base = id * arity;
        for (int i = 0; i < arity; i++)
        {
            if (components[base + i] != scratch[i])
            {
                return false;
            }
        }
        return true;
    }

    private int add(final int slot)
    {
        final int id = size;
        if ((id + 1) * arity > components.length)
        {
            components = Arrays.copyOf(components, components.length * 2);
        }
        System.arraycopy(scratch, 0, components, id * arity, arity);
        slots[slot] = id;
        size = id + 1;
        if (size * 2 > slots.length) // at most half full: probes stay short
        {
            rehash(slots.length * 2);
        }
        return id;
    }

    private void rehash(final int capacity)
    {
        slots = new int[capacity];
        Arrays.fill(slots, EMPTY);
        mask = capacity - 1;
        for (int id = 0; id < size; id++)
        {
            long hash = 0;
            for (int i = 0; i < arity; i++)
            {
                hash = mix(hash, components[id * arity + i]);
            }
            int slot = (int)hash & mask;
            while (slots[slot] != EMPTY)
            {
                slot = (slot + 1) & mask;
            }
            slots[slot] = id;
        }
    }

    /** One round of a 64-bit finaliser over the running hash and the next component. */
    private static long mix(final long hash, final long component)
    {
        long h = (hash ^ component) * 0x9E3779B97F4A7C15L;
        h ^= h >>> 32;
        h *= 0xD6E8FEB86659FD93L;
        return h ^ (h >>> 29);
    }
}
