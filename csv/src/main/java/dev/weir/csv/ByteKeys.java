package dev.weir.csv;

import java.util.Arrays;

/**
 * Int ids of byte strings, looked up by a slice of a byte array without making a {@link String}: the
 * ingest's cache from a field's UTF-8 bytes to the id its journal's dictionary gave the field's text.
 * <p>
 * Open addressing with linear probing over power-of-two tables; the keys' bytes are copied into one
 * growing arena. {@link #get} allocates nothing; {@link #put} allocates only when a table or the arena
 * grows. Not thread-safe: one owner thread.
 */
final class ByteKeys
{
    /** What {@link #get} returns for bytes never {@link #put}. */
    static final int MISSING = -1;

    private byte[] arena = new byte[16 * 1024];
    private int arenaUsed;
    private int[] offsets;
    private int[] lengths;
    private int[] hashes;
    private int[] ids;
    private int mask;
    private int size;

    ByteKeys()
    {
        allocate(1024);
    }

    /**
     * @param bytes holds the key.
     * @param start its first byte.
     * @param end   one past its last byte.
     * @return its id, or {@link #MISSING}.
     */
    int get(final byte[] bytes, final int start, final int end)
    {
        final int hash = hash(bytes, start, end);
        final int length = end - start;
        int slot = hash & mask;
        while (true)
        {
            final int id = ids[slot];
            if (id == MISSING)
            {
                return MISSING;
            }
            if (hashes[slot] == hash && lengths[slot] == length)
            {
                if (same(offsets[slot], bytes, start, length))
                {
                    return id;
                }
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * Map a key to an id, unless it is mapped already.
     *
     * @param bytes the key, whole.
     * @param id    its id, &gt;= 0.
     */
    void put(final byte[] bytes, final int id)
    {
        if (id < 0)
        {
            throw new IllegalArgumentException("id must be >= 0: " + id);
        }
        if (get(bytes, 0, bytes.length) != MISSING)
        {
            return;
        }
        if ((size + 1) * 2 > ids.length)
        {
            rehash(ids.length * 2);
        }
        if (arenaUsed + bytes.length > arena.length)
        {
            arena = Arrays.copyOf(arena, Math.max(arena.length * 2, arenaUsed + bytes.length));
        }
        System.arraycopy(bytes, 0, arena, arenaUsed, bytes.length);
        insert(hash(bytes, 0, bytes.length), arenaUsed, bytes.length, id);
        arenaUsed += bytes.length;
        size++;
    }

    /** @return how many keys are mapped. */
    int size()
    {
        return size;
    }

    private void insert(final int hash, final int offset, final int length, final int id)
    {
        int slot = hash & mask;
        while (ids[slot] != MISSING)
        {
            slot = (slot + 1) & mask;
        }
        hashes[slot] = hash;
        offsets[slot] = offset;
        lengths[slot] = length;
        ids[slot] = id;
    }

    private void rehash(final int capacity)
    {
        final int[] oldOffsets = offsets;
        final int[] oldLengths = lengths;
        final int[] oldHashes = hashes;
        final int[] oldIds = ids;
        allocate(capacity);
        for (int i = 0; i < oldIds.length; i++)
        {
            if (oldIds[i] != MISSING)
            {
                insert(oldHashes[i], oldOffsets[i], oldLengths[i], oldIds[i]);
            }
        }
    }

    private void allocate(final int capacity)
    {
        offsets = new int[capacity];
        lengths = new int[capacity];
        hashes = new int[capacity];
        ids = new int[capacity];
        Arrays.fill(ids, MISSING);
        mask = capacity - 1;
    }

    /** A plain loop: keys are short, where {@link Arrays#equals(byte[], int, int, byte[], int, int)} costs more to set up. */
    private boolean same(final int offset, final byte[] bytes, final int start, final int length)
    {
        final byte[] keys = arena;
        for (int i = 0; i < length; i++)
        {
            if (keys[offset + i] != bytes[start + i])
            {
                return false;
            }
        }
        return true;
    }

    private static int hash(final byte[] bytes, final int start, final int end)
    {
        int h = 0;
        for (int i = start; i < end; i++)
        {
            h = 31 * h + bytes[i];
        }
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
