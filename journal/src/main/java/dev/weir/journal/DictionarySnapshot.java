package dev.weir.journal;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;

import dev.weir.journal.files.BinaryFields;
import dev.weir.journal.files.ChecksummedFile;
import dev.weir.journal.schema.JournalSchema;

/**
 * A cache of a journal's string dictionaries and document counts as of one offset, in the file
 * {@code dictionaries.snapshot} of the journal's root, so that opening a journal reads the snapshot and the
 * documents after its offset instead of the whole events queue. The events queue stays the truth: a
 * snapshot that is missing, torn, corrupt, of another schema or journal, or not known to be covered by what
 * survived a machine crash is ignored (the queue is then scanned from its start), never trusted. So is one of a
 * version above {@value #VERSION}, written by a newer Weir: unlike the files a journal requires, a cache is not
 * refused, so that a journal still opens after a rollback (and the next snapshot written is of this version).
 * <p>
 * Layout (big-endian), version 1:
 * <pre>
 * magic "WEIRDICT" (8 bytes), version int32 (1),
 * schema: int32 length + UTF-8 text (the journal's columns, e.g. key:string,value:long; with their defaults, as
 *   {@link JournalSchema#toString()} writes them, once it gained columns; a snapshot of the journal before it
 *   gained columns still holds),
 * covered: int64 offset of the last document covered, int32 CRC-32 of that document's bytes,
 * durability: int8 1 if the events queue was forced to disk through the covered offset before the snapshot
 *   was written, else 0; int32 length + UTF-8 boot id of the machine that wrote it (empty if unknown),
 * counts: 8 × int64 (events, rejected lines, ingest starts, heartbeats, first document offset, last document
 *   offset, first event offset, last event offset; -1 for an offset when none),
 * columns: int32 number of string columns, then per column: int32 column index, int32 number of entries, and
 *   per entry int32 id, int32 length + UTF-8 text (every id defined in the journal up to the covered offset;
 *   {@link BinaryFields#writeDictionaries}),
 * trailer: int32 CRC-32 of every byte before it.
 * </pre>
 * It is written to {@code dictionaries.snapshot.tmp}, forced, and renamed over the previous one, so a crash
 * leaves the old snapshot or the new one (and perhaps a stale temporary file, ignored and replaced).
 * Immutable once read; the static methods are thread-safe.
 */
final class DictionarySnapshot
{
    /** The snapshot's file name in the journal's root. */
    static final String FILE = "dictionaries.snapshot";
    private static final long MAGIC = 0x5745495244494354L; // "WEIRDICT"
    /** The format version this build writes, and the newest it reads. */
    static final int VERSION = 1;
    private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");

    final long covered;
    final int coveredCrc;
    final boolean synced;
    final String bootId;
    final long[] counts;
    /** The string columns, ascending; per column its ids, ascending, and their texts (written in that order). */
    final int[] columns;
    final int[][] ids;
    final String[][] texts;

    DictionarySnapshot(
        final long covered, final int coveredCrc, final boolean synced, final String bootId, final long[] counts,
        final int[] columns, final int[][] ids, final String[][] texts)
    {
        this.covered = covered;
        this.coveredCrc = coveredCrc;
        this.synced = synced;
        this.bootId = bootId;
        this.counts = counts;
        this.columns = columns;
        this.ids = ids;
        this.texts = texts;
    }

    /** Why a snapshot file is not used: its message is shown by {@code weir inspect}. */
    static final class Invalid extends Exception
    {
        private static final long serialVersionUID = 1L;

        Invalid(final String why)
        {
            super(why, null, false, false);
        }
    }

    /**
     * @param root the journal's root.
     * @return the snapshot's path.
     */
    static Path file(final Path root)
    {
        return root.resolve(FILE);
    }

    /**
     * @return the id of this boot of the machine, or the empty string where it is unknown.
     */
    static String bootId()
    {
        try
        {
            return Files.readString(BOOT_ID, StandardCharsets.US_ASCII).trim();
        }
        catch (final IOException | RuntimeException unknown)
        {
            return "";
        }
    }

    /**
     * Read a snapshot file of a journal of exactly these columns, as {@link #read(Path, JournalSchema)} does.
     *
     * @param file   the file.
     * @param schema the journal's columns, as {@link JournalSchema#toString()} gives them.
     * @return the snapshot, or null if there is no file.
     * @throws Invalid if the file is not a whole, intact snapshot of a journal of this schema.
     */
    static DictionarySnapshot read(final Path file, final String schema) throws Invalid
    {
        return read(file, JournalSchema.parse(schema));
    }

