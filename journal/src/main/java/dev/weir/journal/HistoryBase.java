package dev.weir.journal;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import dev.weir.journal.codec.EventBatchDecoder;
import dev.weir.journal.codec.EventDecoder;
import dev.weir.journal.codec.EventShape;
import dev.weir.journal.codec.Heartbeat;
import dev.weir.journal.codec.IngestStartDecoder;
import dev.weir.journal.codec.RejectedLineDecoder;
import dev.weir.journal.codec.DocumentType;
import dev.weir.journal.codec.StringDefinitions;
import dev.weir.journal.codec.TableRowDecoder;
import dev.weir.journal.files.BinaryFields;
import dev.weir.journal.files.ChecksummedFile;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.NewerFormatException;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.journal.schema.TableRowView;

/**
 * What the removed start of a journal's events queue defined, kept in the file {@code history.base} of the
 * journal's root so that the journal still opens, and reads exactly as before, once retention has removed
 * whole old roll cycles. It holds, as of its <em>first offset</em> B (every document before B is removed or
 * about to be): the document counts before B, every string column's dictionary defined before B, each source's
 * ingest progress before B and the ingest block open at B, the key-tuple tables before B of the key-column sets
 * it was given, the table rows before B, and what was removed.
 * <p>
 * Table rows: every table row (tombstones included) of the removed documents, in journal order, each with its
 * original offset and its document's bytes as written, so that a key whose only row was removed still joins; of the
 * rows of one table, key and valid-from time only the last appended is kept (it is the one a join takes).
 * {@link JournalReader} hands them to {@link EventViewConsumer#onTableRow} before the first document from B on.
 * <p>
 * Unlike {@link DictionarySnapshot} (a cache), the base is <em>required</em> once present: readers start from it
 * and never read a document before B, even if its file still exists. A base that is torn, corrupt, of another
 * version, journal or schema is refused ({@link JournalRefusedException}), never ignored; one of a version above
 * {@value #VERSION} was written by a newer Weir and is refused with {@link NewerFormatException}.
 * <p>
 * Key tuples: a key-column set with a table in the base is numbered from the journal's first event, as without
 * a base. A set without one is numbered from the base's first offset B: by {@link KeyTuples#readBefore} and
 * {@link KeyTupleReader} alike, and by {@link #advance} when it first builds a table for it (from the old base's
 * B). So every key-column set in use must be passed to every {@link #advance}; a set passed once is kept for good.
 * <p>
 * Layout (big-endian), version 2 when removed cycles held table rows, else version 1, which is the same without the
 * table rows' count and section (so a journal that never had tables stays readable by a Weir before them):
 * <pre>
 * magic "WEIRBASE" (8 bytes), version int32 (2),
 * journal id: int32 length + UTF-8; schema: int32 length + UTF-8 (e.g. key:string,value:long; with defaults once
 *   the journal gained columns; a base written before it gained them still holds),
 * first offset B int64,
 * removed: last removed offset int64 (-1 if none), greatest event time of a removed event int64 (-1 if none),
 *   removed documents int64, removed bytes int64 (both cumulative), archive: int8 1 + int32 length + UTF-8 path
 *   of the directory the cycles were moved to, or int8 0 if they were deleted,
 * counts before B: 8 × int64 (as {@link DictionarySnapshot}'s: events, rejected lines, ingest starts, heartbeats,
 *   first document offset, last document offset, first event offset, last event offset; -1 for an offset when none),
 *   then int64 the number of table rows held,
 * dictionaries: int32 number of string columns, per column: int32 column index, int32 number of entries, per
 *   entry int32 id, int32 length + UTF-8 text ({@link BinaryFields#writeDictionaries}),
 * ingests: int32 number of sources (in order of their latest ingest start), per source: int32 length + UTF-8
 *   source, int64 next line, int64 unterminated line, int64 its bytes (both -1 if none); then the block open at B:
 *   int8 1 + int32 length + UTF-8 source + int64 next line + int8 lines tagged, or int8 0 if none,
 * key tuples: int32 number of tables, per table: int32 arity, arity × int32 column, int32 number of tuples,
 *   tuples × arity × int64 components (a string column's id, a long or decimal column's unscaled value), in id order,
 * table rows: int32 number of rows, per row in offset order: int64 its original offset, int32 length + the bytes of its
 *   {@link DocumentType#TABLE_ROW} document as written (little-endian inside, as in the queue),
 * trailer: int32 CRC-32 of every byte before it.
 * </pre>
 * Written to {@code history.base.tmp}, forced, renamed over the previous one, directory forced.
 * Immutable once read; the static methods are thread-safe, but only one process may {@link #advance} a journal
 * at a time.
 */
public final class HistoryBase
{
    /** The base's file name in the journal's root. */
    public static final String FILE = "history.base";
    private static final long MAGIC = 0x5745495242415345L; // "WEIRBASE"
    /** The format version this build writes, and the newest it reads. */
    static final int VERSION = 2;
    /** The format version before table rows, still read. */
    static final int VERSION_WITHOUT_TABLE_ROWS = 1;

