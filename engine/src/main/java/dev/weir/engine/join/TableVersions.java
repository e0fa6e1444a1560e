package dev.weir.engine.join;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

import dev.weir.journal.files.BinaryFields;

/**
 * The versions of each key of one joined table, and the as-of lookup over them.
 * <p>
 * A version is a row of the table valid from a time: its valid-from, whether it is a tombstone, and its columns
 * (a long or decimal column's unscaled value, a string column's {@link TableTexts} id), kept in parallel primitive
 * arrays, one slot per version. A key's versions form a run ordered by valid-from, newest first (a linked list
 * through the slots, so a row valid from the past is inserted in place and the usual lookup, of an event near the
 * newest rows, stops at the first or second). A row whose key already has a version with the same valid-from
 * replaces it: of two rows of one key with the same valid-from, the later appended wins. Freed slots go to a free
 * list and are reused.
 * <p>
 * The lookup ({@link #find}) answers the version of a key with the greatest valid-from at or before a time, or no
 * row when there is none, when it is a tombstone, or when it is dead: its successor (the next valid-from of its key)
 * is at or before the {@link Horizon}. Because dead is decided at lookup, the answer does not depend on when dead
 * versions are physically freed; they are freed lazily, when their key gets a row ({@link #put}) and by an
 * amortised {@link #sweep}, so that a table updated forever stays bounded.
 * <p>
 * Allocates nothing except to grow its arrays. Not thread-safe: one owner thread (the pipeline's publisher).
 */
public final class TableVersions
{
    /** No version: the end of a run, an empty key, or no row. */
    public static final int NONE = -1;
    private static final int MIN_CAPACITY = 16;

    private final int width;
    /** Per key, its newest version's slot, or {@link #NONE}. */
    private int[] heads = new int[MIN_CAPACITY];
    private int keys;
    private long[] validFrom = new long[MIN_CAPACITY];
    private boolean[] tombstone = new boolean[MIN_CAPACITY];
    /** Per slot, the next older version of its key, or, for a free slot, the next free slot. */
    private int[] older = new int[MIN_CAPACITY];
    private long[] columns;
    private int slots;
    private int free = NONE;
    private int live;
    private int sweepCursor;

    /**
     * @param width the table's number of columns (key columns included), 1 or more.
     */
    public TableVersions(final int width)
    {
        if (width < 1)
        {
            throw new IllegalArgumentException("a table has at least one column: " + width);
        }
        this.width = width;
        this.columns = new long[MIN_CAPACITY * width];
        Arrays.fill(heads, NONE);
    }

    /**
     * Add a row of a key, then free its key's dead versions.
     *
     * @param key       the key's index ({@link TableKeys}).
     * @param from      the row's valid-from, epoch ms.
     * @param removed   true for a tombstone: the key has no row from {@code from} on.
     * @param row       the row's columns, {@code width} of them (copied; ignored for a tombstone).
     * @param horizon   the current horizon ({@link Horizon#horizon()}).
     */
    public void put(final int key, final long from, final boolean removed, final long[] row, final long horizon)
    {
        ensureKey(key);
        int newer = NONE;
        int slot = heads[key];
        while (slot != NONE && validFrom[slot] > from)
        {
            newer = slot;
            slot = older[slot];
        }
        final int at;
        if (slot != NONE && validFrom[slot] == from)
        {
            at = slot; // the later appended wins
        }
        else
        {
            at = allocate();
            validFrom[at] = from;
            older[at] = slot;
            if (newer == NONE)
            {
                heads[key] = at;
            }
            else
            {
                older[newer] = at;
            }
        }
        tombstone[at] = removed;
        if (removed)
        {
            Arrays.fill(columns, at * width, at * width + width, 0L);
        }
        else
        {
            System.arraycopy(row, 0, columns, at * width, width);
        }
        prune(key, horizon);
    }

    /**
     * @param key     a key's index, or -1 for a key the table never had.
     * @param time    the event's time.
     * @param horizon the current horizon.
     * @return the slot of the version the event joins, or {@link #NONE}: no row (none valid at {@code time}, a
     *         tombstone, or a dead version). Allocates nothing.
     */
    public int find(final int key, final long time, final long horizon)
    {
        if (key < 0 || key >= keys)
        {
            return NONE;
        }
        int newer = NONE;
        int slot = heads[key];
        while (slot != NONE && validFrom[slot] > time)
        {
            newer = slot;
            slot = older[slot];
        }
        if (slot == NONE || tombstone[slot] || (newer != NONE && validFrom[newer] <= horizon))
        {
            return NONE;
        }
        return slot;
    }

