package dev.weir.journal;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.collections.IntArrayList;

import dev.weir.journal.codec.EventEncoder;
import dev.weir.journal.codec.EventShape;
import dev.weir.journal.codec.Heartbeat;
import dev.weir.journal.codec.IngestStartEncoder;
import dev.weir.journal.codec.RejectedLineEncoder;
import dev.weir.journal.codec.TableRowEncoder;
import dev.weir.journal.schema.StringFormat;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.KeyFormat;
import dev.weir.journal.schema.StringFormat;

/**
 * The append side of the event journal: the offset log.
 * <p>
 * Each {@link #append} writes one fixed-layout document ({@link EventEncoder}, in the {@link EventShape}
 * of the journal's {@link JournalSchema}) to the journal's {@code events} Chronicle Queue and returns its
 * offset ({@link JournalDirectory#offsets()}: the queue index in a journal of marker versions 2 to 4, the index shifted
 * left 6 bits in one of batched documents): offsets grow in append order and survive restarts. A bulk load adds its
 * events to the {@link EventBatch} of {@link #batch()}, which writes up to 64 of them to one document; a single append
 * writes its document at once, as before. A whole event is appended
 * as an {@link EventRow} ({@link #row()}, {@link #append(EventRow)}); in the default schema
 * ({@code key:string,value:long}) also by key and value, as before schemas ({@link #append(long, long, String, long)}).
 * Each string column's values are interned in its {@link KeyDictionary} ({@link #stringId}, {@link #keyId});
 * the first event of a value carries its string in the same document, so every id in the log can be mapped
 * back to its string by any later reader ({@link StringDictionaries}), whenever the writer died.
 * <p>
 * In a journal that gained columns ({@link JournalDirectory#openOrCreate(java.nio.file.Path, JournalSchema, JournalRollCycle)}),
 * every event is appended with every column of its latest schema (the schema the journal's marker has when this
 * opens, even if the {@link JournalDirectory} given was opened before it gained columns). In a journal created with
 * the default schema, the key-and-value methods still append: their events get the added columns' defaults, as
 * an older writer's do.
 * <p>
 * Appending known ids allocates nothing. Not thread-safe: one owner thread appends. One appender
 * at a time, in any process, may append to a journal: an {@code EventJournal} holds the journal's
 * {@code events.lock} (see {@link AppendLock}) from opening to {@link #close()}, and opening a second
 * one while it is held throws {@link JournalRefusedException}.
 * <p>
 * Rows of the journal's reference tables are appended by the {@link TableAppender} of each table ({@link #table(String)}),
 * with the same appending thread and lock. A journal made by a table's ingest whose events' columns are not fixed yet
 * ({@link JournalDirectory#eventsPending()}) takes table rows, ingest records and heartbeats, and refuses events.
 * <p>
 * It counts what it appends, and {@link #close()} writes the journal's {@link DictionarySnapshot} (its
 * string dictionaries and counts as of its last document), so that the next open of the journal scans only
 * what is appended after it.
 */
public final class EventJournal implements AutoCloseable
{
    /** The column of a key of the default schema's key dictionary in a list of (column, id) marks. */
    static final int KEY_MARK = -1;

    /**
     * The latest event time accepted, 2^62 ms (about 146 million years): far enough from
     * {@link Long#MAX_VALUE} that window ends, lateness and the watermark never overflow.
     */
    public static final long MAX_EVENT_TIME = 1L << 62;

    /** An upper bound of a document's bytes besides its strings, in the default shape. */
    private static final int EVENT_BYTES = 64;

    private final JournalDirectory directory;
    /** How offsets map to the events queue's documents. */
    private final JournalOffsets offsets;
    private final EventShape shape;
    private final SingleChronicleQueue queue;
    private final ExcerptAppender appender;
    private final StringDictionaries strings;
    /** The dictionary of each string column, by column index; null for the others. */
    private final KeyDictionary[] dictionaries;
    private final KeyDictionary keys;
    private final AppendLock lock;
    private final AppendReserve reserve;
    private final EventEncoder encoder;
    private final EventRow row;
    /** An upper bound of a row's document bytes besides its strings. */
    private final int rowBytes;
    private final IngestStartEncoder ingestStart = new IngestStartEncoder();
    private final RejectedLineEncoder rejectedLine = new RejectedLineEncoder();
    private final JournalTally tally;
    /** The appender of each table, by table index, made on first use. */
    private final TableAppender[] tables;
    /** The bulk appender ({@link #batch()}). */
    private final EventBatch batch;
    /** The cycle of the last append, or {@link Integer#MIN_VALUE}. */
    private int appendCycle = Integer.MIN_VALUE;
    /** The pretoucher started by {@link #pretouch(long)}, or null. */
    private JournalPretoucher pretoucher;
    /** The offset through which {@link #sync()} forced the queue, or {@link Long#MIN_VALUE}. */
    private long syncedThrough = Long.MIN_VALUE;