    final String journalId;
    final String schema;
    final long first;
    final long lastRemoved;
    final long maxRemovedEventTime;
    final long removedDocuments;
    final long removedBytes;
    final String archive;
    final long[] counts;
    /** Per string column: id to text. */
    final TreeMap<Integer, TreeMap<Integer, String>> dictionaries;
    /** Per source, in order of its latest ingest start: {next line, unterminated line, its bytes}. */
    final LinkedHashMap<String, long[]> sources;
    final String openSource;
    final long openNext;
    final boolean openTagged;
    /** The key-tuple tables: columns, then flat components. */
    final List<int[]> tupleColumns;
    final List<long[]> tupleComponents;
    /** The table rows held: their original offsets, ascending, and their documents' bytes. */
    final long[] rowOffsets;
    final List<byte[]> rowDocuments;
    /** The number of table rows held (read from the header even when the rows are not decoded). */
    final long rowCount;

    HistoryBase(
        final String journalId, final String schema, final long first, final long lastRemoved, final long maxRemovedEventTime,
        final long removedDocuments, final long removedBytes, final String archive, final long[] counts,
        final TreeMap<Integer, TreeMap<Integer, String>> dictionaries, final LinkedHashMap<String, long[]> sources,
        final String openSource, final long openNext, final boolean openTagged, final List<int[]> tupleColumns,
        final List<long[]> tupleComponents)
    {
        this(journalId, schema, first, lastRemoved, maxRemovedEventTime, removedDocuments, removedBytes, archive, counts, dictionaries,
            sources, openSource, openNext, openTagged, tupleColumns, tupleComponents, new long[0], List.of(), 0);
    }

    HistoryBase(
        final String journalId, final String schema, final long first, final long lastRemoved, final long maxRemovedEventTime,
        final long removedDocuments, final long removedBytes, final String archive, final long[] counts,
        final TreeMap<Integer, TreeMap<Integer, String>> dictionaries, final LinkedHashMap<String, long[]> sources,
        final String openSource, final long openNext, final boolean openTagged, final List<int[]> tupleColumns,
        final List<long[]> tupleComponents, final long[] rowOffsets, final List<byte[]> rowDocuments, final long rowCount)
    {
        this.rowOffsets = rowOffsets;
        this.rowDocuments = rowDocuments;
        this.rowCount = rowCount;
        this.journalId = journalId;
        this.schema = schema;
        this.first = first;
        this.lastRemoved = lastRemoved;
        this.maxRemovedEventTime = maxRemovedEventTime;
        this.removedDocuments = removedDocuments;
        this.removedBytes = removedBytes;
        this.archive = archive;
        this.counts = counts;
        this.dictionaries = dictionaries;
        this.sources = sources;
        this.openSource = openSource;
        this.openNext = openNext;
        this.openTagged = openTagged;
        this.tupleColumns = tupleColumns;
        this.tupleComponents = tupleComponents;
    }

    /**
     * What a journal's history base says was removed, for {@code weir inspect} and refusals.
     *
     * @param firstOffset         B: the oldest offset a reader can start at.
     * @param lastRemovedOffset   the offset of the last removed document, or -1.
     * @param maxRemovedEventTime the greatest event time of a removed event, or -1 if none was an event.
     * @param removedDocuments    documents removed, over every retention step.
     * @param removedBytes        bytes of cycle files removed, over every retention step.
     * @param archive             the directory the removed cycles were moved to, or null if they were deleted.
     * @param countsBefore        the counts of the documents before B.
     */
    public record Summary(
        long firstOffset, long lastRemovedOffset, long maxRemovedEventTime, long removedDocuments, long removedBytes,
        Path archive, IngestLog.Counts countsBefore)
    {
    }

    /**
     * @param directory a journal.
     * @return what its history base says, or empty if it has none.
     * @throws JournalRefusedException if it has one that is corrupt or of another journal.
     */
    public static Optional<Summary> read(final JournalDirectory directory)
    {
        final HistoryBase base = load(directory, false);
        return base == null ? Optional.empty() : Optional.of(base.summary());
    }

    Summary summary()
    {
        final JournalTally tally = new JournalTally();
        tally.restore(counts, first - 1);
        return new Summary(first, lastRemoved, maxRemovedEventTime, removedDocuments, removedBytes,
            archive == null ? null : Path.of(archive), tally.counts().withTableRows(rowCount));
    }

    /** @return true if it holds table rows. */
    boolean hasTableRows()
    {
        return rowCount > 0;
    }

