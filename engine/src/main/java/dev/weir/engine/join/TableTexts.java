package dev.weir.engine.join;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

import dev.weir.journal.files.BinaryFields;

/**
 * The texts of one string column of a joined table, numbered densely from 0 in the order they are first
 * interned: the ids a {@link JoinedView} hands out for that column.
 * <p>
 * Looking up a {@link CharSequence} (a journal reader's reused flyweight) allocates nothing: an open-addressing
 * table of ids whose texts are compared char by char. Interning a new text copies it once into a String and may
 * grow the table. Ids are never freed: the state grows with the distinct texts, not with the rows.
 * <p>
 * Not thread-safe: one owner thread (the pipeline's publisher).
 */
public final class TableTexts
{
    private static final int EMPTY = -1;
    private static final int MIN_CAPACITY = 16;

    private String[] texts = new String[MIN_CAPACITY];
    private int[] hashes = new int[MIN_CAPACITY];
    private int[] slots = emptySlots(MIN_CAPACITY * 2);
    private int mask = slots.length - 1;
    private int size;

    /**
     * @param text a text.
     * @return its id, or -1 if it was never interned. Allocates nothing.
     */
    public int idOf(final CharSequence text)
    {
        final int hash = hash(text);
        int slot = hash & mask;
        while (true)
        {
            final int id = slots[slot];
            if (id == EMPTY)
            {
                return -1;
            }
            if (hashes[id] == hash && texts[id].contentEquals(text))
            {
                return id;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * @param text a text.
     * @return its id, the next one if it is new.
     */
    public int intern(final CharSequence text)
    {
        final int hash = hash(text);
        int slot = hash & mask;
        while (true)
        {
            final int id = slots[slot];
            if (id == EMPTY)
            {
                return add(slot, hash, text);
            }
            if (hashes[id] == hash && texts[id].contentEquals(text))
            {
                return id;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * @param id an id this column has handed out.
     * @return its text.
     * @throws IndexOutOfBoundsException if the id is not defined.
     */
    public String text(final int id)
    {
        if (id < 0 || id >= size)
        {
            throw new IndexOutOfBoundsException("no text " + id + " of " + size);
        }
        return texts[id];
    }

    /**
     * @return the number of texts: ids 0..size-1 are defined.
     */
    public int size()
    {
        return size;
    }

    /** Write the texts in id order: int32 count, then each as a text field ({@link JoinStateFile}). */
    void write(final DataOutputStream out) throws IOException
    {
        out.writeInt(size);
        for (int id = 0; id < size; id++)
        {
            JoinStateFile.writeText(out, texts[id]);
        }
    }

    /** Read what {@link #write} wrote into these texts, which hold only the ids interned before (the default). */
    void read(final DataInputStream in) throws IOException
    {
        final int n = BinaryFields.count(in, in.available() / Integer.BYTES);
        for (int id = 0; id < n; id++)
        {
            if (intern(BinaryFields.readText(in)) != id)
            {
                throw new IOException("text " + id + " is not where it was");
            }
        }
    }

    private int add(final int slot, final int hash, final CharSequence text)
    {
        final int id = size++;
        if (id == texts.length)
        {
            texts = Arrays.copyOf(texts, id * 2);
            hashes = Arrays.copyOf(hashes, id * 2);
        }
        texts[id] = text.toString();
        hashes[id] = hash;
        slots[slot] = id;
        if (size * 2 > slots.length)
        {
            rehash(slots.length * 2);
        }
        return id;
    }

    private void rehash(final int capacity)
    {
        slots = emptySlots(capacity);
        mask = capacity - 1;
        for (int id = 0; id < size; id++)
        {
            int slot = hashes[id] & mask;
            while (slots[slot] != EMPTY)
            {
                slot = (slot + 1) & mask;
            }
            slots[slot] = id;
        }
    }

    private static int[] emptySlots(final int capacity)
    {
        final int[] slots = new int[capacity];
        Arrays.fill(slots, EMPTY);
        return slots;
    }

    private static int hash(final CharSequence text)
    {
        int hash = 0;
        for (int i = 0, n = text.length(); i < n; i++)
        {
            hash = 31 * hash + text.charAt(i);
        }
        hash = (hash ^ (hash >>> 16)) * 0x85EBCA6B;
        return hash ^ (hash >>> 13);
    }
}
