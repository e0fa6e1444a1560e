package dev.weir.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.weir.engine.Weir;
import dev.weir.engine.status.CheckpointCoverage;
import dev.weir.engine.status.CheckpointSummary;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.schema.NewerFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link JournalInspection} on real journals processed by real pipelines: the offsets, counts and checkpoints of a
 * journal with two pipelines, one pipeline shown alone, and a journal of a newer Weir refused.
 */
class JournalInspectionTest
{
    private static final int EVENTS = 300;
    private static final int LATER = 7;

    @TempDir
    Path dir;

    @Test
    void aJournalWithTwoPipelinesAndACheckpointIsDescribedWithTheirOffsetsAndCounts()
    {
        final long checkpointed;
        try (EventJournal writer = EventJournal.openOrCreate(dir.resolve("j")))
        {
            long last = -1;
            for (int i = 0; i < EVENTS; i++)
            {
                last = writer.append(i, 1_000L * i, "k" + i % 5, i);
            }
            writer.appendRejected(EVENTS + 2, "bad value", "x,y,z,w");
            checkpointed = last;
        }
        Weir.pipeline().journal(dir.resolve("j")).pipeline("spend").window(TumblingWindows.of(10_000)).build().runToEnd();
        Weir.pipeline().journal(dir.resolve("j")).pipeline("bursts").window(TumblingWindows.of(1_000)).build().runToEnd();
        try (EventJournal writer = EventJournal.openOrCreate(dir.resolve("j"))) // events neither pipeline has read: their lag
        {
            for (int i = EVENTS; i < EVENTS + LATER; i++)
            {
                writer.append(i, 1_000L * i, "k" + i % 5, i);
            }
        }

        final JournalInspection inspection = JournalInspection.of(dir.resolve("j"));
        assertEquals(EVENTS + LATER, inspection.counts().events());
        assertEquals(1, inspection.counts().rejected());
        assertEquals(List.of(new JournalInspection.DistinctValues("key", 5)), inspection.distinctValues());
        assertEquals(List.of("bursts", "spend"), inspection.pipelineNames());
        for (final JournalInspection.PipelineProgress progress : inspection.progress())
        {
            final CheckpointCoverage coverage = progress.checkpoint().orElseThrow();
            assertEquals(checkpointed, coverage.sourceOffset(), progress.name());
            assertEquals(LATER, progress.eventsAfterCheckpoint(), progress.name());
            assertTrue(progress.running().isEmpty(), progress.name() + ": its run ended");
        }
        assertEquals(List.of("bursts", "spend"), inspection.pipelines().stream().map(JournalInspection.PipelineInspection::name).toList());
        for (final JournalInspection.PipelineInspection pipeline : inspection.pipelines())
        {
            final CheckpointSummary checkpoint = pipeline.checkpoint().newest().orElseThrow();
            assertEquals(EVENTS, checkpoint.coverage().applied(), pipeline.name());
            assertEquals(EVENTS, checkpoint.counts().events(), pipeline.name());
            assertTrue(checkpoint.coverage().finished(), pipeline.name());
            assertEquals(Long.MAX_VALUE, checkpoint.watermark(), pipeline.name());
            assertEquals("resumes from it", checkpoint.nextRun(), pipeline.name());
            assertEquals(0, pipeline.checkpoint().skippedInvalid(), pipeline.name());
            assertEquals(pipeline.results(), checkpoint.counts().windowsFired(), pipeline.name() + ": every firing is a result in the output journal");
            assertEquals(0, pipeline.lateEvents(), pipeline.name());
            assertEquals(checkpoint.coverage().outputPosition(), pipeline.lastOutputPosition(), pipeline.name());
        }
        assertEquals(EVENTS / 2, inspection.pipelines().get(1).results(), "spend: one result per key (5) and 10 s window (10 events)");
        assertEquals(EVENTS, inspection.pipelines().get(0).results(), "bursts: one result per event's 1 s window");
        assertEquals(List.of("events", "results of bursts", "results of spend"), inspection.disk().stream().map(JournalInspection.QueueFiles::name).toList());
        assertTrue(inspection.removedEvents().isEmpty());
        assertTrue(inspection.removedOutputs().isEmpty());

        final JournalInspection spend = JournalInspection.of(JournalDirectory.open(dir.resolve("j")), "spend");
        assertEquals(List.of("spend"), spend.pipelines().stream().map(JournalInspection.PipelineInspection::name).toList());
        assertEquals(2, spend.progress().size(), "every pipeline's progress, whichever is shown");
        assertThrows(IllegalArgumentException.class, () -> JournalInspection.of(JournalDirectory.open(dir.resolve("j")), "nosuch"));
    }

    @Test
    void aJournalNeverProcessedShowsTheDefaultPipelineWithoutACheckpointAndIsLeftAsItWas()
    {
        try (EventJournal writer = EventJournal.openOrCreate(dir.resolve("j")))
        {
            writer.append(1, 1_000, "a", 1);
        }
        final JournalDirectory journal = JournalDirectory.open(dir.resolve("j"));
        final JournalInspection inspection = JournalInspection.of(dir.resolve("j"));
        assertEquals(List.of(), inspection.pipelineNames());
        assertEquals(1, inspection.pipelines().size());
        assertEquals(JournalDirectory.DEFAULT_PIPELINE, inspection.pipelines().get(0).name());
        assertTrue(inspection.pipelines().get(0).checkpoint().newest().isEmpty());
        assertEquals(-1, inspection.pipelines().get(0).lastOutputPosition());
        assertFalse(Files.exists(journal.checkpoints()), "inspecting creates no checkpoint directory");
    }

    @Test
    void aJournalOfANewerWeirIsRefusedWithNewerFormatException() throws IOException
    {
        try (EventJournal writer = EventJournal.openOrCreate(dir.resolve("j")))
        {
            writer.append(1, 1_000, "a", 1);
        }
        final Path marker = dir.resolve("j").resolve(JournalDirectory.MARKER_FILE);
        final String text = Files.readString(marker, StandardCharsets.UTF_8);
        assertTrue(text.contains("\nversion=" + JournalDirectory.FORMAT_VERSION_BATCHED + "\n"), text);
        Files.writeString(marker, text.replace("\nversion=" + JournalDirectory.FORMAT_VERSION_BATCHED + "\n", "\nversion=99\n"), StandardCharsets.UTF_8);

        final NewerFormatException refused = assertThrows(NewerFormatException.class, () -> JournalInspection.of(dir.resolve("j")));
        assertEquals(99, refused.found(), refused.getMessage());
    }
}