    private EventJournal(final JournalDirectory opened)
    {
        this.lock = AppendLock.acquire(opened, opened.root(), "events");
        try
        {
            // columns added since the directory was opened (they cannot be while the lock is held): append with them
            this.directory = opened.latest();
            this.queue = JournalQueues.open(directory, directory.eventsQueue());
        }
        catch (final RuntimeException ex)
        {
            lock.close();
            throw ex;
        }
        this.shape = EventShape.of(directory.schema());
        this.encoder = new EventEncoder(shape);
        this.row = new EventRow(shape);
        this.rowBytes = Math.max(EVENT_BYTES, shape.length() + 32);
        this.strings = StringDictionaries.over(directory, queue, shape);
        this.tally = strings.tally();
        this.dictionaries = new KeyDictionary[shape.columns()];
        for (int s = 0; s < shape.stringColumns(); s++)
        {
            dictionaries[shape.stringColumn(s)] = strings.dictionary(shape.stringColumn(s));
        }
        this.keys = strings.keyDictionary();
        this.appender = queue.createAppender();
        this.reserve = new AppendReserve(directory.eventsQueue());
        this.tables = new TableAppender[directory.tables().size()];
        this.offsets = directory.offsets();
        this.batch = new EventBatch(this, offsets.batched());
    }

    /**
     * @return this journal's bulk appender: events added to it are written several to a document (in a journal of
     *         batched documents, {@link JournalOffsets#SLOTTED}), flushed when full, and before any other document
     *         this journal appends ({@link #append}, an ingest start, a rejected line, a heartbeat, a table row), at
     *         {@link #sync()}, {@link #snapshot()} and {@link #close()}; one per journal, owned by the appending thread.
     */
    public EventBatch batch()
    {
        return batch;
    }

    /**
     * @param name a table of the journal ({@link JournalDirectory#tables()}, as of when this opened: a table cannot be
     *             added while it is open).
     * @return the appender of its rows, one per table and journal.
     * @throws IllegalArgumentException if the journal has no such table.
     */
    public TableAppender table(final String name)
    {
        for (int t = 0; t < tables.length; t++)
        {
            final dev.weir.journal.schema.TableDefinition definition = directory.tables().get(t);
            if (definition.name().equals(name))
            {
                if (tables[t] == null)
                {
                    tables[t] = new TableAppender(this, t, definition);
                }
                return tables[t];
            }
        }
        throw new IllegalArgumentException("journal " + directory + " has no table '" + name + "'" + (tables.length == 0 ? ""
            : ": its tables are " + directory.tables().stream().map(dev.weir.journal.schema.TableDefinition::name).toList()));
    }

    /**
     * Write one table row ({@link TableAppender}): a tombstone's non-key columns as 0 and "".
     *
     * @param line the input line, or -1.
     * @return its offset.
     */
    long appendTableRow(final TableRowEncoder encoder, final TableRow row, final boolean[] key, final boolean tombstone, final long line)
    {
        long textBytes = 0;
        for (int column = 0; column < row.columns(); column++)
        {
            if (row.isString(column))
            {
                if (key[column] && row.string(column).length() == 0)
                {
                    throw new IllegalArgumentException("table " + row.definition().name() + ": key column "
                        + row.definition().columns().column(column).name() + " is not set");
                }
                textBytes += 2 + StringFormat.utf8Length(row.string(column));
            }
        }
        batch.flush();
        try
        {
            try (DocumentContext dc = appender.writingDocument())
            {
                reserve.before(dc, appender, rowBytes + 8L * row.columns() + textBytes);
                encoder.wrap(dc.wire().bytes(), tombstone, row.validFrom());
                for (int column = 0; column < row.columns(); column++)
                {
                    if (!row.isString(column))
                    {
                        encoder.longColumn(column, tombstone && !key[column] ? 0 : row.longColumn(column));
                    }
                }
                for (int column = 0; column < row.columns(); column++)
                {
                    if (row.isString(column))
                    {
                        encoder.text(tombstone && !key[column] ? "" : row.string(column));
                    }
                }
                if (line >= 0)
                {
                    encoder.line(line);
                }
            }
        }
        catch (final RuntimeException ex)
        {
            throw directory.rollCycle().translateAppendFailure(ex, directory);
        }
        final long offset = rolled(appender.lastIndexAppended());
        tally.tableRow(offset);
        return offset;
    }