    /**
     * Read a snapshot file: its integrity and schema only (the caller checks the covered document).
     *
     * @param file   the file.
     * @param schema the journal's columns: the snapshot's must be them, or them as they were before the journal
     *               gained columns (its string columns are then the first ones; the added ones start with their default).
     * @return the snapshot, or null if there is no file.
     * @throws Invalid if the file is not a whole, intact snapshot of a journal of this schema.
     */
    static DictionarySnapshot read(final Path file, final JournalSchema schema) throws Invalid
    {
        final DataInputStream fields;
        try
        {
            fields = ChecksummedFile.read(file);
        }
        catch (final ChecksummedFile.Damaged damaged)
        {
            throw new Invalid(damaged.getMessage());
        }
        if (fields == null)
        {
            return null;
        }
        try (DataInputStream in = fields)
        {
            if (in.readLong() != MAGIC)
            {
                throw new Invalid("not a dictionary snapshot");
            }
            final int version = in.readInt();
            if (version > VERSION)
            {
                throw new Invalid("written by a newer Weir (format version " + version + "; this Weir reads up to " + VERSION
                    + "): a cache, so the events queue is read instead");
            }
            if (version != VERSION)
            {
                throw new Invalid("of format version " + version + ", not " + VERSION);
            }
            final String itsSchema = BinaryFields.readText(in);
            if (schema.generationWritten(itsSchema) == 0)
            {
                throw new Invalid("of a journal of columns " + itsSchema + ", not " + schema);
            }
            final long covered = in.readLong();
            final int coveredCrc = in.readInt();
            final boolean synced = in.readByte() == 1;
            final String bootId = BinaryFields.readText(in);
            final long[] counts = new long[JournalTally.SIZE];
            for (int i = 0; i < counts.length; i++)
            {
                counts[i] = in.readLong();
            }
            final TreeMap<Integer, TreeMap<Integer, String>> dictionaries = BinaryFields.readDictionaries(in, JournalSchema.MAX_COLUMNS);
            final int[] columns = new int[dictionaries.size()];
            final int[][] ids = new int[columns.length][];
            final String[][] texts = new String[columns.length][];
            int c = 0;
            for (final Map.Entry<Integer, TreeMap<Integer, String>> column : dictionaries.entrySet())
            {
                columns[c] = column.getKey();
                ids[c] = column.getValue().keySet().stream().mapToInt(Integer::intValue).toArray();
                texts[c++] = column.getValue().values().toArray(new String[0]);
            }
            if (in.available() != 0)
            {
                throw new Invalid("corrupt (" + in.available() + " bytes left over)");
            }
            return new DictionarySnapshot(covered, coveredCrc, synced, bootId, counts, columns, ids, texts);
        }
        catch (final IOException | RuntimeException ex)
        {
            throw new Invalid("corrupt (" + ex + ")");
        }
    }

    /**
     * Write this snapshot atomically: temporary file, forced, renamed over the previous one, directory forced.
     *
     * @param file   where.
     * @param schema the journal's columns.
     * @throws IOException if it cannot be written (the previous snapshot, if any, is left as it was).
     */
    void write(final Path file, final String schema) throws IOException
    {
        final ByteArrayOutputStream buffer = new ByteArrayOutputStream(4096);
        try (DataOutputStream out = new DataOutputStream(buffer))
        {
            out.writeLong(MAGIC);
            out.writeInt(VERSION);
            BinaryFields.writeText(out, schema);
            out.writeLong(covered);
            out.writeInt(coveredCrc);
            out.writeByte(synced ? 1 : 0);
            BinaryFields.writeText(out, bootId);
            for (final long count : counts)
            {
                out.writeLong(count);
            }
            final TreeMap<Integer, TreeMap<Integer, String>> dictionaries = new TreeMap<>();
            for (int c = 0; c < columns.length; c++)
            {
                final TreeMap<Integer, String> entries = new TreeMap<>();
                for (int e = 0; e < ids[c].length; e++)
                {
                    entries.put(ids[c][e], texts[c][e]);
                }
                dictionaries.put(columns[c], entries);
            }
            BinaryFields.writeDictionaries(out, dictionaries);
        }
        ChecksummedFile.write(file, buffer.toByteArray());
    }

    /**
     * @param in a document's bytes, from its read position to its limit (left where they were).
     * @return their CRC-32.
     */
    static int crcOf(final net.openhft.chronicle.bytes.BytesIn<?> in)
    {
        final long start = in.readPosition();
        final byte[] b = new byte[(int)in.readRemaining()];
        for (int i = 0; i < b.length; i++)
        {
            b[i] = in.readByte(start + i);
        }
        final CRC32 crc = new CRC32();
        crc.update(b);
        return (int)crc.getValue();
    }
}
