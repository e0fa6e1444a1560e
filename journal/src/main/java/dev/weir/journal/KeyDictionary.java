package dev.weir.journal;

import java.util.Arrays;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.collections.Object2IntHashMap;

/**
 * String keys in the outside world, dense int ids inside: the durable dictionary between them.
 * <p>
 * A key's id is defined by the first event document of that key in the journal
 * ({@link DocumentType#EVENT_NEW_KEY}), which carries the string: the definition is durable in the
 * same write as the event, so a process killed at any moment never leaves an event whose key cannot be
 * resolved. This dictionary reads those definitions from the events queue; {@link #name(int)} reads
 * definitions appended since its last look (by this or another process), so a reader can follow a
 * journal that is still growing. {@link #intern(String)} assigns the next id to a new key (in memory,
 * until {@link EventJournal} writes its first event); ids are unique, and dense except for keys
 * interned by a process that died before writing their first event.
 * <p>
 * Not thread-safe: one owner thread per instance ({@link #handOff()} moves it). Only one process may
 * intern into a journal at a time (the one that owns its {@link EventJournal}).
 */
public final class KeyDictionary implements AutoCloseable
{
    private static final int MISSING = -1;

    private final SingleChronicleQueue queue;
    private final boolean ownsQueue;
    private final ExcerptTailer tailer;
    private final EventDecoder definition = new EventDecoder();
    private final Object2IntHashMap<String> idByName = new Object2IntHashMap<>(MISSING);
    private String[] nameById = new String[1024];
    private boolean[] written = new boolean[1024];
    private int nextId;

    private KeyDictionary(final SingleChronicleQueue queue, final boolean ownsQueue)
    {
        this.queue = queue;
        this.ownsQueue = ownsQueue;
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
        return new KeyDictionary(JournalQueues.open(directory, directory.eventsQueue()), true);
    }

    static KeyDictionary over(final SingleChronicleQueue eventsQueue)
    {
        return new KeyDictionary(eventsQueue, false);
    }

    /**
     * Return the id of {@code key}, assigning the next id if it is new (its definition is written with its
     * first event).
     *
     * @param key a key valid under {@link KeyFormat}.
     * @return its id.
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
        return id < written.length && written[id];
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
            refresh();
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
            refresh();
            return idByName.getValue(key);
        }
        return id;
    }

    /**
     * @return one past the highest id known (as of the last reload): the number of keys when ids are dense.
     */
    public int size()
    {
        return nextId;
    }

    /**
     * Hand the dictionary to another thread: the next thread to use it becomes its owner. Call it after
     * the last use on the old thread, before the new thread starts using it.
     */
    public void handOff()
    {
        tailer.singleThreadedCheckReset();
    }

    private void define(final int id, final String key, final boolean isWritten)
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
            throw new IllegalStateException("journal " + queue.file() + " defines key id " + id + " twice: '" + nameById[id] + "' and '" + key
                + "' (was it appended to by two processes at once?)");
        }
        written[id] |= isWritten;
        nextId = Math.max(nextId, id + 1);
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
                if (bytes.readRemaining() > EventEncoder.LENGTH && definition.wrap(bytes) && definition.hasKey())
                {
                    final int id = definition.keyId();
                    final String name = definition.key();
                    if (id < 0 || name == null)
                    {
                        throw new IllegalStateException("journal " + queue.file() + " holds a corrupt key definition at " + dc.index());
                    }
                    define(id, name, true);
                }
            }
        }
    }

    @Override
    public void close()
    {
        tailer.close();
        if (ownsQueue)
        {
            queue.close();
        }
    }
}