    /**
     * Open a journal for appending, creating it if the directory is missing or empty.
     *
     * @param directory the journal directory.
     * @return the journal.
     * @throws JournalRefusedException if the directory is not a Weir journal, or another appender has it open.
     */
    public static EventJournal openOrCreate(final java.nio.file.Path directory)
    {
        return new EventJournal(JournalDirectory.openOrCreate(directory));
    }

    /**
     * Open a journal of a given schema for appending, creating it if the directory is missing or empty.
     *
     * @param directory the journal directory.
     * @param schema    the schema its events must have (see {@link JournalDirectory#openOrCreate(java.nio.file.Path, JournalSchema)}).
     * @return the journal.
     * @throws JournalRefusedException if the directory is not a Weir journal, is one of another schema, or
     *                                 another appender has it open.
     */
    public static EventJournal openOrCreate(final java.nio.file.Path directory, final JournalSchema schema)
    {
        return new EventJournal(JournalDirectory.openOrCreate(directory, schema));
    }

    /**
     * Open a journal of a given schema and roll cycle for appending, creating it with them if the directory is
     * missing or empty.
     *
     * @param directory the journal directory.
     * @param schema    the schema its events must have, or null for any (see
     *                  {@link JournalDirectory#openOrCreate(java.nio.file.Path, JournalSchema, JournalRollCycle)}).
     * @param rollCycle the roll cycle it must have, or null for any ({@link JournalRollCycle#DEFAULT} for a new one).
     * @return the journal.
     * @throws JournalRefusedException if the directory is not a Weir journal, is one of another schema or roll
     *                                 cycle, or another appender has it open.
     */
    public static EventJournal openOrCreate(final java.nio.file.Path directory, final JournalSchema schema, final JournalRollCycle rollCycle)
    {
        return new EventJournal(JournalDirectory.openOrCreate(directory, schema, rollCycle));
    }

    /**
     * Open a journal for appending.
     *
     * @param directory the journal directory.
     * @return the journal.
     * @throws JournalRefusedException if another appender has it open.
     */
    public static EventJournal open(final JournalDirectory directory)
    {
        return new EventJournal(directory);
    }

    /**
     * Append one event to a journal of the default schema.
     *
     * @param eventId   the event's id.
     * @param eventTime the event's time, epoch ms, &gt;= 0.
     * @param key       the event's key, valid under {@link KeyFormat}.
     * @param value     the event's value.
     * @return the offset of the appended event.
     * @throws IllegalArgumentException if the time is negative or the key invalid.
     * @throws IllegalStateException if the journal was not created with the default schema.
     */
    public long append(final long eventId, final long eventTime, final String key, final long value)
    {
        requireDefault();
        return append(eventId, eventTime, keys.intern(key), value);
    }

    /**
     * Append one event whose key is already interned to a journal of the default schema. Allocates nothing.
     *
     * @param eventId   the event's id.
     * @param eventTime the event's time, epoch ms, &gt;= 0.
     * @param keyId     an id returned by {@link #keyId(String)}.
     * @param value     the event's value.
     * @return the offset of the appended event.
     * @throws IllegalArgumentException if the time is negative or the key id unknown.
     * @throws IllegalStateException if the journal was not created with the default schema.
     */
    public long append(final long eventId, final long eventTime, final int keyId, final long value)
    {
        requireDefault();
        return write(eventId, eventTime, keyId, value, -1, -1);
    }

    /**
     * Append one event read from line {@code line} of the source of the current ingest (see
     * {@link #appendIngestStart}): the event carries its line number, so that the ingest's progress is
     * told by its own documents only, whatever else is appended between two ingests.
     *
     * @param line      the input line the event came from, &gt;= 0.
     * @param eventId   the event's id.
     * @param eventTime the event's time, epoch ms, &gt;= 0.
     * @param key       the event's key, valid under {@link KeyFormat}.
     * @param value     the event's value.
     * @param unterminatedLength the line's length in bytes if it had no line terminator (the last line of
     *                  a source declared complete), recorded so that a later ingest can tell that it grew;
     *                  else -1.
     * @return the offset of the appended event.
     * @throws IllegalArgumentException if the time is negative or the key invalid.
     * @throws IllegalStateException if the journal was not created with the default schema.
     */
    public long appendIngested(
        final long line, final long eventId, final long eventTime, final String key, final long value, final long unterminatedLength)
    {
        requireDefault();
        if (line < 0)
        {
            throw new IllegalArgumentException("line must be >= 0: " + line);
        }
        return write(eventId, eventTime, keys.intern(key), value, line, unterminatedLength);
    }

