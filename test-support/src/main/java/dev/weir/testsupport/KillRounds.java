package dev.weir.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.weir.engine.checkpoint.CheckpointCodec;
import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.expr.ColumnProjection;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;

/**
 * The kill loop of the bounded kill tests: a reference child runs {@code weir run} to completion (and is
 * timed); then, in rounds, each on a fresh output directory, children run the same command and are killed
 * with SIGKILL and restarted until one completes, and the round's output directory must then equal the
 * reference's. A kill is aimed at a moment drawn uniformly over the reference's measured duration (so the
 * kills spread over start-up, ingest, processing, checkpoints, export and exit in proportion to the time
 * each takes), or aimed: just after the child's first checkpoint (processing), just as a checkpoint file or
 * an exported file is being written (seen by its temporary file appearing). After each kill the directory tells in which phase the child died, and the count per
 * phase is printed. Not thread-safe: one test thread.
 */
public final class KillRounds
{
    /** Where a killed child was, judged from what it left on disk. */
    public enum Phase
    {
        /** Starting, or ingesting the input. */
        INGEST,
        /** Processing, before the end of the input was checkpointed. */
        PROCESSING,
        /** Writing a checkpoint file (its temporary file was left). */
        CHECKPOINT,
        /** Exporting a results, late, rejected or partition file (its temporary file was left). */
        EXPORT,
        /** After the end of the input was checkpointed: export, delivery, exit. */
        FINISHING
    }

    private enum Aim
    {
        /** A moment drawn uniformly over the reference's duration. */
        ANYWHERE,
        /** 0 to 100 ms after the child wrote its first checkpoint. */
        PROCESSING,
        /** As soon as a checkpoint's temporary file is seen. */
        CHECKPOINT,
        /** As soon as an exported file's temporary file is seen. */
        EXPORT,
        /**
         * As soon as the output journal holds a number of documents drawn from 1 to 300, then 0 to 20 ms more: while it
         * writes outputs, outputs held for the next batched document and checkpoints inside batched documents among them
         * ({@link #batched()} only).
         */
        OUTPUTS
    }

    private static final long CHILD_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(10);

    private final String name;
    private final Path dir;
    private final String keyColumn;
    private final int kills;
    private final long expectedEvents;
    private final SplittableRandom random;
    private final int[] phases = new int[Phase.values().length];
    private long referenceMs;
    private int attempts;
    private boolean batched;

    /**
     * @param name           the case's name, for messages.
     * @param dir            a directory of its own: reference, rounds and child logs go there.
     * @param kills          how many kills at least.
     * @param expectedEvents events the input holds (duplicates included), to tell a kill during the ingest.
     * @param seed           the seed of the kill moments.
     */
    public KillRounds(final String name, final Path dir, final int kills, final long expectedEvents, final long seed)
    {
        this(name, dir, ColumnProjection.DEFAULT_KEY, kills, expectedEvents, seed);
    }

    /**
     * @param name           the case's name, for messages.
     * @param dir            a directory of its own: reference, rounds and child logs go there.
     * @param keyColumn      the run's key column ({@code --key}), a string column, which names the keys of its outputs.
     * @param kills          how many kills at least.
     * @param expectedEvents events the input holds (duplicates included), to tell a kill during the ingest.
     * @param seed           the seed of the kill moments.
     */
    public KillRounds(final String name, final Path dir, final String keyColumn, final int kills, final long expectedEvents, final long seed)
    {
        this.name = name;
        this.dir = dir;
        this.keyColumn = keyColumn;
        this.kills = kills;
        this.expectedEvents = expectedEvents;
        this.random = new SplittableRandom(seed);
    }

    /**
     * Write the rounds' journals (not the reference's) with batched documents (marker version
     * {@value JournalDirectory#FORMAT_VERSION_BATCHED}: {@link BatchedJournals}), so their outputs must equal, output by
     * output, and their files byte for byte, what the reference's single documents gave; and aim a part of the kills at
     * the writing of outputs. The command must create the journal with the default columns, which it then finds created.
     *
     * @return this.
     */
    public KillRounds batched()
    {
        this.batched = true;
        return this;
    }

    /**
     * @param property the case's system property.
     * @param byDefault its default.
     * @return the kill count: the property, else {@code weir.kill.count}, else the default.
     */
    public static int count(final String property, final int byDefault)
    {
        return Integer.getInteger(property, Integer.getInteger("weir.kill.count", byDefault));
    }