    /**
     * Hand each table row held, in journal order, with its original offset.
     *
     * @param tables   the journal's tables (as its marker has them: every table of a row held).
     * @param consumer receives each row, valid during the call, and its offset.
     */
    void tableRows(final List<TableDefinition> tables, final java.util.function.ObjLongConsumer<TableRowView> consumer)
    {
        final TableRowDecoder decoder = new TableRowDecoder(tables);
        for (int r = 0; r < rowOffsets.length; r++)
        {
            decoder.wrap(Bytes.wrapForRead(rowDocuments.get(r)));
            consumer.accept(decoder, rowOffsets[r]);
        }
    }

    /**
     * Move a journal's history base on to {@code newFirstOffset}: read the current base (if any), scan the events
     * queue from its first offset (or the queue's start) to {@code newFirstOffset} exclusive with one tailer, and
     * write the new base atomically. Call it before removing the cycles wholly before {@code newFirstOffset}. Reads
     * only documents before {@code newFirstOffset}, so another process may append meanwhile; they must already be
     * in the queue.
     *
     * @param opened         the journal (as its marker has it now: a column added since it was opened is read too).
     * @param newFirstOffset the first offset to keep: a document's offset, or the queue's next offset.
     * @param keyColumnSets  the key-column sets in use (each a list of column indexes, in key order); those of the
     *                       old base are kept whether passed or not.
     * @param removedBytes   the bytes of the cycle files this step removes (added to the old base's).
     * @param archiveDir     the directory the cycles are moved to, or null if they are deleted.
     * @return the new base's summary.
     * @throws IllegalArgumentException if {@code newFirstOffset} is before the current base's first offset.
     * @throws UncheckedIOException if the base cannot be written (the old one is then left as it was).
     */
    public static Summary advance(
        final JournalDirectory opened, final long newFirstOffset, final List<int[]> keyColumnSets, final long removedBytes,
        final Path archiveDir)
    {
        final JournalDirectory directory = opened.latest(); // every column the documents before newFirstOffset may have
        final HistoryBase old = load(directory);
        if (old != null && newFirstOffset < old.first)
        {
            throw new IllegalArgumentException("the history base of " + directory + " is at offset " + old.first + ", after " + newFirstOffset);
        }
        final HistoryScan scan = new HistoryScan(directory, old, keyColumnSets);
        try (SingleChronicleQueue queue = JournalQueues.open(directory, directory.eventsQueue());
             ExcerptTailer tailer = queue.createTailer())
        {
            moveTo(tailer, old == null ? Long.MIN_VALUE : old.first, directory.offsets());
            scan.documents(tailer, newFirstOffset);
        }
        final HistoryBase base = scan.base(directory, newFirstOffset, removedBytes + (old == null ? 0 : old.removedBytes),
            archiveDir == null ? null : archiveDir.toString());
        try
        {
            base.write(file(directory));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file(directory), ex);
        }
        return base.summary();
    }

    /**
     * Give a new journal, whose events queue holds no document yet, the strings another journal defined: a base at
     * offset 0 that removed nothing and holds these dictionaries, so that this journal resolves and interns those
     * strings under the same ids. How a partition's journal is rebuilt on another machine from a checkpoint (whose
     * state refers to strings by id) and the events after it.
     *
     * @param directory    a journal with no base and an empty events queue.
     * @param dictionaries column index to (id to string), as {@link StringDictionaries#definitions()} gives them.
     * @throws IllegalStateException if the journal has a base or a document already.
     * @throws UncheckedIOException  if the base cannot be written.
     */
    public static void seed(final JournalDirectory directory, final SortedMap<Integer, ? extends SortedMap<Integer, String>> dictionaries)
    {
        seed(directory, dictionaries, null, new long[0]);
    }

    /**
     * {@link #seed(JournalDirectory, SortedMap)}, with the key tuples another journal numbered for one key-column set
     * too, so that this journal numbers those tuples under the same ids and a new one after them (a checkpoint's state
     * refers to a key of several columns, or of a long or decimal column, by tuple id).
     *
     * @param directory    a journal with no base and an empty events queue.
     * @param dictionaries column index to (id to string), as {@link StringDictionaries#definitions()} gives them.
     * @param keyColumns   the key columns the tuples are of, in key order, or null for none.
     * @param tuples       their components, flat in id order ({@link KeyTupleReader#tuplesThroughEnd()}).
     * @throws IllegalStateException if the journal has a base or a document already.
     * @throws UncheckedIOException  if the base cannot be written.
     */
    public static void seed(final JournalDirectory directory, final SortedMap<Integer, ? extends SortedMap<Integer, String>> dictionaries,
        final int[] keyColumns, final long[] tuples)
    {
        seed(directory, dictionaries, keyColumns, tuples, -1);
    }

    /**
     * {@link #seed(JournalDirectory, SortedMap, int[], long[])}, with the greatest event time the other journal had read
     * too, as the base's greatest removed event time: a join's horizon counts it as read
     * ({@link Summary#maxRemovedEventTime()}), as it counts the events of removed cycles.
     *
     * @param directory    a journal with no base and an empty events queue.
     * @param dictionaries column index to (id to string), as {@link StringDictionaries#definitions()} gives them.
     * @param keyColumns   the key columns the tuples are of, in key order, or null for none.
     * @param tuples       their components, flat in id order ({@link KeyTupleReader#tuplesThroughEnd()}).
     * @param maxEventTime the greatest event or heartbeat time read before, or -1 for none.
     * @throws IllegalStateException if the journal has a base or a document already.
     * @throws UncheckedIOException  if the base cannot be written.
     */
    public static void seed(final JournalDirectory directory, final SortedMap<Integer, ? extends SortedMap<Integer, String>> dictionaries,
        final int[] keyColumns, final long[] tuples, final long maxEventTime)
    {
        if (load(directory, false) != null)
        {
            throw new IllegalStateException("the journal " + directory.root() + " already has a history base");
        }
        try (SingleChronicleQueue queue = JournalQueues.open(directory, directory.eventsQueue());
             ExcerptTailer tailer = queue.createTailer())
        {
            try (DocumentContext dc = tailer.readingDocument())
            {
                if (dc.isPresent())
                {
                    throw new IllegalStateException("the journal " + directory.root() + " already holds documents");
                }
            }
        }
        final TreeMap<Integer, TreeMap<Integer, String>> copy = new TreeMap<>();
        dictionaries.forEach((column, entries) -> copy.put(column, new TreeMap<>(entries)));
        final long[] counts = new long[JournalTally.SIZE];
        Arrays.fill(counts, 4, JournalTally.SIZE, -1);
        final List<int[]> tupleColumns = new ArrayList<>();
        final List<long[]> tupleComponents = new ArrayList<>();
        if (keyColumns != null)
        {
            tupleColumns.add(keyColumns.clone());
            tupleComponents.add(tuples.clone());
        }
        final HistoryBase base = new HistoryBase(directory.journalId(), directory.schema().toString(), 0, -1, maxEventTime, 0, 0, null, counts,
            copy, new LinkedHashMap<>(), null, 0, false, tupleColumns, tupleComponents);
        try
        {
            base.write(file(directory));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file(directory), ex);
        }
    }

    /**
     * Compare this base with what a scan of another queue's documents before this base's first offset gives: the
     * same counts, first and last offsets, greatest event time, dictionaries and key tuples if that queue holds
     * exactly the documents this base says were removed (an archive of them, read back with the live cycles).
     * Public for the retention package's archive view; not a stable API.
     *
     * @param view a journal of the same schema and roll cycle whose events queue starts with the removed documents.
     * @return null if they match, else what differs (one phrase).
     */
    public String differenceFrom(final JournalDirectory view)
    {
        final HistoryScan scan = new HistoryScan(view, null, tupleColumns);
        try (SingleChronicleQueue queue = JournalQueues.open(view, view.eventsQueue());
             ExcerptTailer tailer = queue.createTailer())
        {
            tailer.toStart();
            scan.documents(tailer, first);
        }
        final HistoryBase read = scan.base(view, first, 0, null);
        if (read.removedDocuments != removedDocuments || read.lastRemoved != lastRemoved)
        {
            return "it holds " + read.removedDocuments + " documents before offset " + first + " (the last at " + read.lastRemoved
                + "), the journal removed " + removedDocuments + " (the last at " + lastRemoved + ")";
        }
        if (!Arrays.equals(read.counts, counts) || read.maxRemovedEventTime != maxRemovedEventTime || read.rowCount != rowCount)
        {
            return "its documents before offset " + first + " count or span differently from those the journal removed";
        }
        if (!read.dictionaries.equals(dictionaries))
        {
            return "its documents define other strings than those the journal removed";
        }
        for (int t = 0; t < tupleColumns.size(); t++)
        {
            if (!Arrays.equals(read.tupleComponents.get(t), tupleComponents.get(t)))
            {
                return "its documents hold other key tuples than those the journal removed";
            }
        }
        if (!Arrays.equals(read.rowOffsets, rowOffsets) || !Arrays.deepEquals(read.rowDocuments.toArray(), rowDocuments.toArray()))
        {
            return "its documents hold other table rows than those the journal removed";
        }
        return null;
    }

    static Path file(final JournalDirectory directory)
    {
        return directory.root().resolve(FILE);
    }

    /**
     * Position a tailer at the first document at or after {@code first} ({@link Long#MIN_VALUE}: the queue's start).
     *
     * @param tailer a tailer.
     * @param offset  the first offset it may read: a document's first (a base's first offset always is: retention
     *                removes whole cycles); one inside a document moves to the next document.
     * @param offsets the journal's offsets.
     */
    static void moveTo(final ExcerptTailer tailer, final long offset, final JournalOffsets offsets)
    {
        final long first = offset == Long.MIN_VALUE ? Long.MIN_VALUE : offsets.index(offset) + (offsets.slot(offset) == 0 ? 0 : 1);
        if (first == Long.MIN_VALUE || !tailer.moveToIndex(first))
        {
            tailer.toStart();
            if (first == Long.MIN_VALUE)
            {
                return;
            }
            long at = Long.MIN_VALUE;
            while (at == Long.MIN_VALUE)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    if (!dc.isPresent())
                    {
                        return; // at the end: what comes next is at or after first
                    }
                    if (dc.index() >= first)
                    {
                        at = dc.index();
                    }
                }
            }
            if (!tailer.moveToIndex(at))
            {
                throw new IllegalStateException("journal " + tailer.queue().file() + " lost its document at offset " + at);
            }
        }
    }

    /**
     * @param directory a journal.
     * @return the first offset its readers may read: its base's, or {@link Long#MIN_VALUE} if it has none.
     * @throws JournalRefusedException if its base is corrupt or of another journal.
     */
    static long firstOffset(final JournalDirectory directory)
    {
        final HistoryBase base = load(directory, false);
        return base == null ? Long.MIN_VALUE : base.first;
    }

    /**
     * @param directory a journal.
     * @return its base's header (its first offset, counts and number of table rows; no dictionaries, sources, tuples or
     *         rows), or null if it has none.
     * @throws JournalRefusedException if its base is corrupt or of another journal.
     */
    static HistoryBase header(final JournalDirectory directory)
    {
        return load(directory, false);
    }

    /**
     * Public for the retention package's archive view; not a stable API.
     *
     * @param directory a journal.
     * @return its base, or null if it has none.
     * @throws JournalRefusedException if its base is corrupt, of another format version, journal or schema.
     */
    public static HistoryBase load(final JournalDirectory directory)
    {
        return load(directory, true);
    }

    /**
     * @param directory a journal.
     * @param whole     false to decode only the header (id, schema, first offset, removed, counts), after checking
     *                  the whole file's checksum: the rest is then left empty.
     * @return its base, or null if it has none.
     */
    private static HistoryBase load(final JournalDirectory directory, final boolean whole)
    {
        final Path file = file(directory);
        final DataInputStream fields;
        try
        {
            fields = ChecksummedFile.read(file);
        }
        catch (final ChecksummedFile.Damaged damaged)
        {
            throw refused(directory, damaged.getMessage(), damaged.getCause());
        }
        if (fields == null)
        {
            return null;
        }
        final HistoryBase base;
        try (DataInputStream in = fields)
        {
            base = decode(in, whole, file);
        }
        catch (final NewerFormatException newer)
        {
            throw newer;
        }
        catch (final IOException | RuntimeException ex)
        {
            throw refused(directory, "corrupt (" + ex + ")", ex);
        }
        if (!base.journalId.equals(directory.journalId()))
        {
            throw refused(directory, "of another journal (id " + base.journalId + ", not " + directory.journalId() + ")", null);
        }
        // a base written before the journal gained columns holds; one written after it did, by a reader that opened before;
        // and one written while its events were pending (a journal of tables only), before any event had columns
        final boolean beforeEvents = base.counts[JournalTally.EVENTS] == 0 && base.schema.equals(JournalSchema.DEFAULT.toString());
        if (!beforeEvents && directory.schema().generationWritten(base.schema) == 0 && !base.schema.startsWith(directory.schema() + ","))
        {
            throw refused(directory, "of a journal of columns " + base.schema + ", not " + directory.schema(), null);
        }
        return base;
    }

    private static JournalRefusedException refused(final JournalDirectory directory, final String why, final Throwable cause)
    {
        return new JournalRefusedException(directory.root(), "its history base " + FILE + " is " + why + "; it is required to read"
            + " the journal since old cycles were removed: restore it from a backup of the journal, or, if the removed cycles were"
            + " archived, restore them into the events queue and the matching " + FILE, cause);
    }

    private static HistoryBase decode(final DataInputStream in, final boolean whole, final Path file) throws IOException
    {
        if (in.readLong() != MAGIC)
        {
            throw new IOException("not a history base");
        }
        final int version = in.readInt();
        if (version > VERSION)
        {
            throw new NewerFormatException("history base", file, version, VERSION);
        }
        if (version != VERSION && version != VERSION_WITHOUT_TABLE_ROWS)
        {
            throw new IOException("of format version " + version + ", not " + VERSION_WITHOUT_TABLE_ROWS + " or " + VERSION);
        }
        final String journalId = BinaryFields.readText(in);
        final String schema = BinaryFields.readText(in);
        final long first = in.readLong();
        final long lastRemoved = in.readLong();
        final long maxEventTime = in.readLong();
        final long removedDocuments = in.readLong();
        final long removedBytes = in.readLong();
        final String archive = in.readByte() == 1 ? BinaryFields.readText(in) : null;
        final long[] counts = new long[JournalTally.SIZE];
        for (int i = 0; i < counts.length; i++)
        {
            counts[i] = in.readLong();
        }
        final long rowCount = version == VERSION_WITHOUT_TABLE_ROWS ? 0 : in.readLong();
        if (!whole)
        {
            return new HistoryBase(journalId, schema, first, lastRemoved, maxEventTime, removedDocuments, removedBytes, archive, counts,
                new TreeMap<>(), new LinkedHashMap<>(), null, 0, false, List.of(), List.of(), new long[0], List.of(), rowCount);
        }
        final TreeMap<Integer, TreeMap<Integer, String>> dictionaries = BinaryFields.readDictionaries(in, JournalSchema.MAX_COLUMNS);
        final LinkedHashMap<String, long[]> sources = new LinkedHashMap<>();
        final int n = BinaryFields.count(in, in.available() / 28);
        for (int s = 0; s < n; s++)
        {
            final String source = BinaryFields.readText(in);
            sources.put(source, new long[] {in.readLong(), in.readLong(), in.readLong()});
        }
        String openSource = null;
        long openNext = 0;
        boolean openTagged = false;
        if (in.readByte() == 1)
        {
            openSource = BinaryFields.readText(in);
            openNext = in.readLong();
            openTagged = in.readByte() == 1;
        }
        final List<int[]> tupleColumns = new ArrayList<>();
        final List<long[]> tupleComponents = new ArrayList<>();
        final int tables = BinaryFields.count(in, in.available() / 8);
        for (int t = 0; t < tables; t++)
        {
            final int[] keyColumns = new int[BinaryFields.count(in, JournalSchema.MAX_COLUMNS)];
            for (int i = 0; i < keyColumns.length; i++)
            {
                keyColumns[i] = in.readInt();
            }
            final int tuples = BinaryFields.count(in, in.available() / 8);
            final long[] components = new long[Math.multiplyExact(tuples, keyColumns.length)];
            for (int i = 0; i < components.length; i++)
            {
                components[i] = in.readLong();
            }
            tupleColumns.add(keyColumns);
            tupleComponents.add(components);
        }
        final long[] rowOffsets = new long[version == VERSION_WITHOUT_TABLE_ROWS ? 0 : BinaryFields.count(in, in.available() / 12)];
        final List<byte[]> rowDocuments = new ArrayList<>(rowOffsets.length);
        for (int r = 0; r < rowOffsets.length; r++)
        {
            rowOffsets[r] = in.readLong();
            final byte[] document = new byte[BinaryFields.count(in, in.available())];
            in.readFully(document);
            rowDocuments.add(document);
        }
        if (rowOffsets.length != rowCount)
        {
            throw new IOException("it counts " + rowCount + " table rows and holds " + rowOffsets.length);
        }
        if (in.available() != 0)
        {
            throw new IOException(in.available() + " bytes left over");
        }
        return new HistoryBase(journalId, schema, first, lastRemoved, maxEventTime, removedDocuments, removedBytes, archive, counts,
            dictionaries, sources, openSource, openNext, openTagged, tupleColumns, tupleComponents, rowOffsets, rowDocuments, rowCount);
    }

    void write(final Path file) throws IOException
    {
        final ByteArrayOutputStream buffer = new ByteArrayOutputStream(4096);
        try (DataOutputStream out = new DataOutputStream(buffer))
        {
            // a journal without table rows in its removed cycles keeps version 1, which a Weir before tables reads
            final boolean rows = rowOffsets.length > 0;
            out.writeLong(MAGIC);
            out.writeInt(rows ? VERSION : VERSION_WITHOUT_TABLE_ROWS);
            BinaryFields.writeText(out, journalId);
            BinaryFields.writeText(out, schema);
            out.writeLong(first);
            out.writeLong(lastRemoved);
            out.writeLong(maxRemovedEventTime);
            out.writeLong(removedDocuments);
            out.writeLong(removedBytes);
            out.writeByte(archive == null ? 0 : 1);
            if (archive != null)
            {
                BinaryFields.writeText(out, archive);
            }
            for (final long count : counts)
            {
                out.writeLong(count);
            }
            if (rows)
            {
                out.writeLong(rowOffsets.length);
            }
            BinaryFields.writeDictionaries(out, dictionaries);
            out.writeInt(sources.size());
            for (final Map.Entry<String, long[]> source : sources.entrySet())
            {
                BinaryFields.writeText(out, source.getKey());
                for (final long v : source.getValue())
                {
                    out.writeLong(v);
                }
            }
            out.writeByte(openSource == null ? 0 : 1);
            if (openSource != null)
            {
                BinaryFields.writeText(out, openSource);
                out.writeLong(openNext);
                out.writeByte(openTagged ? 1 : 0);
            }
            out.writeInt(tupleColumns.size());
            for (int t = 0; t < tupleColumns.size(); t++)
            {
                final int[] keyColumns = tupleColumns.get(t);
                out.writeInt(keyColumns.length);
                for (final int column : keyColumns)
                {
                    out.writeInt(column);
                }
                final long[] components = tupleComponents.get(t);
                out.writeInt(components.length / keyColumns.length);
                for (final long component : components)
                {
                    out.writeLong(component);
                }
            }
            if (rows)
            {
                out.writeInt(rowOffsets.length);
                for (int r = 0; r < rowOffsets.length; r++)
                {
                    out.writeLong(rowOffsets[r]);
                    out.writeInt(rowDocuments.get(r).length);
                    out.write(rowDocuments.get(r));
                }
            }
        }
        ChecksummedFile.write(file, buffer.toByteArray());
    }

    /** @return the ids defined before B, per string column, as a scan's {@link StringDefinitions}. */
    StringDefinitions definitions()
    {
        return (column, id) ->
        {
            final TreeMap<Integer, String> entries = dictionaries.get(column);
            return entries != null && entries.containsKey(id);
        };
    }

    /**
     * @param keyColumns a key-column set.
     * @return its tuples before B, flat in id order (empty if the base has no table for it: numbered from B).
     */
    long[] tuples(final int[] keyColumns)
    {
        for (int t = 0; t < tupleColumns.size(); t++)
        {
            if (Arrays.equals(tupleColumns.get(t), keyColumns))
            {
                return tupleComponents.get(t);
            }
        }
        return new long[0];
    }

    /** The state of a scan of the documents before a new B, from an old base's state. Scanning thread only. */
    private static final class HistoryScan
    {
        private final EventShape shape;
        private final Path events;
        private final IngestStartDecoder start = new IngestStartDecoder();
        private final RejectedLineDecoder rejected = new RejectedLineDecoder();
        private final EventDecoder event;
        private final JournalOffsets offsets;
        private final EventBatchDecoder batch = new EventBatchDecoder();
        private final CurrentTables tableRows;
        /** The table rows held, by table, key and valid-from time, in the order of their (last) offsets. */
        private final LinkedHashMap<String, HeldRow> rows = new LinkedHashMap<>();
        private final JournalTally tally = new JournalTally();
        private final TreeMap<Integer, TreeMap<Integer, String>> dictionaries = new TreeMap<>();
        private final LinkedHashMap<String, long[]> sources = new LinkedHashMap<>();
        private final List<int[]> tupleColumns = new ArrayList<>();
        private final List<KeyTuples> tables = new ArrayList<>();
        private final StringDefinitions defined;
        private String openSource;
        private long openNext;
        private boolean openTagged;
        private long lastRemoved;
        private long maxEventTime;
        private long removedDocuments;

        HistoryScan(final JournalDirectory directory, final HistoryBase old, final List<int[]> keyColumnSets)
        {
            this.shape = EventShape.of(directory.schema());
            this.events = directory.eventsQueue();
            this.event = new EventDecoder(shape);
            this.offsets = directory.offsets();
            this.tableRows = new CurrentTables(directory);
            for (int s = 0; s < shape.stringColumns(); s++)
            {
                dictionaries.put(shape.stringColumn(s), new TreeMap<>());
            }
            this.defined = (column, id) -> dictionaries.get(column).containsKey(id);
            if (old != null)
            {
                old.dictionaries.forEach((column, entries) -> dictionaries.get(column).putAll(entries));
                old.sources.forEach((source, state) -> sources.put(source, state.clone()));
                tally.restore(old.counts, old.first - 1);
                openSource = old.openSource;
                openNext = old.openNext;
                openTagged = old.openTagged;
                lastRemoved = old.lastRemoved;
                maxEventTime = old.maxRemovedEventTime;
                removedDocuments = old.removedDocuments;
                for (int t = 0; t < old.tupleColumns.size(); t++)
                {
                    table(directory.schema(), old.tupleColumns.get(t)).load(old.tupleComponents.get(t));
                }
                for (int r = 0; r < old.rowOffsets.length; r++)
                {
                    final byte[] document = old.rowDocuments.get(r);
                    hold(tableRows.wrap(Bytes.wrapForRead(document)), old.rowOffsets[r], document);
                }
            }
            else
            {
                lastRemoved = -1;
                maxEventTime = -1;
            }
            for (final int[] keyColumns : keyColumnSets)
            {
                table(directory.schema(), keyColumns);
            }
        }

        private KeyTuples table(final JournalSchema schema, final int[] keyColumns)
        {
            for (int t = 0; t < tupleColumns.size(); t++)
            {
                if (Arrays.equals(tupleColumns.get(t), keyColumns))
                {
                    return tables.get(t);
                }
            }
            final KeyTuples table = new KeyTuples(schema, keyColumns);
            tupleColumns.add(keyColumns.clone());
            tables.add(table);
            return table;
        }

        /** Scan the documents from the tailer's position to {@code end} (an offset) exclusive, or the queue's end. */
        void documents(final ExcerptTailer tailer, final long end)
        {
            while (true)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    if (!dc.isPresent() || offsets.offset(dc.index(), 0) >= end)
                    {
                        break;
                    }
                    final Bytes<?> in = dc.wire().bytes();
                    if (batch.wrap(in))
                    {
                        while (batch.next())
                        {
                            document(in, offsets.offset(dc.index(), batch.slot()));
                        }
                        batch.end();
                    }
                    else
                    {
                        document(in, offsets.offset(dc.index(), 0));
                    }
                }
            }
        }

        void document(final Bytes<?> in, final long offset)
        {
            tally.count(in, offset, shape.baseLength(), events);
            lastRemoved = offset;
            removedDocuments++;
            final TableRowDecoder row = tableRows.wrap(in);
            if (row != null)
            {
                hold(row, offset, bytesOf(in));
                if (row.line() >= 0)
                {
                    line(row.line());
                }
            }
            else if (start.wrap(in))
            {
                final String source = start.source();
                openSource = source;
                openNext = start.firstLine();
                openTagged = start.linesTagged();
                final long[] old = sources.remove(source);
                sources.put(source, old == null ? new long[] {openNext, -1, -1} : new long[] {openNext, old[1], old[2]});
            }
            else if (rejected.wrap(in))
            {
                final long line = rejected.line();
                line(line);
                if (rejected.unterminatedLength() >= 0)
                {
                    unterminated(line, rejected.unterminatedLength());
                }
            }
            else if (Heartbeat.is(in))
            {
                return;
            }
            else if (event.wrap(in))
            {
                if (event.hasKey())
                {
                    define(offset);
                }
                maxEventTime = Math.max(maxEventTime, event.eventTime());
                for (final KeyTuples table : tables)
                {
                    table.idOf(event);
                }
                final long line = event.line();
                line(line);
                if (line >= 0 && event.unterminatedLength() >= 0)
                {
                    unterminated(line, event.unterminatedLength());
                }
            }
        }

        /** Hold a table row, in place of an earlier one of its table, key and valid-from time. */
        private void hold(final TableRowDecoder row, final long offset, final byte[] document)
        {
            final TableDefinition table = row.tables().get(row.table());
            final StringBuilder key = new StringBuilder().append(row.table()).append('\u0000').append(row.validFrom());
            for (int k = 0; k < table.keySize(); k++)
            {
                final int column = table.keyColumn(k);
                key.append('\u0000');
                if (table.columns().column(column).type() == dev.weir.journal.schema.ColumnType.STRING)
                {
                    key.append(row.string(column));
                }
                else
                {
                    key.append(row.longColumn(column));
                }
            }
            final String held = key.toString();
            rows.remove(held);
            rows.put(held, new HeldRow(offset, document));
        }

        private static byte[] bytesOf(final Bytes<?> in)
        {
            final long start = in.readPosition();
            final byte[] b = new byte[(int)in.readRemaining()];
            for (int i = 0; i < b.length; i++)
            {
                b[i] = in.readByte(start + i);
            }
            return b;
        }

        /** As {@code IngestLog.LineCount.line}: move the open block's next line. */
        private void line(final long line)
        {
            if (openSource == null)
            {
                return;
            }
            if (!openTagged)
            {
                openNext++;
            }
            else if (line >= 0)
            {
                openNext = Math.max(openNext, line + 1);
            }
            else
            {
                return;
            }
            sources.get(openSource)[0] = openNext;
        }

        private void unterminated(final long line, final long bytes)
        {
            if (openSource != null)
            {
                final long[] state = sources.get(openSource);
                state[1] = line;
                state[2] = bytes;
            }
        }

        private void define(final long offset)
        {
            final long columns = event.newStrings(defined);
            for (int s = 0; s < shape.stringColumns(); s++)
            {
                final int column = shape.stringColumn(s);
                if ((columns & 1L << column) != 0)
                {
                    final int id = event.stringId(column);
                    final String text = event.text(column);
                    if (id < 0 || text == null)
                    {
                        throw new IllegalStateException("the events queue holds a corrupt key definition at " + offset);
                    }
                    dictionaries.get(column).put(id, text);
                }
            }
        }

        HistoryBase base(final JournalDirectory directory, final long first, final long removedBytes, final String archive)
        {
            final List<long[]> components = new ArrayList<>();
            for (final KeyTuples table : tables)
            {
                components.add(table.components());
            }
            final long[] rowOffsets = new long[rows.size()];
            final List<byte[]> rowDocuments = new ArrayList<>(rows.size());
            int r = 0;
            for (final HeldRow row : rows.values())
            {
                rowOffsets[r++] = row.offset();
                rowDocuments.add(row.document());
            }
            return new HistoryBase(directory.journalId(), directory.schema().toString(), first, lastRemoved, maxEventTime,
                removedDocuments, removedBytes, archive, tally.values(), dictionaries, sources, openSource, openNext, openTagged,
                tupleColumns, components, rowOffsets, rowDocuments, rowOffsets.length);
        }
    }

    /** A table row held: its original offset and its document's bytes. */
    private record HeldRow(long offset, byte[] document)
    {
    }
}