    /**
     * Append one event read from line {@code line} of the source of the current ingest, as
     * {@link #appendIngested(long, long, long, String, long, long)} does, with its key already interned.
     * Allocates nothing.
     *
     * @param line      the input line the event came from, &gt;= 0.
     * @param eventId   the event's id.
     * @param eventTime the event's time, epoch ms, &gt;= 0.
     * @param keyId     an id returned by {@link #keyId(String)}.
     * @param value     the event's value.
     * @param unterminatedLength the line's length in bytes if it had no line terminator; else -1.
     * @return the offset of the appended event.
     * @throws IllegalArgumentException if the line or the time is negative or the key id unknown.
     * @throws IllegalStateException if the journal was not created with the default schema.
     */
    public long appendIngested(
        final long line, final long eventId, final long eventTime, final int keyId, final long value, final long unterminatedLength)
    {
        requireDefault();
        if (line < 0)
        {
            throw new IllegalArgumentException("line must be >= 0: " + line);
        }
        return write(eventId, eventTime, keyId, value, line, unterminatedLength);
    }

    /**
     * @return this journal's reusable row, to fill and hand to {@link #append(EventRow)} or
     *         {@link #appendIngested(EventRow, long, long)}; owned by the appending thread.
     */
    public EventRow row()
    {
        return row;
    }

    /**
     * Append one whole event. Allocates nothing when its string ids are known (each string is written with
     * the first event that uses its id).
     *
     * @param row this journal's {@link #row()}, with every field set since the last append.
     * @return the offset of the appended event.
     * @throws IllegalArgumentException if the time is out of range or a string id unknown.
     * @throws IllegalStateException if a field of the row was left unset.
     */
    public long append(final EventRow row)
    {
        return writeRow(row, -1, -1);
    }

    /**
     * Append one whole event read from line {@code line} of the source of the current ingest, as
     * {@link #appendIngested(long, long, long, String, long, long)} does for the default schema's events.
     *
     * @param row       this journal's {@link #row()}, with every field set since the last append.
     * @param line      the input line the event came from, &gt;= 0.
     * @param unterminatedLength the line's length in bytes if it had no line terminator (the last line of
     *                  a source declared complete); else -1.
     * @return the offset of the appended event.
     * @throws IllegalArgumentException if the line is negative, the time out of range or a string id unknown.
     * @throws IllegalStateException if a field of the row was left unset.
     */
    public long appendIngested(final EventRow row, final long line, final long unterminatedLength)
    {
        if (line < 0)
        {
            row.take();
            throw new IllegalArgumentException("line must be >= 0: " + line);
        }
        return writeRow(row, line, unterminatedLength);
    }

    private long writeRow(final EventRow row, final long line, final long unterminatedLength)
    {
        final long textBytes = checkRow(row);
        batch.flush();
        try
        {
            try (DocumentContext dc = appender.writingDocument())
            {
                reserve.before(dc, appender, rowBytes + Math.max(0, textBytes));
                encodeRow(dc.wire().bytes(), row, textBytes >= 0, line, unterminatedLength);
            }
        }
        catch (final RuntimeException ex)
        {
            throw directory.rollCycle().translateAppendFailure(ex, directory);
        }
        if (textBytes >= 0)
        {
            markRowWritten(row);
        }
        final long offset = rolled(appender.lastIndexAppended());
        tally.event(offset);
        return offset;
    }

    /**
     * Check a row before it is encoded (taking its fields).
     *
     * @return an upper bound of the bytes of the strings it defines, or -1 if it defines none.
     */
    long checkRow(final EventRow row)
    {
        requireEvents();
        if (row.shape() != shape)
        {
            throw new IllegalArgumentException("a row of " + row.schema() + " appended to a journal of " + shape.schema());
        }
        row.take();
        checkTime(row.eventTime());
        boolean anyNew = false;
        long textBytes = 0;
        for (int s = 0; s < shape.stringColumns(); s++)
        {
            final int column = shape.stringColumn(s);
            final KeyDictionary dictionary = dictionaries[column];
            final int id = row.stringId(column);
            if (id < 0 || id >= dictionary.size())
            {
                throw new IllegalArgumentException("unknown string id " + id + " in column " + shape.schema().column(column).name());
            }
            if (!dictionary.isWritten(id))
            {
                final String text = dictionary.name(id);
                if (text == null)
                {
                    throw new IllegalArgumentException("unknown string id " + id + " in column " + shape.schema().column(column).name());
                }
                anyNew = true;
                textBytes += textBytes(text);
            }
        }
        return anyNew ? textBytes : -1;
    }

