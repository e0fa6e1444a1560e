package dev.weir.journal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NavigableSet;

import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

/**
 * The cycle files of one queue of a journal (its events, or one pipeline's results), as they are on disk now:
 * for each, oldest first, its cycle number, file name, the wall-clock span it covers (UTC, from the journal's
 * {@link JournalRollCycle}), its first and last offset, its document count and its size in bytes; and the
 * oldest offset the queue still holds.
 * <p>
 * Cheap: it reads Chronicle's directory listing (refreshed first, since Chronicle's own view goes stale when
 * a cycle file is deleted) and each cycle's index, never the documents. A cycle file deleted while the
 * listing is read is left out. The size is the file's length (its apparent size, which for a cycle still
 * being written includes space Chronicle reserved ahead; the blocks allocated may be fewer).
 * <p>
 * Immutable and thread-safe once taken.
 */
public final class JournalCycles
{
    private final Path queuePath;
    private final JournalRollCycle rollCycle;
    private final List<Cycle> cycles;

    /**
     * One cycle file of a queue.
     *
     * @param cycle       the cycle number (periods of the roll cycle since 1970-01-01T00:00Z).
     * @param fileName    the file's name in the queue directory.
     * @param startMillis when the cycle starts, epoch milliseconds UTC.
     * @param endMillis   when it ends (exclusive), epoch milliseconds UTC.
     * @param firstOffset the offset of its first document (of its slot 0, in a queue of batched documents).
     * @param lastOffset  the offset of its last document, or {@code firstOffset − 1} if it holds none; in a queue of
     *                    batched documents, the highest offset that document can hold (its last slot).
     * @param documents   how many documents it holds.
     * @param bytes       its size on disk: the file's length.
     */
    public record Cycle(
        int cycle, String fileName, long startMillis, long endMillis, long firstOffset, long lastOffset, long documents, long bytes)
    {
    }

    private JournalCycles(final Path queuePath, final JournalRollCycle rollCycle, final List<Cycle> cycles)
    {
        this.queuePath = queuePath;
        this.rollCycle = rollCycle;
        this.cycles = cycles;
    }

    /**
     * @param directory a journal.
     * @return the cycles of its events queue.
     */
    public static JournalCycles events(final JournalDirectory directory)
    {
        return of(directory, directory.eventsQueue());
    }

    /**
     * @param directory a journal, as one pipeline sees it.
     * @return the cycles of that pipeline's results queue (none if it has none yet: nothing is created).
     */
    public static JournalCycles results(final JournalDirectory directory)
    {
        return of(directory, directory.resultsQueue(), directory.offsets());
    }

    private static JournalCycles of(final JournalDirectory directory, final Path queuePath)
    {
        return of(directory, queuePath, JournalOffsets.INDEXED);
    }

    /**
     * @param offsets how the queue's offsets map to its documents: a cycle's first offset is that of slot 0 of its
     *                first document, its last offset the highest its last document can hold (slot
     *                {@code maxSlots() - 1}), so a position before a cycle's last offset may lie in it.
     */
    private static JournalCycles of(final JournalDirectory directory, final Path queuePath, final JournalOffsets offsets)
    {
        if (!Files.isDirectory(queuePath))
        {
            return new JournalCycles(queuePath, directory.rollCycle(), List.of());
        }
        try (SingleChronicleQueue queue = JournalQueues.open(directory, queuePath);
             ExcerptTailer tailer = queue.createTailer())
        {
            return new JournalCycles(queuePath, directory.rollCycle(), list(directory.rollCycle(), queue, tailer, queuePath, offsets));
        }
    }

    private static List<Cycle> list(final JournalRollCycle rollCycle, final SingleChronicleQueue queue, final ExcerptTailer tailer,
        final Path queuePath, final JournalOffsets offsets)
    {
        NavigableSet<Long> numbers = null;
        for (int attempt = 0; numbers == null; attempt++)
        {
            queue.refreshDirectoryListing();
            final int first = queue.firstCycle();
            final int last = queue.lastCycle();
            if (first == Integer.MAX_VALUE || last < first)
            {
                return List.of();
            }
            try
            {
                numbers = queue.listCyclesBetween(first, last);
            }
            catch (final IllegalStateException ex) // the lowest cycle file was deleted since the refresh
            {
                if (attempt >= 3)
                {
                    throw ex;
                }
            }
        }
        final List<Cycle> cycles = new ArrayList<>(numbers.size());
        for (final Long number : numbers)
        {
            final int cycle = number.intValue();
            final Path file = queuePath.resolve(rollCycle.fileName(cycle));
            try
            {
                final long bytes = Files.size(file);
                final long documents = tailer.excerptsInCycle(cycle);
                if (documents < 0 || !Files.exists(file))
                {
                    continue; // deleted in between
                }
                final long firstIndex = rollCycle.offsetOf(cycle, 0);
                final long start = rollCycle.startMillis(cycle);
                cycles.add(new Cycle(cycle, file.getFileName().toString(), start, start + rollCycle.lengthMillis(),
                    offsets.offset(firstIndex, 0), documents == 0 ? offsets.offset(firstIndex, 0) - 1
                    : offsets.offset(firstIndex + documents - 1, offsets.maxSlots() - 1), documents, bytes));
            }
            catch (final NoSuchFileException ex)
            {
                continue; // deleted in between
            }
            catch (final IOException ex)
            {
                throw new java.io.UncheckedIOException("cannot read the size of " + file, ex);
            }
            catch (final RuntimeException ex)
            {
                if (Files.exists(file))
                {
                    throw ex;
                }
            }
        }
        return Collections.unmodifiableList(cycles);
    }

    /**
     * @return the queue's directory.
     */
    public Path queue()
    {
        return queuePath;
    }

    /**
     * @return the journal's roll cycle.
     */
    public JournalRollCycle rollCycle()
    {
        return rollCycle;
    }

    /**
     * @return the cycle files, oldest first; empty if the queue has none.
     */
    public List<Cycle> cycles()
    {
        return cycles;
    }

    /**
     * @return the offset of the oldest document the queue still holds, or -1 if it holds none.
     */
    public long oldestOffset()
    {
        for (final Cycle cycle : cycles)
        {
            if (cycle.documents() > 0)
            {
                return cycle.firstOffset();
            }
        }
        return -1;
    }

    /**
     * @return the sum of the cycle files' sizes, in bytes (the queue's other files, such as its metadata, are not counted).
     */
    public long totalBytes()
    {
        long total = 0;
        for (final Cycle cycle : cycles)
        {
            total += cycle.bytes();
        }
        return total;
    }
}
