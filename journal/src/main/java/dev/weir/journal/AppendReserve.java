package dev.weir.journal;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Allocates the disk space of a queue's cycle file ahead of its appender, with ordinary file writes of
 * zeros, so that a full filesystem fails as an {@link UncheckedIOException} before a document is written,
 * never part way through one.
 * <p>
 * Chronicle Queue writes through a memory mapping of a sparse cycle file: a page is allocated on disk
 * when it is first touched, and if the filesystem is full that touch raises SIGBUS, which Java turns into
 * an {@link InternalError} some instructions later (or a JVM crash in some copy stubs). A document whose
 * header lay on an allocated page and whose body on an unallocatable one was then committed with its
 * body missing, read back later as zeros: a wrong event that a rerun trusts. With this reserve every page
 * a document can touch was allocated by a file write first (the filesystem returns ENOSPC to a write,
 * cleanly); if that fails, the document is rolled back and nothing of it is ever readable.
 * <p>
 * {@link #before} is called inside each writing document, before its body: while at least
 * {@link #AHEAD} bytes past the document's largest possible end are reserved it costs two field reads;
 * otherwise it writes zeros from the body's start (nothing is stored there yet) to {@code 2 * AHEAD} past
 * that end, about once per MiB appended. Only the one appender writes past its write position, so these
 * zeros overwrite nothing.
 * <p>
 * Not thread-safe: the appender's owner thread only.
 */
final class AppendReserve implements AutoCloseable
{
    /** Bytes reserved past the end of the largest document that may be written next. */
    static final long AHEAD = 1 << 20;

    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(64 << 10).asReadOnlyBuffer();

    private final Path queueDirectory;
    /** This reserve's own view of {@link #ZEROS}: reused for every write, so reserving allocates nothing. */
    private final ByteBuffer zeros = ZEROS.duplicate();
    private FileChannel channel;
    private int cycle = Integer.MIN_VALUE;
    private long reservedUpTo;

    /**
     * @param queueDirectory the queue's directory, named in error messages.
     */
    AppendReserve(final Path queueDirectory)
    {
        this.queueDirectory = queueDirectory;
    }

    /**
     * Make sure the document being written, up to {@code maxBodyBytes}, and {@link #AHEAD} bytes after
     * it are allocated on disk; call it inside the writing document, before writing its body.
     *
     * @param dc           the document being written.
     * @param appender     the appender writing it.
     * @param maxBodyBytes the most bytes its body can take.
     * @throws UncheckedIOException if the space cannot be allocated (the filesystem is full); the
     *                              document is then rolled back when it is closed.
     */
    void before(final DocumentContext dc, final ExcerptAppender appender, final long maxBodyBytes)
    {
        final long at = dc.wire().bytes().writePosition();
        final long end = at + maxBodyBytes;
        if (appender.cycle() == cycle && end + AHEAD <= reservedUpTo)
        {
            return;
        }
        try
        {
            if (appender.cycle() != cycle)
            {
                open(appender.currentFile());
                cycle = appender.cycle();
                reservedUpTo = 0;
            }
            final long target = end + 2 * AHEAD;
            long position = Math.max(at, reservedUpTo);
            while (position < target)
            {
                zeros.clear().limit((int)Math.min(zeros.capacity(), target - position));
                position += channel.write(zeros, position);
            }
            reservedUpTo = target;
        }
        catch (final IOException ex)
        {
            dc.rollbackOnClose();
            throw new UncheckedIOException("cannot append to " + queueDirectory + ": the disk is full ("
                + freeBytes() + " bytes free; " + ex.getMessage() + "). Nothing half-written was kept: free some space "
                + "and run again to continue where this run stopped", ex);
        }
    }

    private void open(final File file) throws IOException
    {
        close();
        channel = FileChannel.open(file.toPath(), StandardOpenOption.WRITE);
    }

    private String freeBytes()
    {
        try
        {
            return String.format("%,d", Files.getFileStore(queueDirectory).getUsableSpace());
        }
        catch (final IOException ex)
        {
            return "unknown";
        }
    }

    @Override
    public void close()
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ex)
            {
                // nothing was written through this channel that the mapping does not also hold
            }
            channel = null;
        }
    }
}