    /**
     * Run the reference, then the rounds of kills; after each round, its output directory's files (all but
     * the journal) must equal the reference's byte for byte, its output journal the reference's, output by
     * output with versions and source events, and its journal's events the reference's.
     *
     * @param command the {@code weir} arguments for an output directory ({@code journal/} inside it).
     * @return the reference's output directory.
     * @throws Exception if a child cannot run.
     */
    public Path run(final Function<Path, String[]> command) throws Exception
    {
        final Path reference = dir.resolve("reference");
        final long started = System.nanoTime();
        final Process clean = KillHarness.startChild(command.apply(reference), dir.resolve("reference.log"));
        complete(clean, dir.resolve("reference.log"));
        referenceMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        final List<String> referenceOutputs = outputs(reference);
        final List<String> referenceEvents = JournalRows.events(reference.resolve("journal"));
        final Map<String, String> referenceFiles = files(reference);
        assertEquals(expectedEvents, referenceEvents.size(), "the reference ingested every event");

        int killed = 0;
        int rounds = 0;
        while (killed < kills)
        {
            final Path out = dir.resolve("round-" + rounds);
            while (true)
            {
                attempts++;
                assertTrue(attempts < kills * 20 + 50, name + ": too many attempts: " + attempts);
                final Path log = dir.resolve("child-" + attempts + ".log");
                if (batched && !Files.exists(out.resolve("journal")))
                {
                    BatchedJournals.create(out.resolve("journal"));
                }
                final long startedMillis = System.currentTimeMillis();
                final Process child = KillHarness.startChild(command.apply(out), log);
                if (killed < kills && aimAndKill(child, out, startedMillis))
                {
                    killed++;
                    phases[phase(out, startedMillis).ordinal()]++;
                    continue;
                }
                complete(child, log);
                break;
            }
            final String round = name + ", round " + rounds + " (" + killed + " kills so far)";
            KillHarness.assertSameLines(round + ": every event once in the journal", referenceEvents, JournalRows.events(out.resolve("journal")));
            KillHarness.assertSameLines(round + ": the output journal, output by output with versions and source events", referenceOutputs,
                outputs(out));
            KillHarness.assertSameFiles(round + ": the exported files", referenceFiles, files(out));
            rounds++;
        }
        System.out.printf("%s: %d kills in %d rounds (%d runs, an uninterrupted one takes %d ms): %d during start-up or ingest, "
                + "%d during processing, %d while writing a checkpoint, %d while exporting a file, %d after the end of input was checkpointed%n",
            name, killed, rounds, attempts + 1, referenceMs, phases[0], phases[1], phases[2], phases[3], phases[4]);
        return reference;
    }

    /** @return the outputs of the run whose output directory is {@code out}, keys named by its key column. */
    private List<String> outputs(final Path out)
    {
        return OutputJournalContents.outputs(out.resolve("journal"), JournalDirectory.DEFAULT_PIPELINE, keyColumn);
    }

