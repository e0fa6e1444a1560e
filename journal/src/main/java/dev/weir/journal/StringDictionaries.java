package dev.weir.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.TreeMap;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import dev.weir.journal.codec.DocumentType;
import dev.weir.journal.codec.EventBatchDecoder;
import dev.weir.journal.codec.EventDecoder;
import dev.weir.journal.codec.EventEncoder;
import dev.weir.journal.codec.EventShape;
import dev.weir.journal.codec.StringDefinitions;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;

/**
 * The string dictionaries of a journal, one {@link KeyDictionary} per {@link ColumnType#STRING} column,
 * rebuilt and kept up to date by one scan of the events queue.
 * <p>
 * Each string column has dense ids from 0, in order of first use; a column the journal gained
 * ({@link JournalSchema#extend}) starts with its default as id 0, defined by the schema rather than by a
 * document, so that the events before it and those whose value is the default have the same id. An id is defined by the first event
 * document that uses it ({@link DocumentType#EVENT_NEW_KEY}), which carries, after its fixed part, the
 * string of each string column whose id it uses first, in schema order (see {@link EventEncoder}); which
 * ids are new is told by the documents before it, so the scan reads the queue from its start, once, and
 * then reads what was appended since its last look (by this or another process) whenever a dictionary
 * meets an id or a string it does not know.
 * <p>
 * Opening starts from the journal's {@link DictionarySnapshot} when it holds a valid one (its entries, and
 * the counts of {@link #counts()}), and scans only the documents after the offset it covers; the appender
 * ({@link EventJournal}) writes a new one when it closes. An invalid snapshot is ignored (the scan starts at
 * the queue's first document) and told by {@link #snapshotStatus()}.
 * <p>
 * Once old cycles were removed, a snapshot covering an offset before the journal's {@link HistoryBase}'s first
 * offset B, or whose covered document is gone, is not used: the base's dictionaries and counts are, and the scan
 * starts at B. No document before B is read.
 * <p>
 * Not thread-safe: one owner thread, with its dictionaries ({@link #handOff()} moves them). Only one
 * process may intern into a journal at a time (the one that owns its {@link EventJournal}).
 */
public final class StringDictionaries implements StringDefinitions, AutoCloseable
{
    private final JournalDirectory directory;
    /** The events queue's path, for the tally's messages: made once, not per document read. */
    private final Path eventsQueue;
    private final Path snapshotFile;
    private final SingleChronicleQueue queue;
    private final boolean ownsQueue;
    /** Reads the definitions; null once {@link #releasePassedCycles()} let it go, until the next scan makes it again. */
    private ExcerptTailer tailer;
    private final EventShape shape;
    private final EventDecoder definition;
    private final JournalOffsets offsets;
    private final EventBatchDecoder batch = new EventBatchDecoder();
    private final KeyDictionary[] byColumn;
    private final JournalTally tally = new JournalTally();
    private HistoryBase base;
    private KeyDictionary none;
    private String snapshotStatus;

    private StringDictionaries(
        final JournalDirectory directory, final HistoryBase base, final SingleChronicleQueue queue, final boolean ownsQueue, final EventShape shape)
    {
        this.directory = directory;
        this.eventsQueue = directory.eventsQueue();
        this.offsets = directory.offsets();
        this.snapshotFile = DictionarySnapshot.file(directory.root());
        this.base = base;
        this.queue = queue;
        this.ownsQueue = ownsQueue;
        this.shape = shape;
        this.definition = new EventDecoder(shape);
        this.byColumn = new KeyDictionary[shape.columns()];
        for (int s = 0; s < shape.stringColumns(); s++)
        {
            final int column = shape.stringColumn(s);
            byColumn[column] = new KeyDictionary(this, column, shape.schema().column(column).name(), shape.originalIsDefault() && column == 0);
            if (shape.generationOf(column) > 1)
            {
                // an added string column's default has id 0, defined by the schema: the events before it read it
                byColumn[column].define(0, shape.schema().column(column).defaultValue(), true);
            }
        }
        this.tailer = queue.createTailer();
        loadSnapshot();
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
        final HistoryBase base = HistoryBase.load(directory);
        final SingleChronicleQueue queue = JournalQueues.open(directory, directory.eventsQueue());
        try
        {
            return new StringDictionaries(directory, base, queue, true, EventShape.of(directory.schema()));
        }
        catch (final RuntimeException ex)
        {
            queue.close();
            throw ex;
        }
    }