    /** Encode a row ({@link #checkRow} first) at the write position of {@code out}. */
    void encodeRow(final net.openhft.chronicle.bytes.Bytes<?> out, final EventRow row, final boolean anyNew, final long line,
        final long unterminatedLength)
    {
        encoder.wrap(out, anyNew).eventId(row.eventId()).eventTime(row.eventTime());
        for (int column = 0; column < shape.columns(); column++)
        {
            if (shape.isString(column))
            {
                encoder.stringId(column, row.stringId(column));
            }
            else
            {
                encoder.longColumn(column, row.longColumn(column));
            }
        }
        if (anyNew)
        {
            for (int s = 0; s < shape.stringColumns(); s++)
            {
                final int column = shape.stringColumn(s);
                final KeyDictionary dictionary = dictionaries[column];
                if (!dictionary.isWritten(row.stringId(column)))
                {
                    encoder.text(dictionary.name(row.stringId(column)));
                }
            }
        }
        writeLine(encoder, line, unterminatedLength);
    }

    /** Mark the string ids of a row written, once its document (or batch entry) holds their strings. */
    void markRowWritten(final EventRow row)
    {
        for (int s = 0; s < shape.stringColumns(); s++)
        {
            final int column = shape.stringColumn(s);
            dictionaries[column].markWritten(row.stringId(column));
        }
    }

    /**
     * Mark the string ids of a row written, once a pending batch entry holds their strings, adding the (column, id)
     * pair of each one this marks to {@code marked}, so that {@link #unmarkWritten} can take them back.
     */
    void markRowWritten(final EventRow row, final IntArrayList marked)
    {
        for (int s = 0; s < shape.stringColumns(); s++)
        {
            final int column = shape.stringColumn(s);
            final int id = row.stringId(column);
            if (!dictionaries[column].isWritten(id))
            {
                dictionaries[column].markWritten(id);
                marked.addInt(column);
                marked.addInt(id);
            }
        }
    }

    /**
     * Take back the marks of strings whose defining document was never written (its write failed).
     *
     * @param marked (column, id) pairs, {@link #KEY_MARK} as the column for a key of the default schema.
     */
    void unmarkWritten(final IntArrayList marked)
    {
        for (int i = 0; i < marked.size(); i += 2)
        {
            final int column = marked.getInt(i);
            (column == KEY_MARK ? keys : dictionaries[column]).unmarkWritten(marked.getInt(i + 1));
        }
    }

    /** @return an upper bound of an event's bytes besides its strings. */
    int rowBytes()
    {
        return rowBytes;
    }

    /**
     * After an append: when it went to a new cycle, the dictionaries' scan lets go of the cycle it stands in (see
     * {@link StringDictionaries#releasePassedCycles()}), so a long-lived appender does not keep a cycle that
     * retention deleted. A shift and a compare per append; the release once per cycle.
     */
    private long rolled(final long index)
    {
        final int cycle = directory.rollCycle().cycleOf(index);
        if (cycle != appendCycle)
        {
            appendCycle = cycle;
            strings.releasePassedCycles();
        }
        return offsets.offset(index, 0);
    }

    /** Refuse an event in a journal whose events' columns are not fixed yet ({@link JournalDirectory#eventsPending()}). */
    private void requireEvents()
    {
        if (directory.eventsPending())
        {
            throw new IllegalStateException("journal " + directory + " holds tables only: its events' columns are not fixed yet;"
                + " open it with its events' columns (EventJournal.openOrCreate(directory, schema, rollCycle)) to append events");
        }
    }

    /** Refuse the key API's events in a journal not created with the default schema. */
    void requireDefaultSchema()
    {
        requireDefault();
    }

    private void requireDefault()
    {
        if (!shape.originalIsDefault())
        {
            throw new IllegalStateException("journal " + directory + " has the columns " + shape.schema()
                + ", not " + JournalSchema.DEFAULT + ": append its events as rows (row(), append(EventRow))");
        }
    }

    /** @return the event with the defaults of the columns a journal of the default schema gained (none if it gained none). */
    private EventEncoder withAddedDefaults(final EventEncoder event)
    {
        for (int column = shape.firstAdded(); column < shape.columns(); column++)
        {
            if (shape.isString(column))
            {
                event.stringId(column, 0); // an added string column's default is id 0
            }
            else
            {
                event.longColumn(column, shape.defaultOf(column));
            }
        }
        return event;
    }

