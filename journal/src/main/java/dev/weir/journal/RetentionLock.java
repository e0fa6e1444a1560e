package dev.weir.journal;

/**
 * At most one retention step at a time on a journal, in any process: an exclusive operating-system lock on
 * the file {@code retention.lock} in the journal's root (the same mechanism as the single-appender rule,
 * {@link AppendLock}), held from {@link #acquire} to {@link #close()} and released by the operating system if
 * the process dies in any way. A second retention step (a {@code weir retain} while a following run applies
 * its own retention) is refused at once with a {@link JournalRefusedException} naming the holder.
 * <p>
 * Owned by the thread that acquired it; {@link #close()} is idempotent.
 */
public final class RetentionLock implements AutoCloseable
{
    private final AppendLock lock;

    private RetentionLock(final AppendLock lock)
    {
        this.lock = lock;
    }

    /**
     * @param journal the journal (any pipeline's view of it: the lock is the journal's).
     * @return the held lock.
     * @throws JournalRefusedException if another retention step holds it.
     */
    public static RetentionLock acquire(final JournalDirectory journal)
    {
        final RetentionLock held = tryAcquire(journal);
        if (held == null)
        {
            throw new JournalRefusedException(journal.root(), "another retention step is running on it (process "
                + holder(journal) + ", which holds " + file(journal) + "): one at a time; wait for it to end");
        }
        return held;
    }

    /**
     * @param journal the journal.
     * @return the held lock, or null if another retention step holds it now (a following run's periodic
     *         retention then simply tries again later).
     */
    public static RetentionLock tryAcquire(final JournalDirectory journal)
    {
        final AppendLock lock = AppendLock.tryAcquire(journal.root(), "retention");
        return lock == null ? null : new RetentionLock(lock);
    }

    private static java.nio.file.Path file(final JournalDirectory journal)
    {
        return journal.root().resolve("retention.lock");
    }

    private static String holder(final JournalDirectory journal)
    {
        final String holder = AppendLock.holder(file(journal));
        return holder.isEmpty() ? "unknown" : holder;
    }

    @Override
    public void close()
    {
        lock.close();
    }
}
