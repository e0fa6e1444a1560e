package dev.weir.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Journals of single-record documents (marker versions 2 to 4, {@link JournalOffsets#INDEXED}) for tests, now that new
 * journals are created with batched documents (version 5): a journal created empty, its marker's version then set to the
 * one a Weir before batches gave it (4 if it records tables, else 3 if it gained columns, else 2) before anything is
 * written to its queues.
 */
final class IndexedJournals
{
    private IndexedJournals()
    {
    }

    /**
     * @param root an empty journal: nothing appended to its queues yet.
     * @return the journal, its marker now of the version a Weir before batches wrote.
     */
    static JournalDirectory indexed(final Path root)
    {
        final Path marker = root.resolve(JournalDirectory.MARKER_FILE);
        try
        {
            final List<String> lines = new ArrayList<>(Files.readAllLines(marker, StandardCharsets.UTF_8));
            final boolean tables = lines.stream().anyMatch(l -> l.startsWith("table=") || l.equals("events=pending"));
            final boolean added = lines.stream().anyMatch(l -> l.startsWith("added="));
            lines.set(1, "version=" + (tables ? JournalDirectory.FORMAT_VERSION_TABLES
                : added ? JournalDirectory.FORMAT_VERSION_ADDED_COLUMNS : JournalDirectory.FORMAT_VERSION));
            Files.write(marker, lines, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final JournalDirectory directory = JournalDirectory.open(root);
        if (directory.offsets().batched())
        {
            throw new IllegalStateException("still a journal of batched documents: " + root);
        }
        return directory;
    }
}