    private static void checkTime(final long eventTime)
    {
        if (eventTime < 0 || eventTime > MAX_EVENT_TIME)
        {
            throw new IllegalArgumentException("event_time must be between 0 and " + MAX_EVENT_TIME + ": " + eventTime);
        }
    }

    private long write(final long eventId, final long eventTime, final int keyId, final long value, final long line, final long unterminatedLength)
    {
        final boolean newKey = checkKeyed(eventTime, keyId);
        batch.flush();
        try
        {
            try (DocumentContext dc = appender.writingDocument())
            {
                reserve.before(dc, appender, rowBytes + (newKey ? textBytes(keys.name(keyId)) : 0));
                encodeKeyed(dc.wire().bytes(), newKey, eventId, eventTime, keyId, value, line, unterminatedLength);
            }
        }
        catch (final RuntimeException ex)
        {
            throw directory.rollCycle().translateAppendFailure(ex, directory);
        }
        if (newKey)
        {
            keys.markWritten(keyId);
        }
        final long offset = rolled(appender.lastIndexAppended());
        tally.event(offset);
        return offset;
    }

    /**
     * Check an event of the default schema's key API before it is encoded.
     *
     * @return true if its key's string is to be written with it.
     */
    boolean checkKeyed(final long eventTime, final int keyId)
    {
        requireEvents();
        checkTime(eventTime);
        if (keyId < 0 || keyId >= keys.size())
        {
            throw new IllegalArgumentException("unknown key id " + keyId);
        }
        return !keys.isWritten(keyId);
    }

    /** Encode an event of the key API at the write position of {@code out} ({@link #checkKeyed} first). */
    void encodeKeyed(final net.openhft.chronicle.bytes.Bytes<?> out, final boolean newKey, final long eventId, final long eventTime,
        final int keyId, final long value, final long line, final long unterminatedLength)
    {
        final EventEncoder event = withAddedDefaults(encoder.wrap(out, newKey).eventId(eventId).eventTime(eventTime).value(value).keyId(keyId));
        if (newKey)
        {
            event.key(keys.name(keyId));
        }
        writeLine(event, line, unterminatedLength);
    }

    /** @return the key dictionary, for the bulk appender. */
    KeyDictionary keyDictionary()
    {
        return keys;
    }

    /**
     * Write one document holding a batch's events ({@link EventBatch}).
     *
     * @return the offset of its slot 0.
     */
    long writeBatch(final dev.weir.journal.codec.EventBatchEncoder events)
    {
        try
        {
            try (DocumentContext dc = appender.writingDocument())
            {
                reserve.before(dc, appender, events.length());
                events.writeTo(dc.wire().bytes());
            }
        }
        catch (final RuntimeException ex)
        {
            throw directory.rollCycle().translateAppendFailure(ex, directory);
        }
        final long first = rolled(appender.lastIndexAppended());
        for (int slot = 0; slot < events.count(); slot++)
        {
            tally.event(first + slot);
        }
        return first;
    }

    /**
     * Write one event of a batch as a document of its own (a journal of single documents), copying its bytes.
     *
     * @return its offset.
     */
    long writeSingle(final dev.weir.journal.codec.EventBatchEncoder events, final int slot)
    {
        final long from = events.entryStart(slot);
        final int length = events.entryLength(slot);
        try
        {
            try (DocumentContext dc = appender.writingDocument())
            {
                reserve.before(dc, appender, length);
                dc.wire().bytes().write(events.bytes(), from, length);
            }
        }
        catch (final RuntimeException ex)
        {
            throw directory.rollCycle().translateAppendFailure(ex, directory);
        }
        final long offset = rolled(appender.lastIndexAppended());
        tally.event(offset);
        return offset;
    }

    private static void writeLine(final EventEncoder event, final long line, final long unterminatedLength)
    {
        if (line >= 0)
        {
            event.line(line);
            if (unterminatedLength >= 0)
            {
                event.unterminatedLength(unterminatedLength);
            }
        }
    }

