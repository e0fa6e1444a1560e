package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import dev.weir.engine.resume.CheckpointMismatchException;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.HistoryBase;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.OutputJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PipelineBuilder#recoverFrom(CheckpointPayload)}: a pipeline over a journal that holds only the events after
 * a checkpoint taken over another journal recovers from that checkpoint's payload held in memory, writes no
 * checkpoint file before its own first checkpoint, and writes the same outputs as the uninterrupted run after it.
 */
class RecoverFromPayloadTest
{
    private static final int EVENTS = 6_000;

    @TempDir
    Path dir;

    @Test
    void aMirrorJournalRecoversFromAPayloadHeldInMemoryAndContinuesAsTheOriginal() throws IOException
    {
        final Path original = dir.resolve("original");
        final List<long[]> events = events();
        RecoveryTest.append(original, events, 0, events.size());
        final List<CheckpointPayload> payloads = new ArrayList<>();
        builder(original).checkpointEvery(1_000)
            .onCheckpoint((sequence, payload) -> payloads.add(CheckpointPayload.of(payload)))
            .build().runToEnd();
        final CheckpointPayload payload = payloads.get(1);
        final int covered = outputsThrough(JournalDirectory.open(original), payload.outputPosition());
        final List<String> expected = withoutOffsets(RecoveryTest.outputs(original));
        assertTrue(payload.sourceOffset() > 0 && covered > 0 && covered < expected.size(), "a checkpoint mid-way: " + covered);

        // the mirror: the strings the state refers to, then only the events after those the payload covers
        final Path mirror = dir.resolve("mirror");
        EventJournal.openOrCreate(mirror).close();
        try (EventJournal journal = EventJournal.openOrCreate(original))
        {
            HistoryBase.seed(JournalDirectory.open(mirror), journal.dictionaries().definitions());
        }
        RecoveryTest.append(mirror, events, eventsThrough(JournalDirectory.open(original), payload.sourceOffset()), events.size());

        final Pipeline pipeline = builder(mirror).checkpointEvery(1_000_000).recoverFrom(payload).build();
        try
        {
            assertEquals(List.of(), checkpointFiles(mirror), "no checkpoint written before the run's first");
            assertEquals(0, pipeline.restoredFrom().sequence(), "recovered from the payload");
            pipeline.runToEnd();
        }
        finally
        {
            pipeline.close();
        }
        assertTrue(!checkpointFiles(mirror).isEmpty(), "the run's own checkpoints at its end");
        RecoveryTest.assertSameOutputs(expected.subList(covered, expected.size()), withoutOffsets(RecoveryTest.outputs(mirror)));
    }

    @Test
    void aPayloadOfAnotherConfigurationIsRefused()
    {
        final Path original = dir.resolve("original");
        final List<long[]> events = events();
        RecoveryTest.append(original, events, 0, events.size());
        final List<CheckpointPayload> payloads = new ArrayList<>();
        builder(original).onCheckpoint((sequence, payload) -> payloads.add(CheckpointPayload.of(payload))).build().runToEnd();
        final Path mirror = dir.resolve("mirror");
        RecoveryTest.append(mirror, events, 0, 10);

        final PipelineBuilder other = Weir.pipeline().journal(mirror).window(TumblingWindows.of(2_000)).recoverFrom(payloads.get(0));
        final CheckpointMismatchException refused = assertThrows(CheckpointMismatchException.class, other::build);
        assertTrue(refused.getMessage().contains("the journal was processed with"), refused.getMessage());
    }

    private static PipelineBuilder builder(final Path journal)
    {
        return Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).outOfOrderness(200);
    }

    private static List<long[]> events()
    {
        final SplittableRandom random = new SplittableRandom(7);
        final List<long[]> events = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++)
        {
            events.add(new long[] {i, 10_000L + i * 3L - random.nextInt(150), random.nextInt(50), random.nextInt(1_000)});
        }
        return events;
    }

    /** @return how many events a journal holds up to and including an offset (an offset is no index: it holds the cycle and slot) */
    private static int eventsThrough(final JournalDirectory journal, final long offset)
    {
        final int[] count = new int[1];
        try (JournalReader reader = JournalReader.open(journal))
        {
            while (reader.poll((at, id, time, key, value) ->
            {
                if (at <= offset)
                {
                    count[0]++;
                }
            }, 4096) > 0)
            {
                // count them all
            }
        }
        return count[0];
    }

    /** @return how many outputs a journal holds up to and including a position */
    private static int outputsThrough(final JournalDirectory journal, final long position)
    {
        int count = 0;
        try (OutputJournal outputs = OutputJournal.open(journal))
        {
            while (outputs.next(output -> { }) != 0 && outputs.lastReadPosition() <= position)
            {
                count++;
            }
        }
        return count;
    }

    private static List<Path> checkpointFiles(final Path journal) throws IOException
    {
        final Path checkpoints = JournalDirectory.open(journal).checkpoints();
        if (!Files.isDirectory(checkpoints))
        {
            return List.of();
        }
        try (Stream<Path> files = Files.list(checkpoints))
        {
            return files.toList();
        }
    }

    private static List<String> withoutOffsets(final List<String> rows)
    {
        return rows.stream().map(row -> row.substring(0, row.indexOf(" @"))).toList();
    }
}
