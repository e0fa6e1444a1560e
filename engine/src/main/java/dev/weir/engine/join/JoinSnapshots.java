package dev.weir.engine.join;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OffsetUnavailableException;
import dev.weir.journal.files.FileReplacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pipeline's join-state files ({@link JoinStateFile}), {@code join-OFFSET.bin} in one directory: the
 * {@link TableJoins} state as of OFFSET, written now and then while the pipeline runs so that a resumed run restores
 * it in time proportional to the tables, not to the journal.
 * <p>
 * Cadence: a file is written when the state changed since the last one and at least
 * {@code max(minEvery, 4 × entries)} documents were read since, where entries are the state's versions, keys and
 * texts; so writing costs a bounded amount per document read. The {@value #KEPT} newest files are kept, and one older
 * file for a checkpoint that lags behind the reading (see the constructor's {@code checkpointLag}); others are
 * deleted. A file that cannot be written is logged and the run goes on: the files only shorten a resume. The owner
 * thread encodes the state into a reused buffer (its content decided there, at the cadence); a writing thread of
 * this object's own writes it, forced and renamed into place ({@link JoinStateFile}), while the owner reads on.
 * <p>
 * Resume ({@link #restore}): the newest file before the first offset to read, of this join configuration, that reads
 * whole; then the journal from after its offset. A torn, corrupt or foreign file is logged and the next older tried;
 * with none, the journal is read from its start.
 * <p>
 * Not thread-safe: {@link #write} by the thread that owns the state (the pipeline's publisher), {@link #restore}
 * before it starts, {@link #close} after it ended.
 */
public final class JoinSnapshots
{
    /** The fewest documents read between two files. */
    public static final long MIN_EVERY = 65_536;
    /** The number of files kept. */
    public static final int KEPT = 3;

    private static final Logger LOG = LoggerFactory.getLogger(JoinSnapshots.class);
    private static final long CLOSE_SECONDS = 30;
    private static final long WAIT_NANOS = 100_000;
    private static final Pattern NAME = Pattern.compile("join-(\\d+)\\.bin");

    private final Path directory;
    private final String configuration;
    private final long minEvery;
    private final Buffer body = new Buffer();
    private final DataOutputStream out = new DataOutputStream(body);
    private final CRC32 checksum = new CRC32();
    private final ExecutorService writer;
    private final Runnable writePending = this::writePending;
    /** True from handing the buffer to the writing thread until it has written it. */
    private volatile boolean writing;
    private long pendingOffset;
    private long pendingDocuments;
    private final long checkpointLag;

    /**
     * On the writing thread: this run's milestone files (one at least half a checkpoint lag after the one before), as
     * offset and documents read when each was encoded, oldest first, from the anchor on.
     */
    private final List<long[]> milestones = new ArrayList<>();
    /** The newest file before the offset this run resumed at, or -1: the file a crash before this run's own needs. */
    private long restoredFloor = -1;

    /**
     * @param directory     the directory of the files (created on the first write).
     * @param configuration the pipeline's join configuration: the joins, their tables' definitions and the horizon's
     *                      durations; a file of another is not read.
     * @param minEvery      the fewest documents read between two files ({@link #MIN_EVERY}; less only in tests).
     */
    public JoinSnapshots(final Path directory, final String configuration, final long minEvery)
    {
        this(directory, configuration, minEvery, 0);
    }

    /**
     * @param directory     the directory of the files (created on the first write).
     * @param configuration the pipeline's join configuration; a file of another is not read.
     * @param minEvery      the fewest documents read between two files ({@link #MIN_EVERY}; less only in tests).
     * @param checkpointLag how many documents the pipeline's newest checkpoint may lie behind its reading (twice its
     *                      checkpoint interval and its ring, say): besides the {@value #KEPT} newest files, the newest
     *                      file written at least that many documents ago is kept, so a resume after a crash finds a
     *                      file at or before its checkpoint.
     */
    public JoinSnapshots(final Path directory, final String configuration, final long minEvery, final long checkpointLag)
    {
        this.checkpointLag = checkpointLag;
        if (minEvery < 1)
        {
            throw new IllegalArgumentException("at least one document between join-state files: " + minEvery);
        }
        this.directory = directory;
        this.configuration = configuration;
        this.minEvery = minEvery;
        this.writer = Executors.newSingleThreadExecutor(task -> {
            final Thread thread = new Thread(task, "weir-join-state");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * @param entries the state's entries.
     * @return the fewest documents to read before the next file.
     */
    long every(final long entries)
    {
        return Math.max(minEvery, 4 * entries);
    }

    /**
     * Encode a state as of an offset into this writer's buffer and hand it to the writing thread, which writes the
     * file then deletes all but the {@value #KEPT} newest; first wait for that thread to finish the previous file, if
     * it has not yet (so every file due is written, whatever the disk's speed). Allocates nothing once the buffer has
     * grown to the state's size, but a task queued for the writing thread.
     *
     * @param state  the state, on its owner thread.
     * @param offset the offset of the last document read into it.
     */
    void write(final TableJoins state, final long offset, final long documents)
    {
        while (writing)
        {
            LockSupport.parkNanos(WAIT_NANOS);
        }
        body.reset();
        try
        {
            JoinStateFile.writeBody(out, configuration, offset, state);
            checksum.reset();
            checksum.update(body.bytes(), 0, body.size());
            out.writeInt((int)checksum.getValue());
        }
        catch (final IOException inMemory)
        {
            throw new UncheckedIOException(inMemory); // a byte array stream does not fail
        }
        pendingOffset = offset;
        pendingDocuments = documents;
        writing = true;
        try
        {
            writer.execute(writePending);
        }
        catch (final RejectedExecutionException closed)
        {
            writing = false;
            LOG.warn("join state of offset {} not written to {}: its writer is closed", offset, directory);
        }
    }

    /** On the writing thread: write the buffer's file, delete the older files, then let the owner encode again. */
    private void writePending()
    {
        final long offset = pendingOffset;
        try
        {
            Files.createDirectories(directory);
            final Path file = file(offset);
            FileReplacement.replace(file, file.resolveSibling(file.getFileName() + ".tmp"), true, ByteBuffer.wrap(body.bytes(), 0, body.size()));
            final long documents = pendingDocuments;
            if (milestones.isEmpty() || documents - milestones.get(milestones.size() - 1)[1] >= checkpointLag / 2)
            {
                milestones.add(new long[] {offset, documents});
            }
            final long anchor = anchor(documents);
            final List<Long> offsets = offsets();
            for (int i = KEPT; i < offsets.size(); i++)
            {
                if (!kept(offsets.get(i), anchor))
                {
                    Files.deleteIfExists(file(offsets.get(i)));
                }
            }
        }
        catch (final IOException ex)
        {
            LOG.warn("join state of offset {} not written to {} ({}): a resume reads the journal from an older one", offset, directory, ex.toString());
        }
        finally
        {
            writing = false;
        }
    }

    /**
     * @param documents the documents read when the newest file was encoded.
     * @return the offset of the newest milestone written at least {@code checkpointLag} documents before, or -1 if
     *         none is yet (older milestones are forgotten: never needed again).
     */
    private long anchor(final long documents)
    {
        for (int i = milestones.size() - 1; i >= 0; i--)
        {
            if (documents - milestones.get(i)[1] >= checkpointLag)
            {
                milestones.subList(0, i).clear();
                return milestones.get(0)[0];
            }
        }
        return -1;
    }

    /**
     * @return true if a file beyond the {@value #KEPT} newest is kept: a milestone from the anchor on; without an
     *         anchor yet, every milestone of this run and the file this run resumed after.
     */
    private boolean kept(final long offset, final long anchor)
    {
        if (anchor < 0 && offset == restoredFloor)
        {
            return true;
        }
        for (final long[] milestone : milestones)
        {
            if (milestone[0] == offset)
            {
                return offset >= anchor;
            }
        }
        return false;
    }

    /** Wait for the file being written, if any, then end the writing thread. */
    public void close()
    {
        writer.shutdown();
        try
        {
            if (!writer.awaitTermination(CLOSE_SECONDS, TimeUnit.SECONDS))
            {
                LOG.warn("join-state file in {} still being written after {} s", directory, CLOSE_SECONDS);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** A byte array stream whose array is read in place. */
    private static final class Buffer extends ByteArrayOutputStream
    {
        Buffer()
        {
            super(4096);
        }

        byte[] bytes()
        {
            return buf;
        }
    }

    /**
     * Note where this run resumes: the newest file before it is kept until this run has written one of its own far
     * enough back (a crash before this run's first checkpoint resumes at the same place).
     *
     * @param firstUnread the first offset this run reads, or {@link Long#MIN_VALUE} from the start.
     */
    void resumingAt(final long firstUnread)
    {
        restoredFloor = -1;
        for (final long offset : offsets())
        {
            if (firstUnread != Long.MIN_VALUE && offset < firstUnread && offset > restoredFloor)
            {
                restoredFloor = offset;
            }
        }
    }

    /**
     * Restore a state as of just before an offset.
     *
     * @param fresh       makes a new, empty state.
     * @param journal     the journal.
     * @param firstUnread the first offset the run reads, or {@link Long#MIN_VALUE} for the journal's start.
     * @return the state, as after reading the journal before {@code firstUnread}.
     */
    public TableJoins restore(final Supplier<TableJoins> fresh, final JournalDirectory journal, final long firstUnread)
    {
        resumingAt(firstUnread);
        if (firstUnread != Long.MIN_VALUE)
        {
            for (final long offset : offsets())
            {
                if (offset >= firstUnread)
                {
                    continue;
                }
                final TableJoins state = fresh.get();
                try
                {
                    JoinStateFile.read(file(offset), configuration, offset, state);
                    state.readBefore(journal, firstUnread);
                    return state;
                }
                catch (final JoinStateFile.Unusable unusable)
                {
                    LOG.warn("join-state file {} is {}: skipped", file(offset), unusable.getMessage());
                }
                catch (final OffsetUnavailableException removed)
                {
                    LOG.info("join-state file {} is of a journal cycle retention removed: skipped", file(offset));
                }
            }
        }
        final TableJoins state = fresh.get();
        state.readBefore(journal, firstUnread);
        return state;
    }

    /** @return the offsets of the files in the directory, newest first. */
    List<Long> offsets()
    {
        final List<Long> offsets = new ArrayList<>();
        if (!Files.isDirectory(directory))
        {
            return offsets;
        }
        try (Stream<Path> files = Files.list(directory))
        {
            files.forEach(file -> {
                final Matcher name = NAME.matcher(file.getFileName().toString());
                if (name.matches())
                {
                    try
                    {
                        offsets.add(Long.parseLong(name.group(1)));
                    }
                    catch (final NumberFormatException tooLong)
                    {
                        // not a name this class writes
                    }
                }
            });
        }
        catch (final IOException ex)
        {
            LOG.warn("join-state files in {} not listed ({}): the journal is read from its start", directory, ex.toString());
            offsets.clear();
        }
        offsets.sort(Collections.reverseOrder());
        return offsets;
    }

    /**
     * @param offset an offset.
     * @return the file of the state as of it.
     */
    public Path file(final long offset)
    {
        return directory.resolve("join-" + offset + ".bin");
    }
}
