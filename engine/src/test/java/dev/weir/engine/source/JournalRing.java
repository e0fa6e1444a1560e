package dev.weir.engine.source;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.WaitStrategy;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalReader;

/**
 * A shared harness for the ring's components: a real journal the test appends events to, and a real
 * single-producer Disruptor ring of {@link EventSlot}s. Event {@code i} has id {@code i}, time
 * {@code 10 * i}, key {@code "k" + i % 5} and value {@code i}. Not thread-safe: the test's thread appends.
 */
public final class JournalRing implements AutoCloseable
{
    public final EventJournal journal;
    public final List<Long> offsets = new ArrayList<>();

    public JournalRing(final Path dir)
    {
        journal = EventJournal.openOrCreate(dir);
    }

    /** Append events, continuing the numbering. */
    public void append(final int count)
    {
        for (int n = 0; n < count; n++)
        {
            final int i = offsets.size();
            offsets.add(journal.append(i, 10L * i, "k" + i % 5, i));
        }
    }

    /** @return a reader at the journal's start, handed off to the thread that uses it next. */
    public JournalReader reader()
    {
        final JournalReader reader = JournalReader.open(journal.directory());
        reader.handOff();
        return reader;
    }

    public static RingBuffer<EventSlot> ring(final int size, final WaitStrategy waitStrategy)
    {
        return RingBuffer.createSingleProducer(EventSlot::new, size, waitStrategy);
    }

    @Override
    public void close()
    {
        journal.close();
    }
}
