package dev.weir.journal;

import java.util.ArrayList;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.collections.Object2IntHashMap;

/**
 * String keys in the outside world, dense int ids inside: the durable dictionary between them.
 * <p>
 * Ids are dense, starting at 0, in the order keys are first seen. Each new key is appended once to the
 * journal's {@code keys} queue before any event that uses it, so a fresh process reading an old journal
 * maps every id back to its original string. {@link #name(int)} reloads definitions appended since the
 * last look (by this or another process), so a reader can follow a journal that is still growing.
 * <p>
 * Not thread-safe: one owner thread per instance. Only one process may {@link #intern(String)} into a
 * journal at a time (the one that owns its {@link EventJournal}).
 */
public final class KeyDictionary implements AutoCloseable
{
    private static final int MISSING = -1;

    private final SingleChronicleQueue queue;
    private final ExcerptTailer tailer;
    private final Object2IntHashMap<String> idByName = new Object2IntHashMap<>(MISSING);
    private final ArrayList<String> nameById = new ArrayList<>();
    private ExcerptAppender appender;

    private KeyDictionary(final SingleChronicleQueue queue)
    {
        this.queue = queue;
        this.tailer = queue.createTailer();
        refresh();
    }

    /**
     * Open the key dictionary of a journal.
     *
     * @param directory the journal.
     * @return the dictionary, loaded with every key defined so far.
     */
    public static KeyDictionary open(final JournalDirectory directory)
    {
        return new KeyDictionary(JournalQueues.open(directory, directory.keysQueue()));
    }

    /**
     * Return the id of {@code key}, defining it durably if it is new.
     *
     * @param key a key valid under {@link KeyFormat}.
     * @return its dense id.
     * @throws IllegalArgumentException if the key is not valid.
     */
    public int intern(final String key)
    {
        final int existing = idByName.getValue(key);
        if (existing != MISSING)
        {
            return existing;
        }
        final String why = KeyFormat.whyInvalid(key);
        if (why != null)
        {
            throw new IllegalArgumentException(why + ": '" + key + "'");
        }
        refresh();
        final int reloaded = idByName.getValue(key);
        if (reloaded != MISSING)
        {
            return reloaded;
        }
        final int id = nameById.size();
        if (appender == null)
        {
            appender = queue.createAppender();
        }
        try (DocumentContext dc = appender.writingDocument())
        {
            final Bytes<?> bytes = dc.wire().bytes();
            bytes.writeInt(id);
            bytes.writeUtf8(key);
        }
        refresh();
        if (idByName.getValue(key) != id)
        {
            throw new IllegalStateException("key dictionary of " + queue.file() + " is written by another process");
        }
        return id;
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
        if (id >= nameById.size())
        {
            refresh();
            if (id >= nameById.size())
            {
                return null;
            }
        }
        return nameById.get(id);
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
            refresh();
            return idByName.getValue(key);
        }
        return id;
    }

    /**
     * @return how many keys are defined (as of the last reload).
     */
    public int size()
    {
        return nameById.size();
    }

    private void refresh()
    {
        while (true)
        {
            try (DocumentContext dc = tailer.readingDocument())
            {
                if (!dc.isPresent())
                {
                    return;
                }
                final Bytes<?> bytes = dc.wire().bytes();
                final int id = bytes.readInt();
                final String name = bytes.readUtf8();
                if (id != nameById.size() || name == null)
                {
                    throw new IllegalStateException("key dictionary of " + queue.file() + " is corrupt at id " + id);
                }
                nameById.add(name);
                idByName.put(name, id);
            }
        }
    }

    /**
     * Hand the dictionary to another thread: the next thread to use it becomes its owner. Call it after
     * the last use on the old thread, before the new thread starts using it.
     */
    public void handOff()
    {
        tailer.singleThreadedCheckReset();
        if (appender != null)
        {
            appender.singleThreadedCheckReset();
        }
    }

    /**
     * Force the dictionary's queue to disk.
     */
    public void sync()
    {
        QueueSync.force(queue);
    }

    @Override
    public void close()
    {
        queue.close();
    }
}
