package dev.weir.journal;

import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.SleepingIdleStrategy;

import net.openhft.chronicle.bytes.MappedBytes;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueStore;

/**
 * Touches the pages of the events queue's current cycle file ahead of its appender, as an Agrona
 * {@link Agent} on an {@link AgentRunner} of its own (a daemon thread named after its role), so that the
 * appender finds them already mapped instead of taking the page faults itself.
 * <p>
 * Chronicle Queue's open-source edition has no working pretoucher ({@code ExcerptAppender.pretouch()} and
 * {@code ChronicleQueue.createPretoucher()} are enterprise features), so this is the journal's own, done the
 * way Chronicle's appender touches its next page ({@code MicroToucher}): a compare-and-set of 0 to 0 on one
 * long in each page. The set either finds a 0 and stores the same 0, or finds what the appender wrote and
 * stores nothing, atomically in both cases, so it never changes a byte of the journal whatever the appender
 * does at the same time. It maps the file through the queue's own store ({@code storeForCycle}), so the
 * pages it faults in are the appender's mapping.
 * <p>
 * Every 200 µs (its duty cycle, then a {@link SleepingIdleStrategy}) it reads the store's write position (the start of the last document written) and
 * touches each page from the one after it up to {@code aheadBytes} past it that it has not touched yet;
 * when the queue rolls to a new cycle it moves to the new cycle's file, and starts touching it once a
 * document has been written there since it saw the file (the appender has reserved its space by then).
 * Nothing on the appender's thread changes. If a touch fails, the agent stops ({@link #failure()}); the
 * appender does not depend on it.
 * <p>
 * Thread-safety: started and closed by the journal's owner thread ({@link EventJournal#pretouch(long)},
 * {@link EventJournal#close()}); its work runs only on its runner's thread (and {@link #onClose()} on the
 * closing thread if that one never ran). {@link #close()} stops the runner and waits for it, and is
 * idempotent.
 */
public final class JournalPretoucher implements Agent, AutoCloseable
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
    private final String name;
    private AgentRunner runner;
    private volatile long pagesTouched;
    private volatile Throwable failure;
    /** The cycle whose file is mapped, and its mapping, or none yet; the agent's only, like what follows. */
    private int cycle = Integer.MIN_VALUE;
    private SingleChronicleQueueStore store;
    private MappedBytes bytes;
    private long touchedUpTo;
    private long firstSeen;
    private long touched;

    private JournalPretoucher(final SingleChronicleQueue queue, final long aheadBytes, final String name)
    {
        if (aheadBytes < PAGE || aheadBytes > MAX_AHEAD_BYTES)
        {
            throw new IllegalArgumentException("aheadBytes " + aheadBytes + " is not between a page and " + MAX_AHEAD_BYTES);
        }
        this.queue = queue;
        this.aheadBytes = aheadBytes;
        this.name = name;
    }

    /**
     * Start touching ahead of a queue's appender.
     *
     * @param queue      the queue.
     * @param aheadBytes how far past the write position to touch, from a page to {@link #MAX_AHEAD_BYTES}.
     * @param name       its role, and its thread's name.
     * @return the running pretoucher.
     */
    static JournalPretoucher start(final SingleChronicleQueue queue, final long aheadBytes, final String name)
    {
        final JournalPretoucher pretoucher = new JournalPretoucher(queue, aheadBytes, name);
        pretoucher.runner = new AgentRunner(new SleepingIdleStrategy(PERIOD_NANOS), pretoucher::failed, null, pretoucher);
        AgentRunner.startOnThread(pretoucher.runner, task ->
        {
            final Thread thread = new Thread(task);
            thread.setDaemon(true);
            return thread;
        });
        return pretoucher;
    }

    /** @return the pages touched so far (each at most once per cycle file), for tests and reports. */
    public long pagesTouched()
    {
        return pagesTouched;
    }

    /** @return the id of the pretoucher's thread, for tests of what it allocates; -1 before it runs. */
    long threadId()
    {
        final Thread thread = runner.thread();
        return thread == null ? -1 : thread.getId();
    }

    /** @return what stopped the agent early, or null while it runs or if it stopped on {@link #close()}. */
    public Throwable failure()
    {
        return failure;
    }

    /** What the runner catches (a failed release of the mapping on close): kept, unless a failure is already. */
    private void failed(final Throwable ex)
    {
        if (failure == null)
        {
            failure = ex;
        }
    }

    /**
     * One round: follow the queue to its newest cycle, and touch the pages ahead of the write position that
     * are not touched yet.
     *
     * @return the pages touched.
     * @throws AgentTerminationException if a touch failed: the agent stops, its {@link #failure()} kept.
     */
    @Override
    public int doWork()
    {
        try
        {
            return touchAhead();
        }
        catch (final RuntimeException | Error ex)
        {
            failure = ex; // the appender does not need this agent: it only stops touching
            throw new AgentTerminationException(ex, true);
        }
    }

    private int touchAhead()
    {
        final int last = queue.lastCycle();
        if (last != cycle && last != Integer.MIN_VALUE)
        {
            final SingleChronicleQueueStore next = queue.storeForCycle(last, queue.epoch(), false, null);
            if (next != null)
            {
                release();
                store = next;
                bytes = next.bytes();
                cycle = last;
                touchedUpTo = 0;
                firstSeen = next.writePosition();
            }
        }
        final long position = bytes == null ? firstSeen : store.writePosition();
        if (position == firstSeen)
        {
            return 0;
        }
        final long limit = Math.min(position + aheadBytes, bytes.mappedFile().capacity() - Long.BYTES);
        final long before = touched;
        long page = Math.max(touchedUpTo, (position & -PAGE) + PAGE);
        while (page < limit)
        {
            bytes.compareAndSwapLong(page, 0L, 0L);
            page += PAGE;
            touched++;
        }
        touchedUpTo = Math.max(touchedUpTo, page);
        pagesTouched = touched;
        return (int)(touched - before);
    }

    /** Release the mapping of the current cycle. */
    @Override
    public void onClose()
    {
        release();
    }

    @Override
    public String roleName()
    {
        return name;
    }

    private void release()
    {
        if (bytes != null)
        {
            bytes.releaseLast();
            bytes = null;
        }
        if (store != null)
        {
            queue.closeStore(store);
            store = null;
        }
    }

    /** Stop the agent and wait for it, without interrupting it (it parks at most 200 µs); idempotent. */
    @Override
    public void close()
    {
        runner.close(Integer.MAX_VALUE, thread -> { });
    }
}
