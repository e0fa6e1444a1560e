package dev.weir.kafka;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.CRC32C;

import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.files.BinaryFields;
import dev.weir.journal.schema.NewerFormatException;

/**
 * A partition's checkpoint as it is stored in Kafka, so that any instance can take the partition over: the
 * engine's checkpoint payload (its state, as of a journal offset of the instance that took it), where it is in
 * Kafka terms, and the strings its state refers to by id.
 * <p>
 * Layout (big-endian), version 4: magic {@code WEIRKCPT} (8 bytes), version int32, source topic (int32 length +
 * UTF-8), partition int32, Kafka offset of the last record applied int64 (-1 if none), outputs covered int64 (the
 * output numbers 1..N are covered), the output topic's offset to scan from int64, the highest Kafka offset whose
 * rejection is committed int64 (-1 if none), the rejected topic's offset to scan from int64, the output topic's and
 * the rejected topic's partition counts int32 each (version 2 on: a version 1 checkpoint reads as 0), dictionaries (int32
 * columns, per column int32 index, int32 entries, per entry int32 id + int32 length + UTF-8: {@link BinaryFields#writeDictionaries},
 * as in the journal's files), key tuples (version 3 on: int32 arity, 0 if the key's ids are dictionary ids; then arity ×
 * int32 column, int32 tuples, tuples × arity × int64 components, in id order, as in the journal's history base), the
 * reference tables (version 4 only, {@link PartitionTables}), the engine payload (int32 length + bytes), trailer int32
 * CRC-32C of every byte before it. Versions 1 and 2 are read as having no key tuples. Version 3 is version 4 without
 * tables, and is what a checkpoint of a run without tables is still written as, so an older Weir reads it.
 *
 * @param topic           the source topic.
 * @param partition       the source partition.
 * @param kafkaOffset     the Kafka offset of the last record the state covers, or -1: re-reading resumes after it.
 * @param outputs         how many outputs (results and late events) of the partition the state covers.
 * @param outputsFrom     an offset of the output topic's partition at or before the first output numbered above
 *                        {@code outputs}.
 * @param rejectedThrough the highest Kafka offset whose rejection was committed with or before this checkpoint, or -1.
 * @param rejectsFrom     an offset of the rejected topic's partition at or before any rejection committed after it.
 * @param outputPartitions   the output topic's partition count its rows were routed by (P mod count), or 0 if unknown.
 * @param rejectedPartitions the rejected topic's partition count its rejections were routed by, or 0 if unknown.
 * @param dictionaries    column index to (id to string): the strings the journal had defined.
 * @param keyColumns      the key columns whose tuples follow, in key order, or null if the key's ids are dictionary ids.
 * @param tuples          the key tuples the journal had numbered, flat in id order (empty if none).
 * @param tables          the reference tables' rows the state had read and the greatest time it had read
 *                        ({@link PartitionTables#NONE} without tables).
 * @param engine          the engine's checkpoint payload (read-only; not copied).
 */
