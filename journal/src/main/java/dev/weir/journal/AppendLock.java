package dev.weir.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The single-appender rule of one queue of a journal, enforced: an exclusive operating-system lock
 * ({@link FileChannel#tryLock()}) on the file {@code <queue>.lock} in the directory that holds the queue
 * (the journal's root for {@code events}, the pipeline's directory for {@code results}), held from
 * {@link #acquire} to {@link #close()}. A second appender, in another process or in this one, is
 * refused at once with a {@link JournalRefusedException} naming the holder's process id. The
 * operating system releases the lock when its process dies in any way (kill -9 included), so a crash
 * never leaves a journal locked; the lock file itself stays and is harmless. Readers take no lock.
 * <p>
 * Owned by the appender that acquired it; {@link #close()} is idempotent.
 */
final class AppendLock implements AutoCloseable
{
    /**
     * The lock files this JVM holds. A second channel on a held file is never opened: closing it would release
     * the holder's lock too (POSIX locks belong to the process, and closing any of its descriptors of the file
     * releases them), leaving the file open to other processes while this one still writes.
     */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final FileChannel channel;
    private final FileLock lock;
    private final Path key;

    private AppendLock(final FileChannel channel, final FileLock lock, final Path key)
    {
        this.channel = channel;
        this.lock = lock;
        this.key = key;
    }

    /**
     * @param directory the journal, as the pipeline appending sees it.
     * @param home      the directory holding the queue: {@link JournalDirectory#root()} for the events,
     *                  {@link JournalDirectory#pipelineRoot()} for a pipeline's results (created if missing).
     * @param queue     the queue appended to: {@code events} or {@code results}.
     * @return the held lock.
     * @throws JournalRefusedException if another appender holds it.
     */
    static AppendLock acquire(final JournalDirectory directory, final Path home, final String queue)
    {
        final Path file = home.resolve(queue + ".lock");
        try
        {
            Files.createDirectories(home);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot lock " + file, ex);
        }
        final AppendLock held = tryAcquire(home, queue);
        if (held == null)
        {
            final String holder = holder(file);
            throw new JournalRefusedException(directory.root(), "its " + queue + " queue"
                + (home.equals(directory.root()) ? "" : " of pipeline " + directory.pipelineName())
                + " already has an appender"
                + (holder.isEmpty() ? "" : " (process " + holder + ")") + ", which holds " + file
                + ": one appender at a time may write a journal's " + queue + "; stop the other one first, or wait for it to end");
        }
        return held;
    }

    /**
     * Take the lock only if it is free now, as an occasional appender that must not wait for or refuse the
     * regular one (e.g. a follower's heartbeats while an ingest appends).
     *
     * @param home  the directory holding the queue.
     * @param queue the queue appended to.
     * @return the held lock, or null if another appender (in this process or another) holds it.
     * @throws UncheckedIOException if the lock file cannot be opened.
     */
    static AppendLock tryAcquire(final Path home, final String queue)
    {
        final Path file = home.resolve(queue + ".lock");
        final Path key = file.toAbsolutePath().normalize();
        if (!HELD.add(key))
        {
            return null; // held by this JVM
        }
        FileChannel channel = null;
        try
        {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock;
            try
            {
                lock = channel.tryLock();
            }
            catch (final OverlappingFileLockException ex)
            {
                lock = null; // held by this JVM, not through this class
            }
            if (lock == null)
            {
                channel.close();
                HELD.remove(key);
                return null;
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
            return new AppendLock(channel, lock, key);
        }
        catch (final IOException ex)
        {
            closeQuietly(channel);
            HELD.remove(key);
            throw new UncheckedIOException("cannot lock " + file, ex);
        }
    }

    /**
     * @param file a lock file.
     * @return the process id its holder wrote in it, or "" if unknown. This process's own id if it holds the
     *         file: the file is then not opened (see {@link #HELD}).
     */
    static String holder(final Path file)
    {
        if (HELD.contains(file.toAbsolutePath().normalize()))
        {
            return Long.toString(ProcessHandle.current().pid());
        }
        try
        {
            return Files.readString(file, StandardCharsets.US_ASCII).trim();
        }
        catch (final IOException ex)
        {
            return "";
        }
    }

    private static void closeQuietly(final FileChannel channel)
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignored)
            {
                // already failing
            }
        }
    }

    /**
     * Release the lock.
     */
    @Override
    public void close()
    {
        if (channel.isOpen())
        {
            try
            {
                lock.release();
            }
            catch (final IOException ignored)
            {
                // closing the channel releases it too
            }
            closeQuietly(channel);
            HELD.remove(key);
        }
    }
}
