package dev.weir.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The string dictionaries of a journal, one {@link KeyDictionary} per {@link ColumnType#STRING} column,
 * rebuilt and kept up to date by one scan of the events queue.
 * <p>
 * Each string column has dense ids from 0, in order of first use. An id is defined by the first event
 * document that uses it ({@link DocumentType#EVENT_NEW_KEY}), which carries, after its fixed part, the
 * string of each string column whose id it uses first, in schema order (see {@link EventEncoder}); which
 * ids are new is told by the documents before it, so the scan reads the queue from its start, once, and
 * then reads what was appended since its last look (by this or another process) whenever a dictionary
 * meets an id or a string it does not know.
 * <p>
 * Not thread-safe: one owner thread, with its dictionaries ({@link #handOff()} moves them). Only one
 * process may intern into a journal at a time (the one that owns its {@link EventJournal}).
 */
public final class StringDictionaries implements StringDefinitions, AutoCloseable
{
    private final SingleChronicleQueue queue;
    private final boolean ownsQueue;
    private final ExcerptTailer tailer;
    private final EventShape shape;
    private final EventDecoder definition;
    private final KeyDictionary[] byColumn;
    private KeyDictionary none;

    private StringDictionaries(final SingleChronicleQueue queue, final boolean ownsQueue, final EventShape shape)
    {
        this.queue = queue;
        this.ownsQueue = ownsQueue;
        this.shape = shape;
        this.definition = new EventDecoder(shape);
        this.byColumn = new KeyDictionary[shape.columns()];
        for (int s = 0; s < shape.stringColumns(); s++)
        {
            final int column = shape.stringColumn(s);
            byColumn[column] = new KeyDictionary(this, column, shape.schema().column(column).name(), shape.isDefault());
        }
        this.tailer = queue.createTailer();
        refresh();
    }

    /**
     * Open the string dictionaries of a journal.
     *
     * @param directory the journal.
     * @return its dictionaries, loaded with every string defined so far.
     */
    public static StringDictionaries open(final JournalDirectory directory)
    {
        final SingleChronicleQueue queue = JournalQueues.open(directory, directory.eventsQueue());
        try
        {
            return new StringDictionaries(queue, true, EventShape.of(directory.schema()));
        }
        catch (final RuntimeException ex)
        {
            queue.close();
            throw ex;
        }
    }

    static StringDictionaries over(final SingleChronicleQueue eventsQueue, final EventShape shape)
    {
        return new StringDictionaries(eventsQueue, false, shape);
    }

    /** @return the schema of the journal's events. */
    public JournalSchema schema()
    {
        return shape.schema();
    }

    /**
     * @param column the index of a string column.
     * @return its dictionary (owned by these dictionaries: closing it does nothing).
     * @throws IllegalArgumentException if the column is not a string column.
     */
    public KeyDictionary dictionary(final int column)
    {
        if (column < 0 || column >= byColumn.length || byColumn[column] == null)
        {
            throw new IllegalArgumentException("column " + column + " of " + shape.schema() + " is not a string column");
        }
        return byColumn[column];
    }

    /**
     * @return the dictionary of the first string column ({@code key} in the default schema), whose ids a
     *         {@link JournalReader#poll(EventConsumer, int)} hands over as key ids; an empty one, which
     *         interns nothing, if there is no string column.
     */
    public KeyDictionary keyDictionary()
    {
        if (shape.firstStringColumn() >= 0)
        {
            return byColumn[shape.firstStringColumn()];
        }
        if (none == null)
        {
            none = new KeyDictionary(this, -1, "(none)", false);
        }
        return none;
    }

    @Override
    public boolean isDefined(final int column, final int id)
    {
        return byColumn[column].isWritten(id);
    }

    /**
     * Hand the dictionaries to another thread: the next thread to use them becomes their owner. Call it
     * after the last use on the old thread, before the new thread starts using them.
     */
    public void handOff()
    {
        tailer.singleThreadedCheckReset();
    }

    /** Read the definitions appended since the last look. */
    void refresh()
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
                if (bytes.readRemaining() > shape.length() && definition.wrap(bytes) && definition.hasKey())
                {
                    define(dc.index());
                }
            }
        }
    }

    private void define(final long offset)
    {
        final long columns = definition.newStrings(this);
        for (int s = 0; s < shape.stringColumns(); s++)
        {
            final int column = shape.stringColumn(s);
            if ((columns & 1L << column) != 0)
            {
                final int id = definition.stringId(column);
                final String text = definition.text(column);
                if (id < 0 || text == null)
                {
                    throw new IllegalStateException("journal " + queue.file() + " holds a corrupt key definition at " + offset);
                }
                byColumn[column].define(id, text, true);
            }
        }
    }

    /** @return the events queue's files, named in error messages. */
    java.io.File file()
    {
        return queue.file();
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
