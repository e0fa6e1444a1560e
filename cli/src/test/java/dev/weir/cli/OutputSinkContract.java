package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.PipelineFailedException;
import dev.weir.engine.delivery.OutputSink;
import dev.weir.engine.emit.DeterminismException;
import dev.weir.engine.fired.FiredResult;
import dev.weir.journal.DeliveryPositions;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.testsupport.BatchedJournals;
import dev.weir.testsupport.ChildJvm;
import dev.weir.testsupport.KillHarness;
import dev.weir.testsupport.KillRounds;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract every {@link OutputSink} keeps, proven the same way for each (files, PostgreSQL, Kafka: a subclass
 * each). A pipeline delivering continuously into the sink, in a child JVM ({@link SinkDeliveryChild}), is killed
 * with SIGKILL at moments drawn uniformly over an uninterrupted child's measured duration, or aimed at its delivery
 * (just after it committed a first delivery), and started again until it
 * completes, in rounds on fresh journals and targets (up to 3 kills a round) until {@code -Dweir.kill.count.sinks} kills (6 by
 * default) were made; each round's target must then hold exactly what an
 * uninterrupted run's holds. And a regenerated output that differs from the stored one (a rule that is not
 * deterministic) fails the run with {@link DeterminismException} before it reaches the target, which keeps what it
 * held.
 * <p>
 * A child whose stop left its last delivery running past the stop's grace (a loaded machine) exits
 * {@link SinkDeliveryChild#NOT_DONE} and is started again, as after a kill; the figures printed count those runs.
 */
@Tag("slow")
abstract class OutputSinkContract
{
    private static final int EVENTS = 60_000;
    private static final int KILLS = KillRounds.count("weir.kill.count.sinks", 6);
    private static final int KILLS_PER_ROUND = 3;

    @TempDir
    Path dir;

    /** Children whose last delivery did not end within the stop's grace. */
    private int notDone;

    /** @return the sink's kind, as {@link SinkDeliveryChild#open} names it. */
    abstract String kind();

    /**
     * @return true to write the rounds' journals (not the reference's) with batched documents (marker version 5): the
     *         target must then hold what the reference's outputs, one to a document, gave.
     */
    boolean batched()
    {
        return false;
    }

    /**
     * @param name a name of the test's own for a fresh target.
     * @return the target, as {@link SinkDeliveryChild#open} takes it.
     */
    abstract String target(String name) throws Exception;

    /**
     * @param target  a target.
     * @param outputs the outputs the pipeline's output journal holds.
     * @return what it holds, in a stable order.
     */
    abstract List<String> delivered(String target, long outputs) throws Exception;

    @Test
    void killedAtRandomMomentsTheTargetEqualsAnUninterruptedRun() throws Exception
    {
        final String reference = target("reference");
        final Path referenceJournal = journal("reference");
        final long started = System.nanoTime();
        boolean done = complete(start(referenceJournal, reference, "reference"), "reference");
        final long referenceMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        for (int again = 1; !done; again++) // never killed; started again only if its stop left the last delivery running
        {
            assertTrue(again < 10, kind() + ": the uninterrupted run never delivered everything at its stop");
            done = complete(start(referenceJournal, reference, "reference-" + again), "reference-" + again);
        }
        final long outputs = outputs(referenceJournal);
        final List<String> expected = delivered(reference, outputs);
        assertTrue(expected.size() > 1_000, kind() + ": the uninterrupted run delivered " + expected.size());

        final SplittableRandom random = new SplittableRandom(1_234);
        int kills = 0;
        int runs = 0;
        int round = 0;
        for (; kills < KILLS; round++)
        {
            assertTrue(runs < KILLS * 20 + 50, kind() + ": too many runs: " + runs);
            final String target = target("round" + round);
            final Path journal = journal("round-" + round);
            int killedThisRound = 0;
            while (true)
            {
                runs++;
                final long startedMillis = System.currentTimeMillis();
                final Process child = start(journal, target, "child-" + runs);
                if (killedThisRound < KILLS_PER_ROUND && aimAndKill(child, journal, startedMillis, random, referenceMs))
                {
                    killedThisRound++;
                    continue;
                }
                if (complete(child, "child-" + runs))
                {
                    break;
                }
            }
            kills += killedThisRound;
            KillHarness.assertSameLines(kind() + ", round " + round + " (" + killedThisRound + " kills): the delivered rows", expected,
                delivered(target, outputs(journal)));
        }
        System.out.printf("%s sink: %d kills in %d rounds (%d runs, %d not done at their stop; an uninterrupted one takes %d ms, delivers %d rows)%n",
            kind(), kills, round, runs + 1, notDone, referenceMs, expected.size());
    }

    @Test
    void aRegeneratedOutputThatDiffersIsADeterminismFailureAndNeverDelivered() throws Exception
    {
        final Path journal = journal("tampered");
        final JournalDirectory pipeline = JournalDirectory.open(journal).pipeline(JournalDirectory.DEFAULT_PIPELINE);
        try (OutputJournal output = OutputJournal.open(pipeline))
        { // stored by an earlier run whose rule gave another result for the event at source offset 42
            output.appendResult(new FiredResult().window(0, 1_000).keyId(0).count(1).sum(1).min(1).max(1).version(0).sourceOffset(42), false);
        }
        final String target = target("tampered");
        final OutputSink sink = SinkDeliveryChild.open(kind(), journal, target);
        try
        {
            sink.deliver(pipeline);
            final List<String> before = delivered(target, 1);
            assertTrue(before.stream().anyMatch(row -> row.endsWith(",1,1,1,1,0")), kind() + ": the stored output was delivered: " + before);

            final PipelineFailedException failed = assertThrows(PipelineFailedException.class,
                () -> SinkDeliveryChild.pipeline(journal).deliverContinuously(sink, java.time.Duration.ofMillis(1)).build().runToEnd());
            assertInstanceOf(DeterminismException.class, failed.getCause(), kind());
            sink.deliver(pipeline);
            assertEquals(before, delivered(target, 1), kind() + ": the target holds what it held, the regenerated output is not in it");
        }
        finally
        {
            if (sink instanceof AutoCloseable closeable)
            {
                closeable.close();
            }
        }
    }

    /** @return a journal holding the seeded stream: keys k0..k499, 1 event in 200 late by 3 to 5 s, the others up to 400 ms. */
    private Path journal(final String name)
    {
        final Path journal = dir.resolve(name).resolve("journal");
        if (batched() && !name.equals("reference"))
        {
            BatchedJournals.create(journal);
        }
        final SplittableRandom random = new SplittableRandom(77);
        try (EventJournal events = EventJournal.openOrCreate(journal))
        {
            for (int i = 0; i < EVENTS; i++)
            {
                final long lateBy = random.nextInt(200) == 0 ? 3_000 + random.nextInt(2_000) : random.nextInt(400);
                events.append(i, Math.max(0, 100_000L + i / 2 - lateBy), "k" + random.nextInt(500), random.nextInt(20_000) - 10_000);
            }
        }
        return journal;
    }

    /**
     * Kill the child (SIGKILL) at a moment drawn uniformly over the uninterrupted run's duration, or, one time in two,
     * 0 to 100 ms after it committed its first delivery (its delivery record moved): while it delivers.
     *
     * @return true if it was killed; false if it exited first.
     */
    private static boolean aimAndKill(final Process child, final Path journal, final long startedMillis, final SplittableRandom random,
        final long referenceMs) throws Exception
    {
        if (random.nextBoolean())
        {
            if (child.waitFor(random.nextLong(referenceMs + 1), TimeUnit.MILLISECONDS))
            {
                return false;
            }
        }
        else
        {
            final Path root = JournalDirectory.open(journal).pipeline(JournalDirectory.DEFAULT_PIPELINE).pipelineRoot();
            while (!committedSince(root, startedMillis))
            {
                if (child.waitFor(1, TimeUnit.MILLISECONDS))
                {
                    return false;
                }
            }
            if (child.waitFor(random.nextInt(100), TimeUnit.MILLISECONDS))
            {
                return false;
            }
        }
        child.destroyForcibly(); // SIGKILL
        child.waitFor();
        return true;
    }

    /** @return true if a delivery record of the pipeline holds a position written since {@code sinceMillis}. */
    private static boolean committedSince(final Path pipelineRoot, final long sinceMillis)
    {
        try
        {
            return DeliveryPositions.read(pipelineRoot).stream()
                .anyMatch(p -> p.position() >= 0 && p.updated() != null && p.updated().toEpochMilli() >= sinceMillis);
        }
        catch (final RuntimeException ex)
        {
            return false; // a record being replaced: look again
        }
    }

    private static long outputs(final Path journal)
    {
        try (OutputJournal output = OutputJournal.open(JournalDirectory.open(journal).pipeline(JournalDirectory.DEFAULT_PIPELINE)))
        {
            return output.readAll(stored -> { });
        }
    }

    private Process start(final Path journal, final String target, final String log) throws Exception
    {
        return new ProcessBuilder(ChildJvm.command("512m", SinkDeliveryChild.class, kind(), journal.toString(), target)).redirectErrorStream(true)
            .redirectOutput(dir.resolve(log + ".log").toFile()).start();
    }

    /** @return true if the child delivered everything; false if it must run again ({@link SinkDeliveryChild#NOT_DONE}). */
    private boolean complete(final Process child, final String log) throws Exception
    {
        if (!child.waitFor(10, TimeUnit.MINUTES))
        {
            child.destroyForcibly();
            fail(kind() + ": a child ran for 10 minutes:\n" + Files.readString(dir.resolve(log + ".log")));
        }
        if (child.exitValue() == SinkDeliveryChild.NOT_DONE)
        {
            notDone++;
            return false;
        }
        assertEquals(0, child.exitValue(), () -> kind() + ": a child failed:\n" + readLog(log));
        return true;
    }

    private String readLog(final String log)
    {
        try
        {
            return Files.readString(dir.resolve(log + ".log"));
        }
        catch (final java.io.IOException ex)
        {
            return ex.toString();
        }
    }
}
