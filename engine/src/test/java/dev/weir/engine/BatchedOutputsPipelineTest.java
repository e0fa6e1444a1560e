package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import dev.weir.engine.checkpoint.CheckpointCodec;
import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.model.WindowKind;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalOffsets;
import dev.weir.journal.OutputJournal;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A pipeline over a journal of batched documents (marker version 5) writes its outputs several to a document, and they
 * are the outputs, in order, a journal of single documents gets; a run resumed from a checkpoint whose output position
 * lies inside a batched document (one taken while a recovery verified stored outputs) verifies the rest of that
 * document output by output, whatever documents the replay would have cut, and writes each output once.
 */
class BatchedOutputsPipelineTest
{
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void aJournalOfBatchedDocumentsHoldsTheOutputsOfOneOfSingleDocuments(final WindowKind kind)
    {
        final List<long[]> events = events(30_000, 21);
        final Path single = dir.resolve("single");
        final Path batched = batched(dir.resolve("batched"));
        RecoveryTest.append(single, events, 0, events.size());
        RecoveryTest.append(batched, events, 0, events.size());
        builder(single, kind).checkpointEvery(4_000).build().runToEnd();
        for (final PipelineLayout layout : PipelineLayout.values())
        {
            final Path again = batched(dir.resolve("batched-" + layout));
            RecoveryTest.append(again, events, 0, events.size());
            builder(again, kind).checkpointEvery(4_000).layout(layout).build().runToEnd();
            RecoveryTest.assertSameOutputs(RecoveryTest.outputs(single), RecoveryTest.outputs(again));
        }
        builder(batched, kind).checkpointEvery(4_000).build().runToEnd();
        final List<String> outputs = RecoveryTest.outputs(batched);
        RecoveryTest.assertSameOutputs(RecoveryTest.outputs(single), outputs);
        final long documents = documents(JournalDirectory.open(batched));
        assertTrue(documents < outputs.size() / 4, outputs.size() + " outputs in " + documents + " documents");
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void resumingFromAPositionInsideABatchedDocumentOrAtItsEndWritesEachOutputOnce(final WindowKind kind) throws Exception
    {
        final List<long[]> events = events(30_000, 23);
        final Path clean = batched(dir.resolve("clean"));
        final Path resumed = batched(dir.resolve("resumed"));
        RecoveryTest.append(clean, events, 0, events.size());
        RecoveryTest.append(resumed, events, 0, events.size());
        updates(clean, kind).build().runToEnd();
        final List<String> expected = RecoveryTest.outputs(clean);

        // inline: the ring is filled a poll at a time, so its batches, each ended by a flush, are long and most documents
        // hold 64 outputs, of consecutive events (an update row each)
        updates(resumed, kind).checkpointEvery(5_000).layout(PipelineLayout.INLINE).build().runToEnd();
        int insideABatch = 0;
        int atTheEndOfOne = 0;
        // four rounds at least, more (to a bound) until both kinds of position are met: a checkpoint is skipped while the
        // writer is still writing the one before, so on a loaded machine the positions of a round can all be of one kind
        for (int round = 0; round < 4 || (round < 24 && (insideABatch == 0 || atTheEndOfOne == 0)); round++)
        {
            final CheckpointStore store = new CheckpointStore(JournalDirectory.open(resumed).checkpoints(), 3);
            final List<Path> files = store.files();
            if (round % 2 == 0)
            {
                // as if the process died after an older checkpoint of the run that wrote the outputs: its position is the last
                // output of a document (a checkpoint writes the outputs held first)
                for (int i = Math.max(1, files.size() - 2); i < files.size(); i++)
                {
                    Files.delete(files.get(i));
                }
            }
            else
            {
                // a replay from the start that verifies every stored output, writing none: of its checkpoints, the last one
                // taken while running records the last output verified after its event, mostly inside a document the
                // first run cut elsewhere (at 64 outputs and at the ends of its batches of events)
                for (final Path file : files)
                {
                    Files.delete(file);
                }
                final RunSummary verified = updates(resumed, kind).checkpointEvery(1_234 + 567 * round).build().runToEnd();
                assertEquals(expected.size(), verified.suppressedOutputs(), "every output was stored already");
                final List<Path> written = store.files();
                for (int i = Math.max(1, written.size() - 2); i < written.size(); i++)
                {
                    Files.delete(written.get(i)); // its checkpoints at the end of the input: the one before remains
                }
            }
            final long position = CheckpointCodec.describe(store.loadNewestValid()).outputPosition();
            if (insideABatch(JournalDirectory.open(resumed), position))
            {
                insideABatch++;
            }
            else
            {
                atTheEndOfOne++;
            }
            final RunSummary again = updates(resumed, kind).checkpointEvery(1_111 + 377 * round).build().runToEnd();
            assertTrue(again.resumedAfterOffset() >= 0, "resumed from a checkpoint");
            RecoveryTest.assertSameOutputs(expected, RecoveryTest.outputs(resumed));
        }
        assertTrue(insideABatch > 0, "a resumed run started inside a batched document");
        assertTrue(atTheEndOfOne > 0, "a resumed run started at the end of a document");
    }

    /** @return true if the output after {@code position} is in the same document: the position is inside a batch. */
    private static boolean insideABatch(final JournalDirectory journal, final long position)
    {
        try (OutputJournal output = OutputJournal.open(journal))
        {
            output.seekAfter(position);
            return output.next(stored -> { }) != 0
                && JournalOffsets.SLOTTED.index(output.lastReadPosition()) == JournalOffsets.SLOTTED.index(position);
        }
    }

    private static long documents(final JournalDirectory journal)
    {
        long documents = 0;
        for (final JournalCycles.Cycle cycle : JournalCycles.results(journal).cycles())
        {
            documents += cycle.documents();
        }
        return documents;
    }

    /**
     * @param root where to create a journal.
     * @return it, created empty with its marker at version 5 (a journal of batched documents), before anything is appended.
     */
    static Path batched(final Path root)
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
        assertEquals(JournalOffsets.SLOTTED, JournalDirectory.open(root).offsets());
        return root;
    }

    /** @return {@link #builder} with an update row per event: outputs of consecutive events share documents. */
    private static PipelineBuilder updates(final Path journal, final WindowKind kind)
    {
        return builder(journal, kind).emitUpdates(true);
    }

    private static PipelineBuilder builder(final Path journal, final WindowKind kind)
    {
        final WindowSpec spec = kind == WindowKind.TUMBLING ? TumblingWindows.of(1_000)
            : kind == WindowKind.SLIDING ? SlidingWindows.of(1_000, 250) : SessionWindows.withGap(300);
        return Weir.pipeline().journal(journal).window(spec).outOfOrderness(200).allowedLateness(300).latePolicy(LatePolicy.SIDE)
            .emitUpdates(kind == WindowKind.SESSION);
    }

    private static List<long[]> events(final int count, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<long[]> events = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final long time = 10_000L + i / 3 - random.nextInt(300) - (random.nextInt(200) == 0 ? 1_500 : 0);
            events.add(new long[] {i, Math.max(0, time), random.nextInt(300), random.nextInt(2_000) - 1_000});
        }
        return events;
    }
}
