package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import dev.weir.engine.checkpoint.CheckpointCodec;
import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;

/**
 * The checkpoints of a journal whose run "died" before writing its newest ones, for the recovery benchmarks: after
 * a run to the end, {@link #crash} deletes the newest checkpoints until the newest left resumes before the journal's
 * last event (so a resumed run has processing to do); {@link #forgetNew} deletes what a resumed run wrote since.
 * Not thread-safe: the benchmark's thread.
 */
final class CrashedCheckpoints
{
    private final Path directory;
    private final Set<Path> kept = new HashSet<>();

    private CrashedCheckpoints(final Path directory)
    {
        this.directory = directory;
    }

    /**
     * @param journal a journal a run has processed to its end, with its checkpoints.
     * @return its checkpoints, the newest deleted until the newest left resumes before the last event.
     * @throws IOException if they cannot be listed or deleted.
     */
    static CrashedCheckpoints crash(final Path journal) throws IOException
    {
        final CrashedCheckpoints checkpoints = new CrashedCheckpoints(journal.resolve("checkpoints"));
        final long lastOffset;
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal)))
        {
            lastOffset = reader.lastOffset();
        }
        final CheckpointStore store = new CheckpointStore(checkpoints.directory, 3);
        final List<Path> files = checkpoints.list();
        int newest = files.size() - 1;
        while (CheckpointCodec.describe(store.loadNewestValid()).sourceOffset() >= lastOffset)
        {
            Files.delete(files.get(newest--));
        }
        checkpoints.kept.addAll(files.subList(0, newest + 1));
        System.out.printf("%n[setup] resuming from checkpoint %s%n", files.get(newest).getFileName());
        return checkpoints;
    }

    /**
     * Delete the checkpoints written since {@link #crash}.
     *
     * @throws IOException if they cannot be listed or deleted.
     */
    void forgetNew() throws IOException
    {
        for (final Path file : list())
        {
            if (!kept.contains(file))
            {
                Files.delete(file);
            }
        }
    }

    private List<Path> list() throws IOException
    {
        try (Stream<Path> files = Files.list(directory))
        {
            return files.filter(p -> p.getFileName().toString().startsWith("checkpoint-")).sorted().toList();
        }
    }
}
