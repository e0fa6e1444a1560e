package dev.weir.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.weir.journal.JournalDirectory;

/**
 * Journals of batched documents (marker version {@value JournalDirectory#FORMAT_VERSION_BATCHED}) for tests, while new
 * journals are still created with one record per document: a journal created empty, then its marker's version set to
 * {@value JournalDirectory#FORMAT_VERSION_BATCHED} before anything is appended to its queues. Stateless.
 */
public final class BatchedJournals
{
    private BatchedJournals()
    {
    }

    /**
     * @param root where to create the journal (default columns); nothing may exist there yet, or an empty journal.
     * @return {@code root}, a journal of batched documents.
     */
    public static Path create(final Path root)
    {
        JournalDirectory.openOrCreate(root);
        final Path marker = root.resolve(JournalDirectory.MARKER_FILE);
        try
        {
            final List<String> lines = new ArrayList<>(Files.readAllLines(marker, StandardCharsets.UTF_8));
            lines.set(1, "version=" + JournalDirectory.FORMAT_VERSION_BATCHED);
            Files.write(marker, lines, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        if (!JournalDirectory.open(root).offsets().batched())
        {
            throw new IllegalStateException("not a journal of batched documents: " + root);
        }
        return root;
    }
}
