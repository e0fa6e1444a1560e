package dev.weir.journal;

import java.nio.file.Path;

import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.queue.rollcycles.LargeRollCycles;

/**
 * How Weir opens every Chronicle Queue it uses: one roll cycle and one set of options, so that every
 * writer and reader of a journal agrees on the index layout (the offset).
 * <p>
 * {@link LargeRollCycles#LARGE_DAILY} is used: a daily file holds far more messages than the default
 * cycle, and the index of a message, {@code (cycle << bits) | sequence}, grows with append order.
 * Stateless and thread-safe.
 */
final class JournalQueues
{
    /**
     * The clock of the queues opened from now on, for tests that roll cycles at will; null (the default) for the
     * system clock. A test hook only: set it before opening, reset it to null after.
     */
    static volatile net.openhft.chronicle.core.time.TimeProvider testClock;

    private JournalQueues()
    {
    }

    static SingleChronicleQueue open(final JournalDirectory directory, final Path queuePath)
    {
        JvmFlags.prepare();
        try
        {
            final SingleChronicleQueueBuilder builder = SingleChronicleQueueBuilder.single(queuePath.toFile())
                .rollCycle(LargeRollCycles.LARGE_DAILY);
            final net.openhft.chronicle.core.time.TimeProvider clock = testClock;
            if (clock != null)
            {
                builder.timeProvider(clock);
            }
            return builder.build();
        }
        catch (final RuntimeException ex)
        {
            throw new JournalRefusedException(
                directory.root(), "its queue '" + queuePath.getFileName() + "' cannot be opened (" + ex + ")", ex);
        }
    }
}