record PartitionCheckpoint(
    String topic,
    int partition,
    long kafkaOffset,
    long outputs,
    long outputsFrom,
    long rejectedThrough,
    long rejectsFrom,
    int outputPartitions,
    int rejectedPartitions,
    SortedMap<Integer, ? extends SortedMap<Integer, String>> dictionaries,
    int[] keyColumns,
    long[] tuples,
    PartitionTables tables,
    byte[] engine)
{
    /**
     * A checkpoint of a partition without reference tables.
     */
    PartitionCheckpoint(
        final String topic, final int partition, final long kafkaOffset, final long outputs, final long outputsFrom,
        final long rejectedThrough, final long rejectsFrom, final int outputPartitions, final int rejectedPartitions,
        final SortedMap<Integer, ? extends SortedMap<Integer, String>> dictionaries, final int[] keyColumns, final long[] tuples,
        final byte[] engine)
    {
        this(topic, partition, kafkaOffset, outputs, outputsFrom, rejectedThrough, rejectsFrom, outputPartitions, rejectedPartitions,
            dictionaries, keyColumns, tuples, PartitionTables.NONE, engine);
    }

    private static final long MAGIC = 0x574549524B435054L; // "WEIRKCPT"
    /** The version this build writes with reference tables, and the newest it reads (it also reads 1, 2 and 3). */
    static final int VERSION = 4;
    /** The version this build writes without reference tables: version 4 without its tables section. */
    static final int VERSION_WITHOUT_TABLES = 3;
    private static final int VERSION_WITHOUT_TUPLES = 2;
    private static final int VERSION_WITHOUT_COUNTS = 1;

    /**
     * @return the checkpoint's bytes.
     */
    byte[] encode()
    {
        final ByteArrayOutputStream buffer = new ByteArrayOutputStream(engine.length + 1024);
        try (DataOutputStream out = new DataOutputStream(buffer))
        {
            out.writeLong(MAGIC);
            out.writeInt(tables.isEmpty() ? VERSION_WITHOUT_TABLES : VERSION);
            BinaryFields.writeText(out, topic);
            out.writeInt(partition);
            out.writeLong(kafkaOffset);
            out.writeLong(outputs);
            out.writeLong(outputsFrom);
            out.writeLong(rejectedThrough);
            out.writeLong(rejectsFrom);
            out.writeInt(outputPartitions);
            out.writeInt(rejectedPartitions);
            BinaryFields.writeDictionaries(out, dictionaries);
            out.writeInt(keyColumns == null ? 0 : keyColumns.length);
            if (keyColumns != null)
            {
                for (final int column : keyColumns)
                {
                    out.writeInt(column);
                }
                out.writeInt(tuples.length / keyColumns.length);
                for (final long component : tuples)
                {
                    out.writeLong(component);
                }
            }
            if (!tables.isEmpty())
            {
                tables.write(out);
            }
            out.writeInt(engine.length);
            out.write(engine);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return BinaryFields.withTrailer(buffer.toByteArray(), new CRC32C());
    }

    /**
     * @param bytes a checkpoint's bytes.
     * @return the checkpoint.
     * @throws IllegalStateException if they are torn, corrupt or of another version.
     * @throws NewerFormatException  if they are of a version above the newest this build reads: a newer Weir wrote them.
     */
    static PartitionCheckpoint decode(final byte[] bytes)
    {
        return decode(bytes, "a partition checkpoint record");
    }

    /**
     * @param bytes a checkpoint's bytes.
     * @param where where they were read, for a refusal's message.
     * @return the checkpoint.
     * @throws IllegalStateException if they are torn, corrupt or of another version.
     * @throws NewerFormatException  if they are of a version above the newest this build reads: a newer Weir wrote them.
     */
    static PartitionCheckpoint decode(final byte[] bytes, final String where)
    {
        if (bytes.length < 8 + 4 + 4)
        {
            throw new IllegalStateException("a torn partition checkpoint (" + bytes.length + " bytes)");
        }
        if (!BinaryFields.trailerMatches(bytes, new CRC32C()))
        {
            throw new IllegalStateException("a corrupt partition checkpoint (checksum mismatch)");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, 0, bytes.length - 4)))
        {
            if (in.readLong() != MAGIC)
            {
                throw new IllegalStateException("not a Weir partition checkpoint");
            }
            final int version = in.readInt();
            if (version > VERSION)
            {
                throw new NewerFormatException("Kafka partition checkpoint", where, version, VERSION);
            }
            if (version != VERSION && version != VERSION_WITHOUT_TABLES && version != VERSION_WITHOUT_TUPLES && version != VERSION_WITHOUT_COUNTS)
            {
                throw new IllegalStateException("a partition checkpoint of format version " + version + ", not " + VERSION);
            }
            final String topic = BinaryFields.readText(in);
            final int partition = in.readInt();
            final long kafkaOffset = in.readLong();
            final long outputs = in.readLong();
            final long outputsFrom = in.readLong();
            final long rejectedThrough = in.readLong();
            final long rejectsFrom = in.readLong();
            final int outputPartitions = version >= VERSION_WITHOUT_TUPLES ? in.readInt() : 0;
            final int rejectedPartitions = version >= VERSION_WITHOUT_TUPLES ? in.readInt() : 0;
            final TreeMap<Integer, TreeMap<Integer, String>> dictionaries = BinaryFields.readDictionaries(in, JournalSchema.MAX_COLUMNS);
            final int arity = version >= VERSION_WITHOUT_TABLES ? in.readInt() : 0;
            if (arity < 0 || arity > JournalSchema.MAX_COLUMNS)
            {
                throw new IllegalStateException("a corrupt partition checkpoint (a key of " + arity + " columns)");
            }
            final int[] keyColumns = arity == 0 ? null : new int[arity];
            long[] tuples = new long[0];
            if (arity > 0)
            {
                for (int i = 0; i < arity; i++)
                {
                    keyColumns[i] = in.readInt();
                }
                final int count = in.readInt();
                if (count < 0 || (long)count * arity * 8 > in.available())
                {
                    throw new IllegalStateException("a corrupt partition checkpoint (" + count + " key tuples)");
                }
                tuples = new long[count * arity];
                for (int i = 0; i < tuples.length; i++)
                {
                    tuples[i] = in.readLong();
                }
            }
            final PartitionTables tables = version == VERSION ? PartitionTables.read(in) : PartitionTables.NONE;
            final int length = in.readInt();
            if (length < 0 || length > in.available())
            {
                throw new IllegalStateException("a corrupt partition checkpoint (engine payload of " + length + " bytes)");
            }
            final byte[] engine = new byte[length];
            in.readFully(engine);
            return new PartitionCheckpoint(topic, partition, kafkaOffset, outputs, outputsFrom, rejectedThrough, rejectsFrom,
                outputPartitions, rejectedPartitions, dictionaries, keyColumns, tuples, tables, engine);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("a corrupt partition checkpoint (" + ex + ")", ex);
        }
    }
}
