package dev.weir.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Journals of batched documents ({@link JournalDirectory#FORMAT_VERSION_BATCHED}, {@link JournalOffsets#SLOTTED}) for
 * tests, while new journals are still created with single-record documents: a journal created empty, its marker's
 * version then set to 5 before anything is written to its queues.
 */
final class BatchedJournals
{
    private BatchedJournals()
    {
    }

    /**
     * @param root where to create the journal (default columns).
     * @return the journal, of marker version 5.
     */
    static JournalDirectory create(final Path root)
    {
        JournalDirectory.openOrCreate(root);
        return batched(root);
    }

    /**
     * @param root an empty journal: nothing appended to its queues yet.
     * @return the journal, its marker now of version 5.
     */
    static JournalDirectory batched(final Path root)
    {
        final Path marker = root.resolve(JournalDirectory.MARKER_FILE);
        try
        {
            final List<String> lines = new java.util.ArrayList<>(Files.readAllLines(marker, StandardCharsets.UTF_8));
            lines.set(1, "version=" + JournalDirectory.FORMAT_VERSION_BATCHED);
            Files.write(marker, lines, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final JournalDirectory directory = JournalDirectory.open(root);
        if (!directory.offsets().batched())
        {
            throw new IllegalStateException("not a journal of batched documents: " + root);
        }
        return directory;
    }
}
