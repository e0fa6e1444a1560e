package dev.weir.journal;

import java.util.Arrays;
import java.util.SortedMap;

import org.agrona.collections.Object2IntHashMap;

import dev.weir.journal.codec.DocumentType;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.KeyFormat;
import dev.weir.journal.schema.StringFormat;

/**
 * String values in the outside world, dense int ids inside: the durable dictionary between them, for one
 * {@link ColumnType#STRING} column of a journal (the {@code key} column in the default schema; see
 * {@link StringDictionaries} for every string column).
 * <p>
 * An id is defined by the first event document that uses it ({@link DocumentType#EVENT_NEW_KEY}), which
 * carries the string: the definition is durable in the same write as the event, so a process killed at
 * any moment never leaves an event whose string ids cannot be resolved. This dictionary reads those
 * definitions from the events queue; {@link #name(int)} reads definitions appended since its last look (by
 * this or another process), so a reader can follow a journal that is still growing.
 * {@link #intern(String)} assigns the next id to a new string (in memory, until {@link EventJournal}
 * writes its first event); ids are unique, and dense except for strings interned by a process that died
 * before writing their first event.
 * <p>
 * Values: in the default schema's {@code key} column, valid under {@link KeyFormat}; in any other string
 * column, under {@link StringFormat}.
 * <p>
 * Not thread-safe: one owner thread per instance ({@link #handOff()} moves it, with the other columns'
 * dictionaries). Only one process may intern into a journal at a time (the one that owns its
 * {@link EventJournal}).
 */
public final class KeyDictionary implements AutoCloseable
{
    private static final int MISSING = -1;

    private final StringDictionaries owner;
    private final int column;
    private final String columnName;
    private final boolean keyRule;
    private final Object2IntHashMap<String> idByName = new Object2IntHashMap<>(MISSING);
    private String[] nameById = new String[1024];
    private boolean[] written = new boolean[1024];
    private int nextId;
    private boolean closesOwner;

    KeyDictionary(final StringDictionaries owner, final int column, final String columnName, final boolean keyRule)
    {
        this.owner = owner;
        this.column = column;
        this.columnName = columnName;
        this.keyRule = keyRule;
    }

    /**
     * Open the key dictionary of a journal: in the default schema, of its {@code key} column; in another, of
     * its first string column (the key ids a {@link JournalReader#poll(EventConsumer, int)} hands over),
     * empty if there is none. Closing it closes what it opened.
     *
     * @param directory the journal.
     * @return the dictionary, loaded with every key defined so far.
     */
    public static KeyDictionary open(final JournalDirectory directory)
    {
        final StringDictionaries all = StringDictionaries.open(directory);
        final KeyDictionary keys = all.keyDictionary();
        keys.closesOwner = true;
        return keys;
    }

    /** @return the index of its column in the journal's schema, or -1 for the empty dictionary of a schema without string columns. */
    public int column()
    {
        return column;
    }

    /**
     * Return the id of {@code key}, assigning the next id if it is new (its definition is written with its
     * first event).
     *
     * @param key a value valid under {@link KeyFormat} (default schema's {@code key} column) or {@link StringFormat}.
     * @return its id.
     * @throws IllegalArgumentException if the value is not valid, e.g. {@code string over 256 bytes in column merchant}.
     */
    public int intern(final String key)
    {
        final int existing = idByName.getValue(key);
        if (existing != MISSING)
        {
            return existing;
        }
        if (column < 0)
        {
            throw new IllegalStateException("the events of " + owner.schema() + " have no string column");
        }
        if (keyRule)
        {
            final String why = KeyFormat.whyInvalid(key);
            if (why != null)
            {
                throw new IllegalArgumentException(why + ": '" + key + "'");
            }
        }
        else
        {
            final String why = StringFormat.whyInvalid(key);
            if (why != null)
            {
                throw new IllegalArgumentException(why + " in column " + columnName);
            }
        }
        owner.refresh();
        final int reloaded = idByName.getValue(key);
        if (reloaded != MISSING)
        {
            return reloaded;
        }
        final int id = nextId;
        define(id, key, false);
        return id;
    }

    /**
     * @param id a key id.
     * @return true if a document defining it is in the journal.
     */
    boolean isWritten(final int id)
    {
        return id >= 0 && id < written.length && written[id];
    }

    /**
     * @param id a key id.
     * @return its string if a document defining it is in the journal (as far as this dictionary knows), else null; reads nothing.
     */
    String writtenName(final int id)
    {
        return isWritten(id) ? nameById[id] : null;
    }

    /**
     * Record that this process wrote the definition of an id.
     *
     * @param id the id.
     */
    void markWritten(final int id)
    {
        written[id] = true;
    }

    /**
     * Record that the document that was to define an id was never written (its write failed).
     *
     * @param id the id.
     */
    void unmarkWritten(final int id)
    {
        written[id] = false;
    }

    /**
     * @param id a key id.
     * @return the key's string, or null if no such id has been defined.
     */
    public String name(final int id)
    {
        if (id < 0)
        {
            return null;
        }
        if (id >= nextId || nameById[id] == null)
        {
            owner.refresh();
            if (id >= nextId)
            {
                return null;
            }
        }
        return nameById[id];
    }

    /**
     * @param key a key.
     * @return its id, or -1 if it has not been defined.
     */
    public int idOf(final String key)
    {
        final int id = idByName.getValue(key);
        if (id == MISSING)
        {
            owner.refresh();
            return idByName.getValue(key);
        }
        return id;
    }

    /**
     * Copy every string this dictionary knows, by id (as of its last reload; reads nothing).
     *
     * @param into where to put them.
     */
    void copyInto(final SortedMap<Integer, String> into)
    {
        for (int id = 0; id < nextId; id++)
        {
            if (nameById[id] != null)
            {
                into.put(id, nameById[id]);
            }
        }
    }

    /**
     * @return one past the highest id known (as of the last reload): the number of keys when ids are dense.
     */
    public int size()
    {
        return nextId;
    }

    /**
     * Hand the dictionary (with the journal's other string dictionaries) to another thread: the next
     * thread to use it becomes its owner. Call it after the last use on the old thread, before the new
     * thread starts using it.
     */
    public void handOff()
    {
        owner.handOff();
    }

    void define(final int id, final String key, final boolean isWritten)
    {
        if (id >= nameById.length)
        {
            final int capacity = Math.max(nameById.length * 2, id + 1);
            nameById = Arrays.copyOf(nameById, capacity);
            written = Arrays.copyOf(written, capacity);
        }
        if (nameById[id] == null)
        {
            nameById[id] = key;
            idByName.put(key, id);
        }
        else if (!nameById[id].equals(key))
        {
            throw new IllegalStateException("journal " + owner.file() + " defines " + (keyRule ? "key id " : "string id ") + id
                + (keyRule ? "" : " of column " + columnName) + " twice: '" + nameById[id] + "' and '" + key
                + "' (was it appended to by two processes at once?)");
        }
        written[id] |= isWritten;
        nextId = Math.max(nextId, id + 1);
    }

    /** Closes the journal's dictionaries if this one was opened by {@link #open}; else nothing. */
    @Override
    public void close()
    {
        if (closesOwner)
        {
            owner.close();
        }
    }
}