    /** @return true if the child was killed; false if it exited first. */
    private boolean aimAndKill(final Process child, final Path out, final long startedMillis) throws Exception
    {
        final Aim aim = batched && random.nextInt(3) == 0 ? Aim.OUTPUTS : Aim.values()[random.nextInt(10) < 4 ? 0 : 1 + random.nextInt(3)];
        if (aim == Aim.ANYWHERE)
        {
            if (child.waitFor(random.nextLong(referenceMs + 1), TimeUnit.MILLISECONDS))
            {
                return false;
            }
        }
        else
        {
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CHILD_TIMEOUT_MS);
            final long documents = 1 + random.nextInt(300);
            while (!(aim == Aim.PROCESSING ? hasCheckpoint(out, startedMillis) : aim == Aim.CHECKPOINT ? hasCheckpointTemp(out, startedMillis)
                : aim == Aim.OUTPUTS ? outputDocuments(out) >= documents : hasExportTemp(out, startedMillis)))
            {
                if (child.waitFor(1, TimeUnit.MILLISECONDS))
                {
                    return false;
                }
                assertTrue(System.nanoTime() < deadline, name + ": a child ran for 10 minutes");
            }
            if (aim == Aim.PROCESSING && child.waitFor(random.nextInt(100), TimeUnit.MILLISECONDS))
            {
                return false;
            }
            if (aim == Aim.OUTPUTS && child.waitFor(random.nextInt(21), TimeUnit.MILLISECONDS))
            {
                return false;
            }
        }
        child.destroyForcibly(); // SIGKILL
        child.waitFor();
        return true;
    }

    private void complete(final Process child, final Path log) throws Exception
    {
        if (!child.waitFor(CHILD_TIMEOUT_MS, TimeUnit.MILLISECONDS))
        {
            child.destroyForcibly();
            fail(name + ": a child ran for 10 minutes:\n" + Files.readString(log));
        }
        if (child.exitValue() != 0)
        {
            fail(name + ": a child exited with " + child.exitValue() + ":\n" + Files.readString(log));
        }
    }

    private Phase phase(final Path out, final long childStartedMillis)
    {
        final Path journal = out.resolve("journal");
        if (KillHarness.ingestedLines(journal) < expectedEvents)
        {
            return Phase.INGEST;
        }
        if (hasCheckpointTemp(out, childStartedMillis))
        {
            return Phase.CHECKPOINT;
        }
        if (hasExportTemp(out, childStartedMillis))
        {
            return Phase.EXPORT;
        }
        final CheckpointStore.Loaded newest = new CheckpointStore(JournalDirectory.open(journal).checkpoints(), 3).loadNewestValid();
        return newest != null && CheckpointCodec.describe(newest).finished() ? Phase.FINISHING : Phase.PROCESSING;
    }

    /** @return the documents the output journal of the run whose output directory is {@code out} holds now, or 0. */
    private static long outputDocuments(final Path out)
    {
        try
        {
            long documents = 0;
            for (final JournalCycles.Cycle cycle : JournalCycles.results(JournalDirectory.open(out.resolve("journal"))).cycles())
            {
                documents += cycle.documents();
            }
            return documents;
        }
        catch (final RuntimeException ex)
        {
            return 0; // not created yet, or being created
        }
    }

    /** @return true if a checkpoint file was written since {@code since}. */
    private static boolean hasCheckpoint(final Path out, final long since)
    {
        final Path checkpoints = out.resolve("journal").resolve("checkpoints");
        if (!Files.isDirectory(checkpoints))
        {
            return false;
        }
        try (Stream<Path> paths = Files.list(checkpoints))
        {
            return paths.anyMatch(p ->
            {
                try
                {
                    return p.getFileName().toString().endsWith(".bin") && Files.getLastModifiedTime(p).toMillis() >= since;
                }
                catch (final IOException ex)
                {
                    return false; // pruned meanwhile
                }
            });
        }
        catch (final IOException | UncheckedIOException ex)
        {
            return false;
        }
    }

    public static boolean hasCheckpointTemp(final Path out, final long since)
    {
        return temporaryFiles(out.resolve("journal").resolve("checkpoints"), 1, since, false);
    }

    private static boolean hasExportTemp(final Path out, final long since)
    {
        return temporaryFiles(out, 3, since, true);
    }

    /** @return true if a temporary file ({@code .NAME.tmp}) modified since {@code since} (0: ever) is under {@code root}. */
    private static boolean temporaryFiles(final Path root, final int depth, final long since, final boolean outsideJournal)
    {
        if (!Files.isDirectory(root))
        {
            return false;
        }
        try (Stream<Path> paths = Files.walk(root, depth))
        {
            return paths.anyMatch(p ->
            {
                final String file = p.getFileName().toString();
                try
                {
                    return file.startsWith(".") && file.endsWith(".tmp") && !(outsideJournal && root.relativize(p).startsWith("journal"))
                        && (since == 0 || Files.getLastModifiedTime(p).toMillis() >= since);
                }
                catch (final IOException ex)
                {
                    return false; // renamed meanwhile
                }
            });
        }
        catch (final IOException | UncheckedIOException ex)
        {
            return false; // a file renamed while listing: nothing to see this time
        }
    }

    /** @return every regular file under {@code out} but the journal, by relative path, with its content. */
    public static Map<String, String> files(final Path out) throws IOException
    {
        final Map<String, String> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(out))
        {
            for (final Path p : (Iterable<Path>)paths::iterator)
            {
                final Path relative = out.relativize(p);
                if (Files.isRegularFile(p) && !relative.startsWith("journal"))
                {
                    files.put(relative.toString(), Files.readString(p));
                }
            }
        }
        return files;
    }
}
