package dev.weir.engine.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.weir.journal.schema.NewerFormatException;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

/**
 * A memory-mapped file of live counters that another process can read while the engine runs, in the
 * way Aeron's CnC file carries its counters: a header, then an Agrona {@link CountersManager}'s metadata
 * and values buffers.
 * <pre>
 *   0 magic "WMET" (int)   4 format version (int)   8 pid of the writer (long)   16 start, epoch ms (long)
 *   24 metadata length (int)   28 values length (int)   ...   128 metadata   128 + metadata length: values
 * </pre>
 * The writer {@link #create(Path, int) creates} a new file (replacing one a previous run left) and writes
 * the magic last, with a release store, so a reader never sees a half-built file. Readers
 * {@link #open(Path) open} it read-side and use {@link #reader()}. The file stays after the writer ends,
 * with its last values. A run without a file (a replay) keeps the same counters {@link #inMemory(int) in memory},
 * for its in-process view ({@link PipelineMetrics}).
 * <p>
 * Each counter has its own type id ({@link CounterTypes}): find one with {@link #value(int)}. Files written
 * before that gave every counter {@link CounterTypes#LEGACY}; they are still read (same layout and
 * version), by label ({@link #value(String)}).
 * <p>
 * Thread-safety: one writing thread per file (the counters' owner); any number of readers, in any process.
 */
public final class MetricsFile implements AutoCloseable
{
    /** The first four bytes of a metrics file: "WMET". */
    public static final int MAGIC = 0x574D_4554;
    /** The format version this build writes, and the newest it reads. */
    public static final int VERSION = 1;

    private static final int MAGIC_OFFSET = 0;
    private static final int VERSION_OFFSET = 4;
    private static final int PID_OFFSET = 8;
    private static final int START_OFFSET = 16;
    private static final int METADATA_LENGTH_OFFSET = 24;
    private static final int VALUES_LENGTH_OFFSET = 28;
    /** When the run that writes the file ended, epoch ms; 0 while it runs (and in files of before this field). */
    private static final int ENDED_OFFSET = 32;
    private static final int HEADER_LENGTH = 128;

    private final ByteBuffer mapped;
    private final UnsafeBuffer header;
    private final CountersReader reader;
    private final boolean writer;

    private MetricsFile(final ByteBuffer mapped, final boolean writer)
    {
        this.mapped = mapped;
        this.writer = writer;
        this.header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
        final int metadataLength = header.getInt(METADATA_LENGTH_OFFSET);
        final int valuesLength = header.getInt(VALUES_LENGTH_OFFSET);
        final UnsafeBuffer metadata = new UnsafeBuffer(mapped, HEADER_LENGTH, metadataLength);
        final UnsafeBuffer values = new UnsafeBuffer(mapped, HEADER_LENGTH + metadataLength, valuesLength);
        this.reader = writer ? new CountersManager(metadata, values) : new CountersReader(metadata, values);
    }

    /**
     * Create a new metrics file for up to {@code maxCounters} counters, replacing any file at that path.
     *
     * @param file        where.
     * @param maxCounters how many counters it can hold.
     * @return the file, writer side: allocate counters through {@link #counters()}.
     * @throws UncheckedIOException if it cannot be created.
     */
    public static MetricsFile create(final Path file, final int maxCounters)
    {
        final int valuesLength = maxCounters * CountersReader.COUNTER_LENGTH;
        final int metadataLength = maxCounters * CountersReader.METADATA_LENGTH;
        try
        {
            if (file.getParent() != null)
            {
                Files.createDirectories(file.getParent()); // a named pipeline's directory, on its first run
            }
            Files.deleteIfExists(file); // a reader of the old file keeps its mapping; new readers see this one
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot replace metrics file " + file, ex);
        }
        return writer(IoUtil.mapNewFile(file.toFile(), (long)HEADER_LENGTH + metadataLength + valuesLength), metadataLength, valuesLength);
    }

    /**
     * Make the counters of a run that writes no file, in memory, laid out as in a file.
     *
     * @param maxCounters how many counters it can hold.
     * @return the counters, writer side.
     */
    public static MetricsFile inMemory(final int maxCounters)
    {
        final int valuesLength = maxCounters * CountersReader.COUNTER_LENGTH;
        final int metadataLength = maxCounters * CountersReader.METADATA_LENGTH;
        return writer(ByteBuffer.allocateDirect(HEADER_LENGTH + metadataLength + valuesLength), metadataLength, valuesLength);
    }

    private static MetricsFile writer(final ByteBuffer mapped, final int metadataLength, final int valuesLength)
    {
        final UnsafeBuffer header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
        header.putInt(VERSION_OFFSET, VERSION);
        header.putLong(PID_OFFSET, ProcessHandle.current().pid());
        header.putLong(START_OFFSET, System.currentTimeMillis());
        header.putInt(METADATA_LENGTH_OFFSET, metadataLength);
        header.putInt(VALUES_LENGTH_OFFSET, valuesLength);
        header.putIntRelease(MAGIC_OFFSET, MAGIC);
        return new MetricsFile(mapped, true);
    }