    static StringDictionaries over(final JournalDirectory directory, final SingleChronicleQueue eventsQueue, final EventShape shape)
    {
        return new StringDictionaries(directory, HistoryBase.load(directory), eventsQueue, false, shape);
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

    /**
     * Every string defined so far in every string column, by column index then id: what
     * {@link HistoryBase#seed} gives a new journal so that it interns the same strings under the same ids.
     * Reads the definitions appended since the last look first.
     *
     * @return a new map, column index to (id to string).
     */
    public TreeMap<Integer, TreeMap<Integer, String>> definitions()
    {
        refresh();
        final TreeMap<Integer, TreeMap<Integer, String>> all = new TreeMap<>();
        for (int column = 0; column < byColumn.length; column++)
        {
            if (byColumn[column] != null)
            {
                final TreeMap<Integer, String> entries = new TreeMap<>();
                byColumn[column].copyInto(entries);
                all.put(column, entries);
            }
        }
        return all;
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
        if (tailer != null)
        {
            tailer.singleThreadedCheckReset();
        }
    }

    /**
     * Let go of the events cycle file the scan stands in once the queue has a newer one, so that a process
     * that keeps these dictionaries open does not keep a cycle that retention deleted on disk (an open, mapped
     * file keeps its space until it is let go). The scan reads nothing now: the next look for a string it does
     * not know goes on from the last document it read, or, if retention removed that document's cycle meanwhile,
     * from the history base, which holds every string the removed cycles defined. Cheap when there is nothing to
     * let go (it compares two cycle numbers); call it now and then on the owner thread, e.g. after each batch of
     * lookups or when the appender rolled.
     */
    public void releasePassedCycles()
    {
        if (tailer != null && tailer.cycle() < queue.lastCycle())
        {
            tailer.close();
            tailer = null;
        }
    }

    /** @return the scan, made again after {@link #releasePassedCycles()} just after the last document counted. */
    private ExcerptTailer scan()
    {
        if (tailer == null)
        {
            tailer = queue.createTailer();
            final long through = tally.countedThrough();
            if (through != Long.MIN_VALUE && tailer.moveToIndex(directory.offsets().index(through)))
            {
                try (DocumentContext passed = tailer.readingDocument())
                {
                    // the last document counted, read before: passed over
                }
            }
            else
            {
                base = HistoryBase.load(directory); // retention moves the base on before it removes a cycle
                if (base != null && base.first > through)
                {
                    final String opened = snapshotStatus;
                    loadBase();
                    snapshotStatus = opened;
                }
                else
                {
                    tailer.toStart(); // what the tally counted already is passed over
                }
            }
        }
        return tailer;
    }

    /**
     * @return what the events queue holds, counted up to its current end (the snapshot's counts plus the
     *         documents after it).
     */
    public IngestLog.Counts counts()
    {
        refresh();
        return tally.counts();
    }

    /**
     * @return how these dictionaries were opened, for {@code weir inspect}: {@code none} (no snapshot: the
     *         whole queue was scanned), {@code at offset N} (loaded, then the documents after N scanned), or
     *         {@code ignored: WHY} (invalid: the whole queue was scanned).
     */
    public String snapshotStatus()
    {
        return snapshotStatus;
    }

    /** @return the counts kept as documents are read and appended (owner thread). */
    JournalTally tally()
    {
        return tally;
    }

    /** Load the snapshot if it is valid, leaving the tailer after the document it covers; else at the start. */
    private void loadSnapshot()
    {
        final DictionarySnapshot snapshot;
        try
        {
            snapshot = DictionarySnapshot.read(snapshotFile, shape.schema());
            if (snapshot == null)
            {
                snapshotStatus = "none";
                loadBase();
                return;
            }
            if (base != null && snapshot.covered < base.first)
            {
                throw new DictionarySnapshot.Invalid("older than the history base (offset " + base.first + ")");
            }
            check(snapshot);
        }
        catch (final DictionarySnapshot.Invalid invalid)
        {
            tailer.toStart();
            snapshotStatus = "ignored: " + invalid.getMessage();
            loadBase();
            return;
        }
        for (int c = 0; c < snapshot.columns.length; c++)
        {
            final KeyDictionary dictionary = byColumn[snapshot.columns[c]];
            for (int e = 0; e < snapshot.ids[c].length; e++)
            {
                dictionary.define(snapshot.ids[c][e], snapshot.texts[c][e], true);
            }
        }
        tally.restore(snapshot.counts, snapshot.covered);
        snapshotStatus = "at offset " + snapshot.covered;
    }

    /** Start from the history base, if there is one: its dictionaries and counts, the tailer at its first offset. */
    private void loadBase()
    {
        if (base == null)
        {
            return;
        }
        base.dictionaries.forEach((column, entries) ->
        {
            if (column >= byColumn.length && column < JournalSchema.MAX_COLUMNS)
            {
                return; // a column added after this journal was opened: its documents are not read here
            }
            if (column < 0 || byColumn[column] == null)
            {
                throw new JournalRefusedException(snapshotFile.getParent(),
                    "its history base " + HistoryBase.FILE + " is of another journal (column " + column + " is not a string column)");
            }
            entries.forEach((id, text) -> byColumn[column].define(id, text, true));
        });
        tally.restore(base.counts, base.first - 1);
        HistoryBase.moveTo(tailer, base.first, directory.offsets());
        snapshotStatus += "; from the history base at offset " + base.first;
    }

    /** Check that the snapshot covers this queue (consuming the covered document) and survived what the queue did. */
    private void check(final DictionarySnapshot snapshot) throws DictionarySnapshot.Invalid
    {
        if (!snapshot.synced && (snapshot.bootId.isEmpty() || !snapshot.bootId.equals(DictionarySnapshot.bootId())))
        {
            throw new DictionarySnapshot.Invalid("written before a restart of the machine over a journal not forced to disk");
        }
        for (int c = 0; c < snapshot.columns.length; c++)
        {
            final int column = snapshot.columns[c];
            if (column < 0 || column >= byColumn.length || byColumn[column] == null)
            {
                throw new DictionarySnapshot.Invalid("of another journal (column " + column + " is not a string column)");
            }
        }
        final long covered = directory.offsets().index(snapshot.covered);
        if (!tailer.moveToIndex(covered))
        {
            throw new DictionarySnapshot.Invalid("of another journal (no document at offset " + snapshot.covered + ")");
        }
        try (DocumentContext dc = tailer.readingDocument())
        {
            if (!dc.isPresent() || dc.index() != covered || DictionarySnapshot.crcOf(dc.wire().bytes()) != snapshot.coveredCrc)
            {
                throw new DictionarySnapshot.Invalid("of another journal (the document at offset " + snapshot.covered + " differs)");
            }
        }
    }

    /**
     * Write a snapshot of the dictionaries and counts as of the last document counted, replacing the previous
     * one; nothing if the queue is empty. The owner appends nothing meanwhile.
     *
     * @param synced true if the events queue was forced to disk through that document.
     * @throws UncheckedIOException if it cannot be written (the previous snapshot is left as it was).
     */
    void writeSnapshot(final boolean synced)
    {
        final long covered = tally.countedThrough();
        if (covered == Long.MIN_VALUE || base != null && covered < base.first)
        {
            return;
        }
        final int crc;
        try (ExcerptTailer at = queue.createTailer())
        {
            if (!at.moveToIndex(directory.offsets().index(covered)))
            {
                throw new IllegalStateException("journal " + queue.file() + " has no document at offset " + covered);
            }
            try (DocumentContext dc = at.readingDocument())
            {
                crc = DictionarySnapshot.crcOf(dc.wire().bytes());
            }
        }
        final int[] columns = new int[shape.stringColumns()];
        final int[][] ids = new int[columns.length][];
        final String[][] texts = new String[columns.length][];
        for (int s = 0; s < columns.length; s++)
        {
            columns[s] = shape.stringColumn(s);
            final KeyDictionary dictionary = byColumn[columns[s]];
            int n = 0;
            for (int id = 0; id < dictionary.size(); id++)
            {
                n += dictionary.isWritten(id) ? 1 : 0;
            }
            ids[s] = new int[n];
            texts[s] = new String[n];
            int e = 0;
            for (int id = 0; id < dictionary.size(); id++)
            {
                if (dictionary.isWritten(id))
                {
                    ids[s][e] = id;
                    texts[s][e++] = dictionary.writtenName(id);
                }
            }
        }
        final DictionarySnapshot snapshot = new DictionarySnapshot(covered, crc, synced, synced ? "" : DictionarySnapshot.bootId(),
            tally.values(), columns, ids, texts);
        try
        {
            snapshot.write(snapshotFile, shape.schema().toString());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + snapshotFile, ex);
        }
    }