    /**
     * Mark the start of an ingest of {@code source} at line {@code firstLine}: the lines that follow are
     * appended with {@link #appendIngested} and {@link #appendRejected}, in order, each carrying its line
     * number; other events appended before the next ingest start are no lines of it.
     *
     * @param source    the identity of the source.
     * @param firstLine the line number of the next line to be appended.
     * @return the offset of the marker.
     */
    public long appendIngestStart(final String source, final long firstLine)
    {
        batch.flush();
        try
        {
            try (DocumentContext dc = appender.writingDocument())
            {
                reserve.before(dc, appender, EVENT_BYTES + textBytes(source));
                ingestStart.wrap(dc.wire().bytes()).firstLine(firstLine).source(source);
            }
        }
        catch (final RuntimeException ex)
        {
            throw directory.rollCycle().translateAppendFailure(ex, directory);
        }
        final long offset = rolled(appender.lastIndexAppended());
        tally.ingest(offset);
        return offset;
    }

    /**
     * Record a line that is not a valid event, in order with the events.
     *
     * @param line    its line number.
     * @param reason  why it was rejected.
     * @param content the line as read.
     * @return the offset of the record.
     */
    public long appendRejected(final long line, final String reason, final String content)
    {
        return appendRejected(line, reason, content, -1);
    }

    /**
     * Record a line that is not a valid event, in order with the events.
     *
     * @param line    its line number.
     * @param reason  why it was rejected.
     * @param content the line as read.
     * @param unterminatedLength its length in bytes if it had no line terminator (see
     *                {@link #appendIngested}), else -1.
     * @return the offset of the record.
     */
    public long appendRejected(final long line, final String reason, final String content, final long unterminatedLength)
    {
        batch.flush();
        try
        {
            try (DocumentContext dc = appender.writingDocument())
            {
                reserve.before(dc, appender, EVENT_BYTES + 20 + textBytes(reason) + textBytes(content));
                rejectedLine.wrap(dc.wire().bytes()).line(line).reason(reason).content(content).unterminatedLength(unterminatedLength);
            }
        }
        catch (final RuntimeException ex)
        {
            throw directory.rollCycle().translateAppendFailure(ex, directory);
        }
        final long offset = rolled(appender.lastIndexAppended());
        tally.rejected(offset);
        return offset;
    }

    /**
     * Append a heartbeat ({@link Heartbeat}): no event, but a pipeline reading the journal advances its
     * watermark at this offset as an event of {@code eventTime} would (never backwards), and fires the
     * windows that completes. Not counted, windowed or deduped; an ingest's line accounting skips it.
     * Allocates nothing.
     *
     * @param eventTime the event time, epoch ms, between 0 and {@link #MAX_EVENT_TIME}.
     * @return the offset of the heartbeat.
     * @throws IllegalArgumentException if the time is out of range.
     */
    public long appendHeartbeat(final long eventTime)
    {
        batch.flush();
        final long offset = rolled(writeHeartbeat(directory, appender, reserve, eventTime));
        tally.heartbeat(offset);
        return offset;
    }

    /**
     * Write one heartbeat with an appender of the events queue, as its owner thread (the caller holds the
     * journal's appender lock).
     *
     * @return the queue index of its document (its offset is {@code directory.offsets().offset(index, 0)}).
     */
    static long writeHeartbeat(final JournalDirectory directory, final ExcerptAppender appender, final AppendReserve reserve,
        final long eventTime)
    {
        checkTime(eventTime);
        try
        {
            try (DocumentContext dc = appender.writingDocument())
            {
                reserve.before(dc, appender, EVENT_BYTES);
                Heartbeat.write(dc.wire().bytes(), eventTime, System.currentTimeMillis());
            }
        }
        catch (final RuntimeException ex)
        {
            throw directory.rollCycle().translateAppendFailure(ex, directory);
        }
        return appender.lastIndexAppended();
    }

    /**
     * Force the events and keys to disk, so they survive a machine crash (a process crash loses
     * nothing already appended). Milliseconds: call it at batch boundaries, not per event.
     */
    public void sync()
    {
        batch.flush();
        QueueSync.force(queue);
        syncedThrough = tally.countedThrough();
    }

    /**
     * Intern a key of a journal of the default schema, defining it durably with its first event.
     *
     * @param key a key valid under {@link KeyFormat}.
     * @return its dense id, usable with {@link #append(long, long, int, long)}.
     * @throws IllegalStateException if the journal was not created with the default schema.
     */
    public int keyId(final String key)
    {
        requireDefault();
        return keys.intern(key);
    }

    /**
     * Intern a value of a string column, defining it durably with the next event that uses it. Allocates
     * nothing for a value already interned.
     *
     * @param column the index of a string column.
     * @param text   a value valid under {@link StringFormat} ({@link KeyFormat} in the default schema's {@code key} column).
     * @return its dense id in that column, for {@link EventRow#setString}.
     * @throws IllegalArgumentException if the column is not a string column or the value is not valid
     *                                  (e.g. {@code string over 256 bytes in column merchant}).
     */
    public int stringId(final int column, final String text)
    {
        return dictionary(column).intern(text);
    }