    /**
     * Open an existing metrics file to read it.
     *
     * @param file where.
     * @return the file, reader side.
     * @throws IllegalStateException if there is no file, or it is not a metrics file of this version.
     * @throws NewerFormatException  if it is a metrics file of a version above {@value #VERSION}: a newer Weir writes it.
     */
    public static MetricsFile open(final Path file)
    {
        if (!Files.isRegularFile(file))
        {
            throw new IllegalStateException("no metrics file " + file + ": no pipeline with durable outputs has run on this journal");
        }
        final MappedByteBuffer mapped = IoUtil.mapExistingFile(file.toFile(), "weir metrics");
        final UnsafeBuffer header = new UnsafeBuffer(mapped);
        if (header.capacity() < HEADER_LENGTH || header.getIntVolatile(MAGIC_OFFSET) != MAGIC)
        {
            IoUtil.unmap(mapped);
            throw new IllegalStateException(file + " is not a Weir metrics file (or is still being created)");
        }
        if (header.getInt(VERSION_OFFSET) != VERSION)
        {
            final int version = header.getInt(VERSION_OFFSET);
            IoUtil.unmap(mapped);
            if (version > VERSION)
            {
                throw new NewerFormatException("metrics file", file, version, VERSION);
            }
            throw new IllegalStateException(file + " is metrics format " + version + ", this build reads " + VERSION);
        }
        if ((long)HEADER_LENGTH + header.getInt(METADATA_LENGTH_OFFSET) + header.getInt(VALUES_LENGTH_OFFSET) > header.capacity())
        {
            IoUtil.unmap(mapped);
            throw new IllegalStateException(file + " is truncated");
        }
        return new MetricsFile(mapped, false);
    }

    /**
     * @return the writer's counters manager.
     * @throws IllegalStateException on the reader side.
     */
    public CountersManager counters()
    {
        if (!(reader instanceof CountersManager))
        {
            throw new IllegalStateException("a metrics file opened for reading has no counters manager");
        }
        return (CountersManager)reader;
    }

    /**
     * @return the counters, to read.
     */
    public CountersReader reader()
    {
        return reader;
    }

    /**
     * @param typeId a counter's type id ({@link CounterTypes}).
     * @return its value, or {@link Long#MIN_VALUE} if the file has no counter of that type.
     */
    public long value(final int typeId)
    {
        final int id = counterId(reader, typeId);
        return id < 0 ? Long.MIN_VALUE : reader.getCounterValue(id);
    }

    /**
     * @param typeId      a counter's type id ({@link CounterTypes}).
     * @param legacyLabel its label, to find it in a file written before counters had their own type ids.
     * @return its value, or {@link Long#MIN_VALUE} if the file has no such counter.
     */
    public long value(final int typeId, final String legacyLabel)
    {
        final long value = value(typeId);
        return value == Long.MIN_VALUE && counterId(reader, CounterTypes.LEGACY) >= 0 ? value(legacyLabel) : value;
    }

    /**
     * @param counters the counters.
     * @param typeId   a counter's type id ({@link CounterTypes}).
     * @return the id of the first allocated counter of that type, or -1. Allocates nothing.
     */
    public static int counterId(final CountersReader counters, final int typeId)
    {
        for (int id = 0, n = counters.metaDataBuffer().capacity() / CountersReader.METADATA_LENGTH; id < n; id++)
        {
            final int state = counters.getCounterState(id);
            if (state == CountersReader.RECORD_UNUSED)
            {
                break;
            }
            if (state == CountersReader.RECORD_ALLOCATED && counters.getCounterTypeId(id) == typeId)
            {
                return id;
            }
        }
        return -1;
    }

    /**
     * @param label a counter's label.
     * @return its value, or {@link Long#MIN_VALUE} if the file has no counter of that label.
     */
    public long value(final String label)
    {
        final long[] value = {Long.MIN_VALUE};
        reader.forEach((id, l) ->
        {
            if (l.equals(label))
            {
                value[0] = reader.getCounterValue(id);
            }
        });
        return value[0];
    }

    /**
     * @return true if the run that writes the file is running: it has not marked its end
     *         ({@link #markEnded()}) and its process is alive (a killed run never marks its end).
     */
    public boolean running()
    {
        return header.getLongVolatile(ENDED_OFFSET) == 0 && ProcessHandle.of(pid()).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * Writer side: record that the run has ended, so readers no longer take it for running while its
     * process (a service that embeds Weir, say) lives on.
     */
    public void markEnded()
    {
        header.putLongRelease(ENDED_OFFSET, Math.max(1, System.currentTimeMillis()));
    }

    /**
     * @return the process id of the writer.
     */
    public long pid()
    {
        return header.getLong(PID_OFFSET);
    }

    /**
     * @return when the writer created the file, epoch ms.
     */
    public long startedMillis()
    {
        return header.getLong(START_OFFSET);
    }

    /**
     * Reader side: unmap the file (it stays on disk). Writer side: nothing; the mapping is released when the
     * run's in-process view ({@link PipelineMetrics}), which other threads may still read, is collected,
     * so no reader ever touches an unmapped page.
     */
    @Override
    public void close()
    {
        if (!writer)
        {
            IoUtil.unmap((MappedByteBuffer)mapped);
        }
    }
}
