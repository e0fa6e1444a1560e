package dev.weir.journal;

import java.nio.file.Path;

import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;

/**
 * How Weir opens every Chronicle Queue it uses: the journal's roll cycle ({@link JournalDirectory#rollCycle()}),
 * the journal clock ({@link JournalClock#current()}) and one set of options, so that every writer and reader of
 * a journal agrees on the index layout (the offset).
 * <p>
 * The index of a message, {@code (cycle << bits) | sequence}, grows with append order. A queue whose
 * stored roll cycle is not the journal's is refused. Stateless and thread-safe.
 */
final class JournalQueues
{
    private JournalQueues()
    {
    }

    static SingleChronicleQueue open(final JournalDirectory directory, final Path queuePath)
    {
        JvmFlags.prepare();
        final JournalRollCycle rollCycle = directory.rollCycle();
        final SingleChronicleQueue queue;
        try
        {
            queue = SingleChronicleQueueBuilder.single(queuePath.toFile())
                .rollCycle(rollCycle.chronicle())
                .timeProvider(JournalClock.current().timeProvider())
                .build();
        }
        catch (final RuntimeException ex)
        {
            throw new JournalRefusedException(
                directory.root(), "its queue '" + queuePath.getFileName() + "' cannot be opened (" + ex + ")", ex);
        }
        if (queue.rollCycle() != rollCycle.chronicle())
        {
            final String found = String.valueOf(queue.rollCycle());
            queue.close();
            throw new JournalRefusedException(directory.root(), "its queue '" + queuePath.getFileName() + "' rolls with Chronicle's "
                + found + ", not the " + rollCycle.chronicle() + " of the journal's recorded roll cycle " + rollCycle);
        }
        return queue;
    }
}