    /**
     * @param column the index of a string column.
     * @return its dictionary (owned by the appending thread).
     * @throws IllegalArgumentException if the column is not a string column.
     */
    public KeyDictionary dictionary(final int column)
    {
        return strings.dictionary(column);
    }

    /**
     * @return the dictionaries of every string column this journal interns into (owned by the appending thread).
     */
    public StringDictionaries dictionaries()
    {
        return strings;
    }

    /**
     * @return the key dictionary this journal interns into (owned by the appending thread): the {@code key}
     *         column's in the default schema, else the first string column's (see {@link StringDictionaries#keyDictionary()}).
     */
    public KeyDictionary keys()
    {
        return keys;
    }

    /**
     * @return the schema of the journal's events.
     */
    public JournalSchema schema()
    {
        return shape.schema();
    }

    /**
     * @return the journal directory.
     */
    public JournalDirectory directory()
    {
        return directory;
    }

    /**
     * Force the journal to disk, then write its dictionary snapshot ({@code dictionaries.snapshot}: every
     * string column's ids and the document counts as of its last document) now rather than at
     * {@link #close()}: for an appender that runs for long, and before old roll cycles are deleted (a snapshot
     * written here holds across a restart of the machine). Milliseconds and more (the fsync, and a file of
     * every string): not on the hot path. Owner thread only.
     *
     * @throws java.io.UncheckedIOException if the snapshot cannot be written (the previous one is left as it was).
     */
    public void snapshot()
    {
        sync();
        strings.writeSnapshot(true);
    }

    /**
     * Write the journal's dictionary snapshot as of its last document, while this appender holds the lock
     * (so no document can follow it meanwhile). If the queue was not forced to disk through that document,
     * the snapshot is marked with this machine's boot id and ignored after a restart of the machine (whose
     * crash could have lost the documents it covers); where the boot id is unknown, the queue is forced
     * first. A snapshot that cannot be written is not an error: the next open scans more.
     */
    private void writeSnapshot()
    {
        try
        {
            boolean synced = syncedThrough >= tally.countedThrough();
            if (!synced && DictionarySnapshot.bootId().isEmpty())
            {
                QueueSync.force(queue);
                synced = true;
            }
            strings.writeSnapshot(synced);
        }
        catch (final RuntimeException notWritten) // a cache: the events queue stays the truth
        {
            // the previous snapshot, if any, still holds for the documents it covers
        }
    }

    /**
     * Start touching the events queue's pages ahead of this journal's appender from a daemon thread (see
     * {@link JournalPretoucher}), so that appends meet fewer page faults. It never changes the journal's
     * bytes and adds nothing to the append path. It runs until {@link #close()}, which stops it first.
     * Call it from the owner thread, at most once.
     *
     * @param aheadBytes how far past the write position to touch, from a page (4096) to
     *                   {@link JournalPretoucher#MAX_AHEAD_BYTES}.
     * @return the running pretoucher, for its counters; closing it early stops it.
     * @throws IllegalStateException    if one was started already.
     * @throws IllegalArgumentException if {@code aheadBytes} is out of range.
     */
    public JournalPretoucher pretouch(final long aheadBytes)
    {
        if (pretoucher != null)
        {
            throw new IllegalStateException("a pretoucher is running already");
        }
        pretoucher = JournalPretoucher.start(queue, aheadBytes, "weir-pretouch-" + directory.root().getFileName());
        return pretoucher;
    }

    /** Writes the journal's dictionary snapshot (see the class comment), then releases the journal. */
    @Override
    public void close()
    {
        try
        {
            RuntimeException unflushed = null;
            try
            {
                batch.flush();
            }
            catch (final RuntimeException ex) // the events it held are lost, as a crash would lose them: close the rest
            {
                unflushed = ex;
            }
            batch.close();
            if (pretoucher != null)
            {
                pretoucher.close();
            }
            writeSnapshot();
            reserve.close();
            strings.close();
            queue.close();
            if (unflushed != null)
            {
                throw unflushed;
            }
        }
        finally
        {
            lock.close();
        }
    }

    /** @return an upper bound of a string's bytes in a document (UTF-8 and its length prefix). */
    private static long textBytes(final String s)
    {
        return 8 + 3L * s.length();
    }
}
