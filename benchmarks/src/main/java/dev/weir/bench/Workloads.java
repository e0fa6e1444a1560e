package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import dev.weir.journal.EventJournal;

/**
 * Journals filled with synthetic events for the benchmarks: {@code keys} keys chosen uniformly,
 * event time advancing by {@code msPerEvent} on average with a little disorder. Seeded: the same
 * arguments give the same journal.
 */
final class Workloads
{
    private Workloads()
    {
    }

    static Path filledJournal(final int events, final int keys, final double msPerEvent, final long seed) throws IOException
    {
        final Path dir = Files.createTempDirectory("weir-bench-");
        final Path journalDir = dir.resolve("journal");
        try (EventJournal journal = EventJournal.openOrCreate(journalDir))
        {
            final int[] ids = new int[keys];
            for (int k = 0; k < keys; k++)
            {
                ids[k] = journal.keyId("k" + k);
            }
            final SplittableRandom random = new SplittableRandom(seed);
            final long base = 1_700_000_000_000L;
            for (int i = 0; i < events; i++)
            {
                final long time = base + (long)(i * msPerEvent) - random.nextInt(50);
                journal.append(i, time, ids[random.nextInt(keys)], random.nextInt(100_000));
            }
        }
        return journalDir;
    }

    /**
     * Forget what a durable run left in a journal (its output journal and checkpoints), so the next run
     * starts from a clean state.
     */
    static void deleteOutputs(final Path journal)
    {
        delete(journal.resolve("results"));
        delete(journal.resolve("checkpoints"));
    }

    static void delete(final Path root)
    {
        try (Stream<Path> paths = Files.walk(root))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        catch (final IOException ignored)
        {
            // temporary files left behind are harmless
        }
    }
}
