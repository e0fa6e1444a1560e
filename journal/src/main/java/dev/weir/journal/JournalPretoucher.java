package dev.weir.journal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import net.openhft.chronicle.bytes.MappedBytes;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueStore;

/**
 * Touches the pages of the events queue's current cycle file ahead of its appender, from a daemon thread
 * of its own, so that the appender finds them already mapped instead of taking the page faults itself.
 * <p>
 * Chronicle Queue's open-source edition has no working pretoucher ({@code ExcerptAppender.pretouch()} and
 * {@code ChronicleQueue.createPretoucher()} are enterprise features), so this is the journal's own, done the
 * way Chronicle's appender touches its next page ({@code MicroToucher}): a compare-and-set of 0 to 0 on one
 * long in each page. The set either finds a 0 and stores the same 0, or finds what the appender wrote and
 * stores nothing, atomically in both cases, so it never changes a byte of the journal whatever the appender
 * does at the same time. It maps the file through the queue's own store ({@code storeForCycle}), so the
 * pages it faults in are the appender's mapping.
 * <p>
 * Every 200 µs the thread reads the store's write position (the start of the last document written) and
 * touches each page from the one after it up to {@code aheadBytes} past it that it has not touched yet;
 * when the queue rolls to a new cycle it moves to the new cycle's file, and starts touching it once a
 * document has been written there since it saw the file (the appender has reserved its space by then).
 * Nothing on the appender's thread changes. If a touch fails, the thread stops ({@link #failure()}); the
 * appender does not depend on it.
 * <p>
 * Thread-safety: started and closed by the journal's owner thread ({@link EventJournal#pretouch(long)},
 * {@link EventJournal#close()}); its work runs only on its own thread. {@link #close()} stops the thread and
 * waits for it, and is idempotent.
 */
public final class JournalPretoucher implements AutoCloseable
{
    /**
     * The farthest it touches past the write position, and the default: 1 MiB, about 25 ms of appends at
     * 1 M/s. Every page that far ahead is already allocated on disk by the appender's reserve
     * ({@code AppendReserve}), so a touch never allocates a block and a full filesystem can never fault it.
     */
    public static final long MAX_AHEAD_BYTES = AppendReserve.AHEAD;

    private static final int PAGE = 4096;
    private static final long PERIOD_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    private final SingleChronicleQueue queue;
    private final long aheadBytes;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long pagesTouched;
    private volatile Throwable failure;

    private JournalPretoucher(final SingleChronicleQueue queue, final long aheadBytes, final String name)
    {
        if (aheadBytes < PAGE || aheadBytes > MAX_AHEAD_BYTES)
        {
            throw new IllegalArgumentException("aheadBytes " + aheadBytes + " is not between a page and " + MAX_AHEAD_BYTES);
        }
        this.queue = queue;
        this.aheadBytes = aheadBytes;
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
    }

    /**
     * Start touching ahead of a queue's appender.
     *
     * @param queue      the queue.
     * @param aheadBytes how far past the write position to touch, from a page to {@link #MAX_AHEAD_BYTES}.
     * @param name       the thread's name.
     * @return the running pretoucher.
     */
    static JournalPretoucher start(final SingleChronicleQueue queue, final long aheadBytes, final String name)
    {
        final JournalPretoucher pretoucher = new JournalPretoucher(queue, aheadBytes, name);
        pretoucher.thread.start();
        return pretoucher;
    }

    /** @return the pages touched so far (each at most once per cycle file), for tests and reports. */
    public long pagesTouched()
    {
        return pagesTouched;
    }

    /** @return the id of the pretoucher's thread, for tests of what it allocates. */
    long threadId()
    {
        return thread.getId();
    }

    /** @return what stopped the thread early, or null while it runs or if it stopped on {@link #close()}. */
    public Throwable failure()
    {
        return failure;
    }

    private void run()
    {
        int cycle = Integer.MIN_VALUE;
        SingleChronicleQueueStore store = null;
        MappedBytes bytes = null;
        long touchedUpTo = 0;
        long firstSeen = 0;
        long touched = 0;
        try
        {
            while (running)
            {
                final int last = queue.lastCycle();
                if (last != cycle && last != Integer.MIN_VALUE)
                {
                    final SingleChronicleQueueStore next = queue.storeForCycle(last, queue.epoch(), false, null);
                    if (next != null)
                    {
                        release(store, bytes);
                        store = next;
                        bytes = next.bytes();
                        cycle = last;
                        touchedUpTo = 0;
                        firstSeen = next.writePosition();
                    }
                }
                final long position = bytes == null ? firstSeen : store.writePosition();
                if (position != firstSeen)
                {
                    final long limit = Math.min(position + aheadBytes, bytes.mappedFile().capacity() - Long.BYTES);
                    long page = Math.max(touchedUpTo, (position & -PAGE) + PAGE);
                    while (page < limit && running)
                    {
                        bytes.compareAndSwapLong(page, 0L, 0L);
                        page += PAGE;
                        touched++;
                    }
                    touchedUpTo = Math.max(touchedUpTo, page);
                    pagesTouched = touched;
                }
                LockSupport.parkNanos(PERIOD_NANOS);
            }
        }
        catch (final Throwable ex)
        {
            if (running)
            {
                failure = ex; // the appender does not need this thread: it only stops touching
            }
        }
        finally
        {
            release(store, bytes);
        }
    }

    private void release(final SingleChronicleQueueStore store, final MappedBytes bytes)
    {
        if (bytes != null)
        {
            bytes.releaseLast();
        }
        if (store != null)
        {
            queue.closeStore(store);
        }
    }

    /** Stop the thread and wait for it; idempotent. */
    @Override
    public void close()
    {
        running = false;
        LockSupport.unpark(thread);
        boolean interrupted = false;
        while (thread.isAlive())
        {
            try
            {
                thread.join();
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }
}
