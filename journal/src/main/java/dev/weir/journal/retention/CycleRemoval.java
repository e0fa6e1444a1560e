package dev.weir.journal.retention;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.files.FileReplacement;

/**
 * Removes one whole roll-cycle file from a queue of a journal: deletes it, or moves it into an archive
 * directory that mirrors the journal's layout ({@code ARCHIVE/events/FILE}, {@code ARCHIVE/results/FILE},
 * {@code ARCHIVE/pipelines/NAME/results/FILE}), so that the archived cycles read back as a queue with the same
 * offsets.
 * <p>
 * A move is a rename where the archive is on the same file system; elsewhere the file is copied to a
 * temporary name in the archive, forced, renamed into place and its directory forced before the original is
 * deleted, so a crash at any moment leaves the cycle in the journal, in the archive, or in both (a rerun
 * then copies it again), never in neither. The queue's directory is forced after the deletion.
 * <p>
 * Deciding which cycles may go is the caller's (the retention floor): Chronicle Queue does not stop a reader
 * from skipping a deleted cycle. Stateless and thread-safe.
 */
public final class CycleRemoval
{
    private CycleRemoval()
    {
    }

    /**
     * @param journal the journal whose queue holds the cycle.
     * @param queue   the queue's directory ({@link JournalCycles#queue()}), inside the journal's root.
     * @param file    the cycle's file name ({@link JournalCycles.Cycle#fileName()}).
     * @param archive the archive's root directory, or null to delete the cycle.
     * @return where the cycle was archived, or null if it was deleted (or was already gone).
     * @throws UncheckedIOException if it cannot be moved or deleted; it is then still in the journal.
     */
    public static Path remove(final JournalDirectory journal, final Path queue, final String file, final Path archive)
    {
        final Path source = queue.resolve(file);
        try
        {
            if (!Files.exists(source))
            {
                return null;
            }
            Path archived = null;
            if (archive != null)
            {
                archived = archivedPath(journal, queue, file, archive);
                Files.createDirectories(archived.getParent());
                try
                {
                    Files.move(source, archived, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    FileReplacement.forceDirectory(archived.getParent());
                    FileReplacement.forceDirectory(queue);
                    return archived;
                }
                catch (final AtomicMoveNotSupportedException otherFileSystem)
                {
                    final Path temp = archived.resolveSibling(archived.getFileName() + ".tmp");
                    Files.copy(source, temp, StandardCopyOption.REPLACE_EXISTING);
                    FileReplacement.install(temp, archived);
                }
            }
            Files.delete(source);
            FileReplacement.forceDirectory(queue);
            return archived;
        }
        catch (final NoSuchFileException gone)
        {
            return null; // removed meanwhile (by a retention step killed after its removal): nothing left to do
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot remove the cycle file " + source + (archive == null ? "" : " into " + archive), ex);
        }
    }

    /**
     * @param journal the journal.
     * @param queue   one of its queues' directories.
     * @param file    a cycle file's name.
     * @param archive an archive's root.
     * @return where that cycle lives in the archive.
     */
    public static Path archivedPath(final JournalDirectory journal, final Path queue, final String file, final Path archive)
    {
        return archive.resolve(journal.root().relativize(queue)).resolve(file);
    }
}
