package dev.weir.engine.join;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

import dev.weir.journal.files.BinaryFields;

/**
 * The keys of one joined table, numbered densely from 0 in the order they are first interned: a key is a tuple
 * of one or more components (a string key column by its {@link TableTexts} id, a long or decimal column by its
 * unscaled value), and its index is where {@link TableVersions} keeps its versions.
 * <p>
 * Looking up a tuple allocates nothing: an open-addressing table of indexes over one flat array of components.
 * Interning a new tuple may grow them. Indexes are never freed: the state grows with the distinct keys.
 * <p>
 * Not thread-safe: one owner thread (the pipeline's publisher).
 */
public final class TableKeys
{
    private static final int EMPTY = -1;
    private static final int MIN_CAPACITY = 16;

    private final int arity;
    private long[] components;
    private int[] slots;
    private int mask;
    private int size;

    /**
     * @param arity the number of key columns, 1 or more.
     */
    public TableKeys(final int arity)
    {
        if (arity < 1)
        {
            throw new IllegalArgumentException("a key has at least one column: " + arity);
        }
        this.arity = arity;
        this.components = new long[MIN_CAPACITY * arity];
        this.slots = new int[MIN_CAPACITY * 2];
        Arrays.fill(slots, EMPTY);
        this.mask = slots.length - 1;
    }

    /**
     * @param tuple the key's components, {@link #arity()} of them (read, not kept).
     * @return its index, or -1 if it was never interned. Allocates nothing.
     */
    public int indexOf(final long[] tuple)
    {
        int slot = hash(tuple) & mask;
        while (true)
        {
            final int index = slots[slot];
            if (index == EMPTY || matches(index, tuple))
            {
                return index;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * @param tuple the key's components, {@link #arity()} of them (copied).
     * @return its index, the next one if it is new.
     */
    public int intern(final long[] tuple)
    {
        int slot = hash(tuple) & mask;
        while (true)
        {
            final int index = slots[slot];
            if (index == EMPTY)
            {
                return add(slot, tuple);
            }
            if (matches(index, tuple))
            {
                return index;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * @param index a key's index.
     * @param i     a component, 0..arity-1.
     * @return that component of the key.
     */
    public long component(final int index, final int i)
    {
        if (index < 0 || index >= size)
        {
            throw new IndexOutOfBoundsException("no key " + index + " of " + size);
        }
        return components[index * arity + i];
    }

    /** @return the number of keys: indexes 0..size-1 are defined. */
    public int size()
    {
        return size;
    }

    /** @return the number of components of a key. */
    public int arity()
    {
        return arity;
    }

    /** Write the keys in index order: int32 count, then each key's components as int64s ({@link JoinStateFile}). */
    void write(final DataOutputStream out) throws IOException
    {
        out.writeInt(size);
        for (int i = 0; i < size * arity; i++)
        {
            out.writeLong(components[i]);
        }
    }

    /** Read what {@link #write} wrote into these keys, which must be empty. */
    void read(final DataInputStream in) throws IOException
    {
        final int n = BinaryFields.count(in, in.available() / (Long.BYTES * arity));
        final long[] tuple = new long[arity];
        for (int index = 0; index < n; index++)
        {
            for (int i = 0; i < arity; i++)
            {
                tuple[i] = in.readLong();
            }
            if (intern(tuple) != index)
            {
                throw new IOException("key " + index + " is not where it was");
            }
        }
    }

    private boolean matches(final int index, final long[] tuple)
    {
        final int base = index * arity;
        for (int i = 0; i < arity; i++)
        {
            if (components[base + i] != tuple[i])
            {
                return false;
            }
        }
        return true;
    }

    private int add(final int slot, final long[] tuple)
    {
        final int index = size++;
        if ((index + 1) * arity > components.length)
        {
            components = Arrays.copyOf(components, components.length * 2);
        }
        System.arraycopy(tuple, 0, components, index * arity, arity);
        slots[slot] = index;
        if (size * 2 > slots.length)
        {
            rehash(slots.length * 2);
        }
        return index;
    }

    private void rehash(final int capacity)
    {
        slots = new int[capacity];
        Arrays.fill(slots, EMPTY);
        mask = capacity - 1;
        final long[] tuple = new long[arity];
        for (int index = 0; index < size; index++)
        {
            System.arraycopy(components, index * arity, tuple, 0, arity);
            int slot = hash(tuple) & mask;
            while (slots[slot] != EMPTY)
            {
                slot = (slot + 1) & mask;
            }
            slots[slot] = index;
        }
    }

    private int hash(final long[] tuple)
    {
        long hash = 0;
        for (int i = 0; i < arity; i++)
        {
            hash = (hash ^ tuple[i]) * 0x9E3779B97F4A7C15L;
            hash ^= hash >>> 29;
        }
        return (int)(hash ^ (hash >>> 32));
    }
}