    /**
     * @param slot   a slot {@link #find} answered.
     * @param column a column of the table.
     * @return that column of the version (a string column's {@link TableTexts} id).
     */
    public long column(final int slot, final int column)
    {
        return columns[slot * width + column];
    }

    /**
     * Free the dead versions of up to {@code budget} keys, going round the keys from where the last sweep stopped.
     *
     * @param horizon the current horizon.
     * @param budget  the number of keys to visit.
     */
    public void sweep(final long horizon, final int budget)
    {
        for (int i = 0; i < budget && keys > 0; i++)
        {
            if (sweepCursor >= keys)
            {
                sweepCursor = 0;
            }
            prune(sweepCursor++, horizon);
        }
    }

    /** @return the number of versions held (live, or dead and not freed yet). */
    public int versions()
    {
        return live;
    }

    /** @return the number of keys that have had a row. */
    public int keys()
    {
        return keys;
    }

    /** @return the number of columns of a version. */
    public int width()
    {
        return width;
    }

    /**
     * Write every version held, dead ones not freed yet included, so that a lookup of the state read back answers
     * as this one ({@link JoinStateFile}): per key in index order, int32 count, then its versions newest first, each
     * int64 valid-from, int8 tombstone (1) or row (0), then the row's {@code width} int64 columns.
     */
    void write(final DataOutputStream out, final int keyCount) throws IOException
    {
        for (int key = 0; key < keyCount; key++)
        {
            int count = 0;
            for (int slot = key < keys ? heads[key] : NONE; slot != NONE; slot = older[slot])
            {
                count++;
            }
            out.writeInt(count);
            for (int slot = key < keys ? heads[key] : NONE; slot != NONE; slot = older[slot])
            {
                out.writeLong(validFrom[slot]);
                out.writeByte(tombstone[slot] ? 1 : 0);
                for (int c = 0; c < width; c++)
                {
                    out.writeLong(columns[slot * width + c]);
                }
            }
        }
    }

    /** Read what {@link #write} wrote into these versions, which must be empty. */
    void read(final DataInputStream in, final int keyCount) throws IOException
    {
        for (int key = 0; key < keyCount; key++)
        {
            final int count = BinaryFields.count(in, in.available() / (Long.BYTES + 1 + Long.BYTES * width));
            if (count > 0)
            {
                ensureKey(key);
            }
            int newer = NONE;
            for (int i = 0; i < count; i++)
            {
                final int at = allocate();
                validFrom[at] = in.readLong();
                final byte removed = in.readByte();
                if (removed != 0 && removed != 1 || newer != NONE && validFrom[newer] <= validFrom[at])
                {
                    throw new IOException("version " + i + " of key " + key + " is out of order or neither a row nor a tombstone");
                }
                tombstone[at] = removed == 1;
                for (int c = 0; c < width; c++)
                {
                    columns[at * width + c] = in.readLong();
                }
                older[at] = NONE;
                if (newer == NONE)
                {
                    heads[key] = at;
                }
                else
                {
                    older[newer] = at;
                }
                newer = at;
            }
        }
    }

    /**
     * Free a key's versions older than its newest version at or before the horizon: each is dead. That version
     * stays, even a tombstone: it is the successor that makes a row appended later, valid from before it, dead.
     */
    private void prune(final int key, final long horizon)
    {
        int slot = heads[key];
        while (slot != NONE && validFrom[slot] > horizon)
        {
            slot = older[slot];
        }
        if (slot == NONE)
        {
            return;
        }
        int dead = older[slot];
        older[slot] = NONE;
        while (dead != NONE)
        {
            final int next = older[dead];
            release(dead);
            dead = next;
        }
    }

    private int allocate()
    {
        live++;
        if (free != NONE)
        {
            final int slot = free;
            free = older[slot];
            return slot;
        }
        if (slots == validFrom.length)
        {
            final int capacity = slots * 2;
            validFrom = Arrays.copyOf(validFrom, capacity);
            tombstone = Arrays.copyOf(tombstone, capacity);
            older = Arrays.copyOf(older, capacity);
            columns = Arrays.copyOf(columns, capacity * width);
        }
        return slots++;
    }

    private void release(final int slot)
    {
        live--;
        older[slot] = free;
        free = slot;
    }

    private void ensureKey(final int key)
    {
        if (key >= heads.length)
        {
            final int old = heads.length;
            heads = Arrays.copyOf(heads, Math.max(old * 2, key + 1));
            Arrays.fill(heads, old, heads.length, NONE);
        }
        keys = Math.max(keys, key + 1);
    }
}
