package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.emit.DeterminismException;
import dev.weir.engine.fired.FiredResult;
import dev.weir.engine.model.WindowKind;
import dev.weir.engine.resume.CheckpointMismatchException;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.codec.LateEventDecoder;
import dev.weir.journal.codec.ResultDecoder;
import dev.weir.journal.codec.ResultKind;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * Checkpoints and recovery in one process: resuming from an older checkpoint replays the journal,
 * verifies and suppresses the outputs already written, and leaves the output journal exactly as an
 * uninterrupted run writes it; a following pipeline stopped and restarted mid-stream gives the same
 * outputs; a stored output that replay does not reproduce stops the run. (Crashes by {@code kill -9}
 * are proven in the command line's tests.)
 */
class RecoveryTest
{
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void resumingFromAnOlderCheckpointWritesEachOutputOnce(final WindowKind kind) throws IOException
    {
        final Path clean = dir.resolve("clean");
        final Path resumed = dir.resolve("resumed");
        fill(clean, 30_000, 1, 5);
        fill(resumed, 30_000, 1, 5);

        builder(clean, kind).checkpointEvery(1_000_000).build().runToEnd();
        builder(resumed, kind).checkpointEvery(4_000).build().runToEnd();
        final List<String> expected = outputs(clean);

        // Forget the newest checkpoints, as if the process had died after an older one.
        final CheckpointStore store = new CheckpointStore(JournalDirectory.open(resumed).checkpoints(), 3);
        final List<Path> files = store.files();
        for (int i = 1; i < files.size(); i++)
        {
            Files.delete(files.get(i));
        }
        final RunSummary again = builder(resumed, kind).checkpointEvery(4_000).build().runToEnd();

        assertTrue(again.resumedAfterOffset() >= 0, "resumed from a checkpoint");
        assertTrue(again.suppressedOutputs() > 0, "outputs reproduced and suppressed: " + again.suppressedOutputs());
        assertSameOutputs(expected, outputs(resumed));
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void aFollowingPipelineStoppedAndRestartedMidStreamGivesTheSameOutputs(final WindowKind kind) throws Exception
    {
        final Path clean = dir.resolve("clean");
        final Path followed = dir.resolve("followed");
        final List<long[]> events = events(20_000, 3, 9);
        append(clean, events, 0, events.size());
        builder(clean, kind).build().runToEnd();

        final int[] cuts = {0, 3_000, 3_001, 9_500, 14_000, 20_000};
        for (int i = 0; i + 1 < cuts.length; i++)
        {
            append(followed, events, cuts[i], cuts[i + 1]);
            final long last = lastOffset(followed);
            // every layout follows, stops and resumes another's checkpoint
            final PipelineLayout layout = PipelineLayout.values()[i % PipelineLayout.values().length];
            final Pipeline pipeline = builder(followed, kind).checkpointEvery(1_234).layout(layout).build().start();
            assertTrue(pipeline.awaitOffset(last, 60, java.util.concurrent.TimeUnit.SECONDS), "caught up with the journal");
            pipeline.stop();
        }
        builder(followed, kind).build().runToEnd();
        assertSameOutputs(outputs(clean), outputs(followed));
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void withUpdatesAndEarlyRowsResumingFromAnOlderCheckpointWritesEachOutputOnce(final WindowKind kind) throws IOException
    {
        final List<String> expected = resumeFromAnOlderCheckpoint(kind, RecoveryTest::withOptions);
        assertTrue(expected.stream().anyMatch(row -> row.startsWith("R early ")), "early rows");
        assertTrue(expected.stream().anyMatch(row -> row.startsWith("R update ")), "update rows");
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void withUpdatesAndEarlyRowsAFollowingPipelineStoppedAndRestartedMidStreamGivesTheSameOutputs(final WindowKind kind) throws Exception
    {
        stopAndRestartMidStream(kind, RecoveryTest::withOptions);
    }

    /**
     * Suppressed early rows are window state in the checkpoints: a resumed run suppresses the early row of a window whose
     * condition held before the checkpoint while an overlapping window's early row was pending, after that window fired.
     */
    @Test
    void withEarlyRowsOncePerKeyResumingFromAnOlderCheckpointGivesTheSameEarlyRows() throws IOException
    {
        final List<String> expected = resumeFromAnOlderCheckpoint(WindowKind.SLIDING, RecoveryTest::withEarlyRowsOncePerKey);
        final Path each = dir.resolve("each");
        fill(each, 30_000, 1, 5);
        builder(each, WindowKind.SLIDING).earlyWhen("count>=5").build().runToEnd();
        final long once = expected.stream().filter(row -> row.startsWith("R early ")).count();
        final long everyWindow = outputs(each).stream().filter(row -> row.startsWith("R early ")).count();
        assertTrue(once > 100 && once < everyWindow * 2 / 3, "early rows suppressed: " + once + " of " + everyWindow);
    }

    @Test
    void withEarlyRowsOncePerKeyAFollowingPipelineStoppedAndRestartedMidStreamGivesTheSameOutputs() throws Exception
    {
        stopAndRestartMidStream(WindowKind.SLIDING, RecoveryTest::withEarlyRowsOncePerKey);
    }

    /**
     * Run a journal clean and another with checkpoints, forget the second's newest checkpoints and run it again.
     *
     * @return the clean run's outputs, which the resumed run's equal.
     */
    private List<String> resumeFromAnOlderCheckpoint(final WindowKind kind, final UnaryOperator<PipelineBuilder> options) throws IOException
    {
        final Path clean = dir.resolve("clean");
        final Path resumed = dir.resolve("resumed");
        fill(clean, 30_000, 1, 5);
        fill(resumed, 30_000, 1, 5);

        options.apply(builder(clean, kind)).checkpointEvery(1_000_000).build().runToEnd();
        options.apply(builder(resumed, kind)).checkpointEvery(4_000).build().runToEnd();
        final List<String> expected = outputs(clean);

        final CheckpointStore store = new CheckpointStore(JournalDirectory.open(resumed).checkpoints(), 3);
        final List<Path> files = store.files();
        for (int i = 1; i < files.size(); i++)
        {
            Files.delete(files.get(i));
        }
        final RunSummary again = options.apply(builder(resumed, kind)).checkpointEvery(4_000).build().runToEnd();

        assertTrue(again.resumedAfterOffset() >= 0, "resumed from a checkpoint");
        assertTrue(again.suppressedOutputs() > 0, "outputs reproduced and suppressed: " + again.suppressedOutputs());
        assertSameOutputs(expected, outputs(resumed));
        return expected;
    }

    /** Follow a journal appended in steps, stopping and restarting at each, and compare with a clean run. */
    private void stopAndRestartMidStream(final WindowKind kind, final UnaryOperator<PipelineBuilder> options) throws Exception
    {
        final Path clean = dir.resolve("clean");
        final Path followed = dir.resolve("followed");
        final List<long[]> events = events(20_000, 3, 9);
        append(clean, events, 0, events.size());
        options.apply(builder(clean, kind)).build().runToEnd();

        final int[] cuts = {0, 3_000, 3_001, 9_500, 14_000, 20_000};
        for (int i = 0; i + 1 < cuts.length; i++)
        {
            append(followed, events, cuts[i], cuts[i + 1]);
            final long last = lastOffset(followed);
            final PipelineLayout layout = PipelineLayout.values()[i % PipelineLayout.values().length];
            final Pipeline pipeline = options.apply(builder(followed, kind)).checkpointEvery(1_234).layout(layout).build().start();
            assertTrue(pipeline.awaitOffset(last, 60, java.util.concurrent.TimeUnit.SECONDS), "caught up with the journal");
            pipeline.stop();
        }
        options.apply(builder(followed, kind)).build().runToEnd();
        assertSameOutputs(outputs(clean), outputs(followed));
    }

    @Test
    void aCheckpointTakenWithoutUpdatesIsRefusedWithThem() throws IOException
    {
        final Path journal = dir.resolve("journal");
        fill(journal, 1_000, 1, 3);
        builder(journal, WindowKind.TUMBLING).build().runToEnd();
        assertThrows(CheckpointMismatchException.class, () -> builder(journal, WindowKind.TUMBLING).emitUpdates(true).build());
        assertThrows(CheckpointMismatchException.class, () -> builder(journal, WindowKind.TUMBLING).earlyWhen("count>3").build());
    }

    private static PipelineBuilder withOptions(final PipelineBuilder builder)
    {
        return builder.emitUpdates(true).earlyWhen("sum>=3000 or count>40");
    }

    private static PipelineBuilder withEarlyRowsOncePerKey(final PipelineBuilder builder)
    {
        return builder.earlyWhen("count>=5").earlyOncePerKey(true);
    }

    @Test
    void anOutputThatReplayDoesNotReproduceStopsTheRun() throws IOException
    {
        final Path journal = dir.resolve("tampered");
        fill(journal, 1_000, 1, 1);
        try (OutputJournal output = OutputJournal.open(JournalDirectory.open(journal)))
        {
            output.appendResult(new FiredResult().window(0, 10).keyId(0).count(1).sum(1).min(1).max(1).version(0).sourceOffset(42), false);
        }
        final PipelineFailedException ex = assertThrows(PipelineFailedException.class, () -> builder(journal, WindowKind.TUMBLING).build().runToEnd());
        assertInstanceOf(DeterminismException.class, ex.getCause());
    }

    @Test
    void aCrashWhileTheEndOfInputFiresThenNewEventsStillResumesExactlyOnce() throws IOException
    {
        final List<long[]> events = events(5_000, 1, 13);
        final List<long[]> more = events(200, 1, 14);
        final Path clean = dir.resolve("clean");
        final Path crashed = dir.resolve("crashed");
        append(clean, events, 0, events.size());
        append(crashed, events, 0, events.size());
        builder(clean, WindowKind.SESSION).build().runToEnd();
        builder(crashed, WindowKind.SESSION).build().runToEnd();

        // As if the process died after some end-of-input results were written but before the final
        // checkpoint: the newest valid checkpoint is the one taken just before the end was applied.
        final CheckpointStore store = new CheckpointStore(JournalDirectory.open(crashed).checkpoints(), 3);
        final List<Path> files = store.files();
        Files.delete(files.get(files.size() - 1));
        assertTrue(dev.weir.engine.checkpoint.CheckpointCodec.describe(store.loadNewestValid()).endPending());

        append(clean, more, 0, more.size());
        append(crashed, more, 0, more.size());
        // the new events are after the end of the input: late for both, as asked
        builder(clean, WindowKind.SESSION).resumeAfterEnd(true).build().runToEnd();
        final RunSummary resumed = builder(crashed, WindowKind.SESSION).resumeAfterEnd(true).build().runToEnd();

        assertTrue(resumed.suppressedOutputs() > 0, "end-of-input results reproduced and verified");
        assertSameOutputs(outputs(clean), outputs(crashed));
    }

    @Test
    @org.junit.jupiter.api.Timeout(120)
    void aFailingListenerFailsTheRunInsteadOfHangingIt() throws IOException
    {
        final Path journal = dir.resolve("failing");
        fill(journal, 50_000, 1, 3);
        final PipelineFailedException ex = assertThrows(PipelineFailedException.class, () -> builder(journal, WindowKind.TUMBLING)
            .ringSize(64)
            .onResult(r ->
            {
                throw new IllegalStateException("listener broke");
            })
            .build()
            .runToEnd());
        assertTrue(ex.getMessage().contains("listener broke"), ex.getMessage());
    }

    @Test
    void sessionDedupeJudgesARetryLateOnceItsOwnWindowIsLateEvenWhereANewSessionTouchesIt() throws IOException
    {
        // (id, time, key): id 1 again once its own window [100, 110) is late (wm 115) and its id forgotten,
        // while a new session of 'a', [109, 119), touches it: the retry is late, it does not merge
        final Path clean = dir.resolve("clean");
        final Path doubled = dir.resolve("doubled");
        final List<long[]> base = List.of(new long[] {1, 100, 0, 5}, new long[] {2, 115, 1, 7}, new long[] {3, 109, 0, 11});
        final List<long[]> withDuplicate = new ArrayList<>(base);
        withDuplicate.add(new long[] {1, 100, 0, 5});
        append(clean, base, 0, base.size());
        append(doubled, withDuplicate, 0, withDuplicate.size());
        final PipelineBuilder cleanRun = Weir.pipeline().journal(clean).window(SessionWindows.withGap(10)).dedupe(true);
        final PipelineBuilder doubledRun = Weir.pipeline().journal(doubled).window(SessionWindows.withGap(10)).dedupe(true);
        cleanRun.build().runToEnd();
        final RunSummary summary = doubledRun.build().runToEnd();
        assertEquals(0, summary.duplicates(), "its id was forgotten");
        assertEquals(1, summary.dropped(), "the retry is late: dropped");
        assertEquals(withoutOffsets(outputs(clean)), withoutOffsets(outputs(doubled)));
    }

    @Test
    void aCheckpointTakenUnderAnotherConfigurationIsRefused() throws IOException
    {
        final Path journal = dir.resolve("config");
        fill(journal, 1_000, 1, 1);
        builder(journal, WindowKind.TUMBLING).build().runToEnd();
        assertThrows(CheckpointMismatchException.class, () -> builder(journal, WindowKind.SLIDING).build().runToEnd());
    }

    @Test
    void aConcludedConfigurationReadsNoCheckpointAndRecoveryRefusesAnotherConfiguration() throws IOException
    {
        final Path journal = dir.resolve("conclude");
        fill(journal, 1_000, 1, 1);
        builder(journal, WindowKind.TUMBLING).build().runToEnd();
        final PipelineConfiguration other = builder(journal, WindowKind.SLIDING).conclude(); // validates flags only
        assertThrows(CheckpointMismatchException.class, other::recover);
    }

    @Test
    void theCheckpointIsReadOnceByRecoveryAndTheRunResumesFromWhatItRead() throws IOException
    {
        final List<long[]> events = events(5_000, 1, 31);
        final Path clean = dir.resolve("clean-once");
        final Path journal = dir.resolve("once");
        for (final Path each : List.of(clean, journal))
        {
            append(each, events, 0, 3_000);
            builder(each, WindowKind.SLIDING).build().runToEnd();
            append(each, events, 3_000, events.size());
        }

        final PipelineConfiguration config = builder(journal, WindowKind.SLIDING).resumeAfterEnd(true).conclude(); // late, as for clean
        final dev.weir.engine.Recovery recovery = config.recover();
        for (final Path file : new CheckpointStore(config.directory().checkpoints(), 3).files())
        {
            Files.delete(file); // a run that read the store again would now start from the beginning
        }
        final RunSummary resumed = config.build(recovery).runToEnd();

        assertEquals(recovery.resumeAfterOffset(), resumed.resumedAfterOffset());
        assertEquals(2_000, resumed.eventsThisRun(), "only the events after the checkpoint");
        builder(clean, WindowKind.SLIDING).resumeAfterEnd(true).build().runToEnd();
        assertSameOutputs(outputs(clean), outputs(journal));
    }

    @Test
    void dedupeGivesTheResultsOfTheCleanStreamWhenEveryEventIsAppendedTwiceOrThrice() throws IOException
    {
        final List<long[]> clean = events(20_000, 1, 21);
        final List<long[]> doubled = new ArrayList<>();
        final SplittableRandom random = new SplittableRandom(5);
        final List<long[]> pending = new ArrayList<>();
        for (final long[] e : clean)
        {
            doubled.add(e);
            pending.add(e);
            if (random.nextInt(10) == 0)
            {
                pending.add(e);
            }
            // retries arrive a little later, in a shuffled order
            while (pending.size() > 4 || (!pending.isEmpty() && random.nextInt(3) == 0))
            {
                doubled.add(pending.remove(random.nextInt(pending.size())));
            }
        }
        doubled.addAll(pending);
        assertTrue(doubled.size() > 2 * clean.size());

        for (final WindowKind kind : WindowKind.values())
        {
            final Path a = dir.resolve("clean-" + kind);
            final Path b = dir.resolve("doubled-" + kind);
            append(a, clean, 0, clean.size());
            append(b, doubled, 0, doubled.size());
            builder(a, kind).dedupe(true).build().runToEnd();
            final RunSummary summary = builder(b, kind).dedupe(true).build().runToEnd();
            assertEquals(doubled.size() - clean.size(), summary.duplicates(), kind + " duplicates counted");
            assertEquals(withoutOffsets(outputs(a)), withoutOffsets(outputs(b)), kind + " results");
        }
    }

    static void assertSameOutputs(final List<String> expected, final List<String> actual)
    {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++)
        {
            if (!expected.get(i).equals(actual.get(i)))
            {
                assertEquals(expected.subList(i, Math.min(i + 5, expected.size())), actual.subList(i, Math.min(i + 5, actual.size())),
                    "first difference at output " + i + " of " + expected.size() + "/" + actual.size());
            }
        }
        assertEquals(expected.size(), actual.size(), "outputs");
    }

    private static PipelineBuilder builder(final Path journal, final WindowKind kind)
    {
        final WindowSpec spec = kind == WindowKind.TUMBLING ? TumblingWindows.of(1_000)
            : kind == WindowKind.SLIDING ? SlidingWindows.of(1_000, 250) : SessionWindows.withGap(300);
        return Weir.pipeline().journal(journal).window(spec).outOfOrderness(200).allowedLateness(300).latePolicy(LatePolicy.SIDE);
    }

    private static List<long[]> events(final int count, final int timeStep, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<long[]> events = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final long time = 10_000L + (long)i * timeStep / 3 - random.nextInt(300) - (random.nextInt(200) == 0 ? 1_500 : 0);
            events.add(new long[] {i, Math.max(0, time), random.nextInt(300), random.nextInt(2_000) - 1_000});
        }
        return events;
    }

    private static void fill(final Path journal, final int count, final int timeStep, final long seed)
    {
        final List<long[]> events = events(count, timeStep, seed);
        append(journal, events, 0, events.size());
    }

    static void append(final Path journal, final List<long[]> events, final int from, final int to)
    {
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int i = from; i < to; i++)
            {
                final long[] e = events.get(i);
                writer.append(e[0], e[1], "k" + e[2], e[3]);
            }
        }
    }

    static long lastOffset(final Path journal)
    {
        try (dev.weir.journal.JournalReader reader = dev.weir.journal.JournalReader.open(JournalDirectory.open(journal)))
        {
            return reader.lastOffset();
        }
    }

    static List<String> outputs(final Path journal)
    {
        return outputs(JournalDirectory.open(journal));
    }

    /**
     * @param directory a journal, or one pipeline of it.
     * @return its output journal as text rows, in order.
     */
    static List<String> outputs(final JournalDirectory directory)
    {
        final List<String> rows = new ArrayList<>();
        try (OutputJournal output = OutputJournal.open(directory))
        {
            output.readAll(stored ->
            {
                if (stored.isResult())
                {
                    final ResultDecoder r = stored.result();
                    rows.add("R " + (r.kind() == ResultKind.FINAL ? "" : r.kind().label() + " ") + r.windowStart() + "," + r.windowEnd() + "," + r.keyId() + "," + r.count() + "," + r.sum() + "," + r.min() + ","
                        + r.max() + "," + r.version() + " @" + r.sourceOffset());
                }
                else
                {
                    final LateEventDecoder l = stored.late();
                    rows.add("L " + l.eventId() + "," + l.eventTime() + "," + l.keyId() + "," + l.value() + " @" + l.offset());
                }
            });
        }
        return rows;
    }

    private static List<String> withoutOffsets(final List<String> rows)
    {
        final List<String> stripped = new ArrayList<>();
        for (final String row : rows)
        {
            stripped.add(row.substring(0, row.indexOf(" @")));
        }
        return stripped;
    }
}
