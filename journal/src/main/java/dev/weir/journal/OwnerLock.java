package dev.weir.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * At most one process at a time owns a directory whose journals it creates and deletes as a whole (the directory
 * {@code weir run --kafka} keeps its partitions' journals in): an exclusive operating-system lock on the file
 * {@code owner.lock} in that directory (the same mechanism as the single-appender rule, {@link AppendLock}), held
 * from {@link #acquire} to {@link #close()} and released by the operating system if the process dies in any way
 * (kill -9 included). A second owner, in another process or in this one, is refused at once with a
 * {@link JournalRefusedException} naming the holder's process id.
 * <p>
 * Owned by the thread that acquired it; {@link #close()} is idempotent.
 */
public final class OwnerLock implements AutoCloseable
{
    private static final String NAME = "owner";

    private final AppendLock lock;

    private OwnerLock(final AppendLock lock)
    {
        this.lock = lock;
    }

    /**
     * @param directory the directory to own (created if missing).
     * @param advice    what the person refused should do, e.g. "give each instance its own --journal".
     * @return the held lock.
     * @throws JournalRefusedException if another owner holds it.
     * @throws UncheckedIOException    if the directory or its lock file cannot be created.
     */
    public static OwnerLock acquire(final Path directory, final String advice)
    {
        try
        {
            Files.createDirectories(directory);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create " + directory, ex);
        }
        final AppendLock lock = AppendLock.tryAcquire(directory, NAME);
        if (lock == null)
        {
            final Path file = directory.resolve(NAME + ".lock");
            final String holder = AppendLock.holder(file);
            throw new JournalRefusedException(directory, "another process" + (holder.isEmpty() ? "" : " (" + holder + ")")
                + " owns it, which holds " + file + ": one process at a time; " + advice);
        }
        return new OwnerLock(lock);
    }

    @Override
    public void close()
    {
        lock.close();
    }
}