    /** Read the definitions appended since the last look. */
    void refresh()
    {
        ExcerptTailer scan = scan();
        while (true)
        {
            try (DocumentContext dc = scan.readingDocument())
            {
                if (!dc.isPresent())
                {
                    return;
                }
                if (passedRemovedCycles(dc.index()))
                {
                    dc.rollbackOnClose();
                    scan = null;
                }
                else
                {
                    count(dc);
                }
            }
            if (scan == null)
            {
                loadBase(); // every string the removed cycles defined; the scan goes on at the base's first offset
                scan = tailer;
            }
        }
    }

    /**
     * A scan that enters a new cycle may have been carried over cycles that retention removed meanwhile (Chronicle
     * moves a tailer on to the next remaining cycle, and says so in its log). Retention moves the history base on
     * before it removes a cycle, so a base newer than the one loaded, beginning after the last document counted,
     * tells it: it holds every string the removed cycles defined.
     *
     * @param index the queue index of the document the scan is at.
     * @return true if such a base is now loaded into {@link #base} (the caller then starts from it).
     */
    private boolean passedRemovedCycles(final long index)
    {
        final long through = tally.countedThrough(); // below 0 if no document was counted (-1 after a base at offset 0)
        if (through >= 0 && queue.rollCycle().toCycle(offsets.index(through)) == queue.rollCycle().toCycle(index))
        {
            return false;
        }
        final HistoryBase now = HistoryBase.load(directory);
        if (now == null || base != null && now.first <= base.first || through >= 0 && now.first <= through)
        {
            return false;
        }
        base = now;
        return true;
    }

    /** Count the document the scan is at, or each entry of its batch. */
    private void count(final DocumentContext dc)
    {
        final Bytes<?> bytes = dc.wire().bytes();
        if (batch.wrap(bytes))
        {
            while (batch.next())
            {
                read(bytes, offsets.offset(dc.index(), batch.slot()));
            }
            batch.end();
        }
        else
        {
            read(bytes, offsets.offset(dc.index(), 0));
        }
    }

    /** Count one document (or batch entry) and learn the strings it defines. */
    private void read(final Bytes<?> bytes, final long offset)
    {
        tally.count(bytes, offset, shape.baseLength(), eventsQueue);
        if (bytes.readRemaining() > shape.baseLength() && definition.wrap(bytes) && definition.hasKey())
        {
            define(offset);
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
        if (tailer != null)
        {
            tailer.close();
        }
        if (ownsQueue)
        {
            queue.close();
        }
    }
}
