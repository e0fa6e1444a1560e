package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.checkpoint.CheckpointCodec;
import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.checkpoint.OperatorStateCodec;
import dev.weir.engine.model.WindowKind;
import dev.weir.engine.resume.CheckpointMismatchException;
import dev.weir.engine.resume.ResumeAfterEndException;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.HistoryBase;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.OutputJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A checkpoint whose state is in format 1 (written by a Weir before aligned windows were chained; its windows of
 * one start fire in another order, so it cannot be converted) is rebuilt: the run ignores its state, replays the
 * journal from the start, verifies the outputs already written instead of writing them again, and leaves the
 * output journal exactly as an uninterrupted run writes it. A configuration change stays refused, and so does a
 * rebuild that cannot be exact. (A real format-1 journal written by that Weir is the command line's fixture.)
 */
class StateFormatMigrationTest
{
    private static final int EVENTS = 12_000;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void aFormat1CheckpointIsRebuiltByReplayAndTheOutputsEqualAnUninterruptedRun(final WindowKind kind) throws Exception
    {
        final List<long[]> events = events();
        final Path clean = dir.resolve("clean");
        RecoveryTest.append(clean, events, 0, events.size());
        builder(clean, kind).build().runToEnd();
        final List<String> expected = RecoveryTest.outputs(clean);
        assertTrue(expected.stream().anyMatch(row -> row.startsWith("L ")), "late events");

        final Path migrated = dir.resolve("migrated");
        final int written = stopMidWayWithAFormat1Checkpoint(migrated, kind, events);
        assertTrue(written > 100, "outputs written before the checkpoint: " + written);
        RecoveryTest.append(migrated, events, EVENTS / 2, EVENTS);

        final Recovery recovery = builder(migrated, kind).conclude().recover();
        assertNull(recovery.checkpoint(), "the state is not restored");
        final long first = firstOffset(migrated);
        assertEquals("checkpoint " + recovery.rebuilt().sequence() + " of pipeline default: state format 1 was written by an older Weir and"
            + " cannot be converted: rebuilding it by replaying the journal from offset " + first, recovery.rebuildNote("default"));
        assertEquals("rebuilds it by replaying the journal from offset " + first + " (written by an older Weir, it cannot be converted)",
            Recovery.nextRun(new CheckpointStore(JournalDirectory.open(migrated).checkpoints(), 3).loadNewestValid(),
                JournalDirectory.open(migrated)));

        final long olderOutputsEnd;
        try (OutputJournal output = OutputJournal.open(JournalDirectory.open(migrated)))
        {
            olderOutputsEnd = output.lastPosition();
        }
        final List<Long> covered = new ArrayList<>();
        final RunSummary summary = builder(migrated, kind).checkpointEvery(500)
            .onCheckpoint((sequence, payload) -> covered.add(CheckpointCodec.describe(payload).outputPosition())).build().runToEnd();
        assertEquals(-1, summary.resumedAfterOffset(), "replayed from the start");
        assertTrue(covered.size() >= 2, "checkpoints: " + covered);
        assertTrue(covered.stream().allMatch(position -> position >= olderOutputsEnd),
            "no checkpoint before the outputs written by the older Weir were all verified (a run resumed from one would verify the rest"
                + " one by one, in this Weir's order): " + covered + ", older outputs up to " + olderOutputsEnd);
        assertEquals(written, summary.suppressedOutputs(), "every output written before was reproduced, verified and not written again");
        RecoveryTest.assertSameOutputs(expected, RecoveryTest.outputs(migrated));
        assertEquals(EVENTS, summary.events());
        assertEquals(OperatorStateCodec.STATE_VERSION, stateFormat(migrated), "the new checkpoints are of this Weir's format");
    }

    @Test
    void aConfigurationChangeIsStillRefused() throws Exception
    {
        final Path migrated = dir.resolve("migrated");
        stopMidWayWithAFormat1Checkpoint(migrated, WindowKind.SLIDING, events());
        final CheckpointMismatchException refused = assertThrows(CheckpointMismatchException.class,
            () -> builder(migrated, WindowKind.SLIDING).allowedLateness(301).build());
        assertTrue(refused.getMessage().contains("allowedLateness=300") && refused.getMessage().contains("allowedLateness=301"), refused.getMessage());
    }

    @Test
    void aRebuildIsRefusedOnceRetentionRemovedTheStartOfTheJournal() throws Exception
    {
        final Path migrated = dir.resolve("migrated");
        stopMidWayWithAFormat1Checkpoint(migrated, WindowKind.TUMBLING, events());
        final JournalDirectory journal = JournalDirectory.open(migrated);
        final long first = firstOffset(migrated);
        HistoryBase.advance(journal, first + 100, List.of(), 0, null); // as retention does before it removes cycles
        final CheckpointMismatchException refused = assertThrows(CheckpointMismatchException.class,
            () -> builder(migrated, WindowKind.TUMBLING).build());
        assertTrue(refused.getMessage().contains("retention removed the journal's events before offset " + (first + 100))
            && refused.getMessage().contains("weir replay"), refused.getMessage());
    }

    @Test
    void aFormat1CheckpointTakenAtTheEndOfABoundedRunIsNotRebuiltPastThatEnd()
    {
        final List<long[]> events = events();
        final Path migrated = dir.resolve("migrated");
        RecoveryTest.append(migrated, events, 0, EVENTS / 2);
        builder(migrated, WindowKind.TUMBLING).build().runToEnd();
        toFormat1(migrated);
        RecoveryTest.append(migrated, events, EVENTS / 2, EVENTS / 2 + 10);
        final ResumeAfterEndException refused = assertThrows(ResumeAfterEndException.class,
            () -> builder(migrated, WindowKind.TUMBLING).resumeAfterEnd(true).build().runToEnd());
        assertTrue(refused.getMessage().contains("state format 1") && refused.getMessage().contains("10 events follow it"), refused.getMessage());
    }

    /**
     * Follow the first half of the events with checkpoints, stop, then make the newest checkpoint's state format 1.
     *
     * @return the outputs written.
     */
    private static int stopMidWayWithAFormat1Checkpoint(final Path journal, final WindowKind kind, final List<long[]> events)
        throws InterruptedException
    {
        RecoveryTest.append(journal, events, 0, EVENTS / 2);
        final Pipeline pipeline = builder(journal, kind).checkpointEvery(700).build().start();
        assertTrue(pipeline.awaitOffset(RecoveryTest.lastOffset(journal), 60, TimeUnit.SECONDS), "caught up with the journal");
        pipeline.stop();
        toFormat1(journal);
        return RecoveryTest.outputs(journal).size();
    }

    /** Write, as the newest checkpoint, a copy of the newest one whose state says format 1 (format 2's layout). */
    private static void toFormat1(final Path journal)
    {
        final CheckpointStore store = new CheckpointStore(JournalDirectory.open(journal).checkpoints(), 3);
        final ByteBuffer payload = store.loadNewestValid().payload().order(ByteOrder.LITTLE_ENDIAN); // StateBuffer's order
        final int state = CheckpointCodec.stateStart(payload);
        assertEquals(OperatorStateCodec.STATE_VERSION, payload.getInt(state), "no filter and nothing wrapped: format 2");
        payload.putInt(state, OperatorStateCodec.STATE_VERSION_SLOT_ORDER);
        store.write(payload);
    }

    private static int stateFormat(final Path journal)
    {
        final ByteBuffer payload = new CheckpointStore(JournalDirectory.open(journal).checkpoints(), 3).loadNewestValid().payload()
            .order(ByteOrder.LITTLE_ENDIAN);
        return payload.getInt(CheckpointCodec.stateStart(payload));
    }

    private static PipelineBuilder builder(final Path journal, final WindowKind kind)
    {
        final WindowSpec spec = kind == WindowKind.TUMBLING ? TumblingWindows.of(1_000)
            : kind == WindowKind.SLIDING ? SlidingWindows.of(1_000, 250) : SessionWindows.withGap(300);
        return Weir.pipeline().journal(journal).window(spec).outOfOrderness(200).allowedLateness(300).latePolicy(LatePolicy.SIDE);
    }

    /** A seeded stream: 300 keys (many windows per start), disorder within 300 ms, one event in 150 late by 1.5 s. */
    private static List<long[]> events()
    {
        final SplittableRandom random = new SplittableRandom(29);
        final List<long[]> events = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++)
        {
            final long time = 10_000L + i / 3 - random.nextInt(300) - (random.nextInt(150) == 0 ? 1_500 : 0);
            events.add(new long[] {i, Math.max(0, time), random.nextInt(300), random.nextInt(2_000) - 1_000});
        }
        return events;
    }

    private static long firstOffset(final Path journal)
    {
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal)))
        {
            return reader.firstOffset();
        }
    }
}
