package dev.weir.engine.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.checkpoint.Checkpoint;
import dev.weir.engine.checkpoint.CheckpointCodec;
import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.DeliveryPositions;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The retention floor of a journal: each pipeline's newest valid checkpoint holds the events and outputs
 * its recovery reads, the lowest holder wins and is named, a pipeline that ran without a valid checkpoint
 * holds everything, a corrupt newest checkpoint falls back as recovery does, a delivery record holds its
 * pipeline's outputs (a torn one all of them), and tuple-keyed pipelines give their key columns.
 */
class RetentionFloorTest
{
    private static final JournalSchema SCHEMA = JournalSchema.parse("card:string,merchant:string,amount:long,fee:long");

    @TempDir
    Path dir;

    @Test
    void oneCheckpointedPipelineHoldsTheEventItCoversLastAndTheOutputItCoversLast() throws IOException
    {
        final Path path = dir.resolve("j");
        append(path, 0, 6_000);
        spend(path, JournalDirectory.DEFAULT_PIPELINE).build().runToEnd();
        final JournalDirectory journal = JournalDirectory.open(path);
        final Checkpoint newest = newestCheckpoint(journal);
        assertTrue(newest.sourceOffset() > 0 && newest.outputPosition() > 0, "checkpointed after events and outputs: " + newest);

        final List<Path> before = listing(path);
        final RetentionFloor floor = RetentionFloor.of(journal);
        assertEquals(before, listing(path), "reading the floor creates nothing");

        assertEquals(newest.sourceOffset(), floor.eventsFloor(), floor.toString());
        final RetentionHolder holder = floor.eventsHolder();
        assertEquals(RetentionHolder.Kind.PIPELINE_CHECKPOINT, holder.kind());
        assertEquals(JournalDirectory.DEFAULT_PIPELINE, holder.pipeline());
        assertTrue(holder.detail().startsWith("checkpoint " + newest.sequence() + " written 20"), holder.detail());
        assertEquals(List.of(JournalDirectory.DEFAULT_PIPELINE), floor.pipelines());
        assertEquals(newest.outputPosition(), floor.outputFloor(JournalDirectory.DEFAULT_PIPELINE));
        assertEquals(holder, floor.pipeline(JournalDirectory.DEFAULT_PIPELINE).holder());
        assertEquals(List.of(holder), floor.holders());
        assertEquals(RetentionFloor.NOT_HELD, floor.outputFloor("nosuch"));
    }

    @Test
    void theLowestOfSeveralPipelinesWinsAndIsNamed()
    {
        final Path path = dir.resolve("j");
        append(path, 0, 4_000);
        fees(path, "fees").build().runToEnd();
        append(path, 4_000, 9_000);
        spend(path, JournalDirectory.DEFAULT_PIPELINE).build().runToEnd();
        pairs(path, "pairs").build().runToEnd();
        final JournalDirectory journal = JournalDirectory.open(path);
        final Checkpoint spend = newestCheckpoint(journal);
        final Checkpoint fees = newestCheckpoint(journal.pipeline("fees"));
        final Checkpoint pairs = newestCheckpoint(journal.pipeline("pairs"));
        assertTrue(fees.sourceOffset() < spend.sourceOffset() && fees.sourceOffset() < pairs.sourceOffset());

        final RetentionFloor floor = RetentionFloor.of(journal.pipeline("pairs"));
        assertEquals(List.of("default", "fees", "pairs"), floor.pipelines());
        assertEquals(fees.sourceOffset(), floor.eventsFloor());
        assertEquals("fees", floor.eventsHolder().pipeline());
        assertEquals(RetentionHolder.Kind.PIPELINE_CHECKPOINT, floor.eventsHolder().kind());
        assertEquals(3, floor.holders().size(), floor.holders().toString());
        assertEquals(spend.outputPosition(), floor.outputFloor("default"), "each pipeline's outputs are its own");
        assertEquals(fees.outputPosition(), floor.outputFloor("fees"));
        assertEquals(pairs.outputPosition(), floor.outputFloor("pairs"));
    }

    @Test
    void aPipelineWithOutputsAndNoValidCheckpointHoldsEverything() throws IOException
    {
        final Path path = dir.resolve("j");
        append(path, 0, 6_000);
        spend(path, JournalDirectory.DEFAULT_PIPELINE).build().runToEnd();
        fees(path, "fees").build().runToEnd();
        final JournalDirectory journal = JournalDirectory.open(path);
        for (final Path file : new CheckpointStore(journal.pipeline("fees").checkpoints(), 2).files())
        {
            Files.delete(file);
        }

        RetentionFloor floor = RetentionFloor.of(journal);
        assertEquals(RetentionFloor.FROM_START, floor.eventsFloor());
        assertEquals("fees", floor.eventsHolder().pipeline());
        assertEquals(RetentionHolder.Kind.PIPELINE_WITHOUT_CHECKPOINT, floor.eventsHolder().kind());
        assertTrue(floor.eventsHolder().detail().contains("it has outputs but no checkpoint"), floor.eventsHolder().detail());
        assertEquals(RetentionFloor.FROM_START, floor.outputFloor("fees"));
        assertEquals(newestCheckpoint(journal).outputPosition(), floor.outputFloor("default"));
        assertEquals(List.of(), floor.pipeline("fees").keyColumns());

        // checkpoint files none of which is valid: the same
        final Path checkpoints = journal.pipeline("fees").checkpoints();
        Files.write(checkpoints.resolve("checkpoint-00000000000000000007.bin"), new byte[] {1, 2, 3});
        floor = RetentionFloor.of(journal);
        assertEquals(RetentionFloor.FROM_START, floor.eventsFloor());
        assertTrue(floor.eventsHolder().detail().contains("none of its 1 checkpoint file is valid"), floor.eventsHolder().detail());
    }

    @Test
    void aCorruptNewestCheckpointFallsBackToThePreviousValidOneAsRecoveryDoes() throws IOException
    {
        final Path path = dir.resolve("j");
        append(path, 0, 5_000);
        spend(path, JournalDirectory.DEFAULT_PIPELINE).checkpointEvery(1_000).build().runToEnd();
        final JournalDirectory journal = JournalDirectory.open(path);
        final List<Path> files = new CheckpointStore(journal.checkpoints(), 2).files();
        assertTrue(files.size() >= 2, "a fallback exists: " + files);
        final Checkpoint newest = newestCheckpoint(journal);
        // the end of input is checkpointed at the offset of the last event too: corrupt every newest one at it
        int corrupted = 0;
        while (newestCheckpoint(journal).sourceOffset() == newest.sourceOffset())
        {
            final Path newestFile = files.get(files.size() - 1 - corrupted++);
            final byte[] bytes = Files.readAllBytes(newestFile);
            bytes[bytes.length - 1] ^= 0x5A;
            Files.write(newestFile, bytes);
        }
        final Checkpoint previous = newestCheckpoint(journal);
        assertTrue(previous.sequence() < newest.sequence() && previous.sourceOffset() < newest.sourceOffset());

        final RetentionFloor floor = RetentionFloor.of(journal);
        assertEquals(previous.sourceOffset(), floor.eventsFloor());
        assertEquals(previous.outputPosition(), floor.outputFloor(JournalDirectory.DEFAULT_PIPELINE));
        assertTrue(floor.eventsHolder().detail().contains("checkpoint " + previous.sequence() + " written")
            && floor.eventsHolder().detail().contains(corrupted + " newer checkpoint file"), floor.eventsHolder().detail());

        final RunSummary resumed = spend(path, JournalDirectory.DEFAULT_PIPELINE).checkpointEvery(1_000).build().runToEnd();
        assertEquals(floor.eventsFloor(), resumed.resumedAfterOffset(), "the run resumes where the floor holds");
    }

    @Test
    void theOutputFloorIsTheLowerOfTheCheckpointAndTheDeliveries() throws IOException
    {
        final Path path = dir.resolve("j");
        append(path, 0, 6_000);
        spend(path, JournalDirectory.DEFAULT_PIPELINE).build().runToEnd();
        fees(path, "fees").build().runToEnd();
        final JournalDirectory journal = JournalDirectory.open(path);
        final Checkpoint spend = newestCheckpoint(journal);
        final Checkpoint fees = newestCheckpoint(journal.pipeline("fees"));
        final List<Long> positions = positions(journal.pipeline("fees"));
        final long early = positions.get(positions.size() / 3);
        assertTrue(early < fees.outputPosition());
        final Path feesRoot = journal.pipeline("fees").pipelineRoot();
        final String target = "jdbc:postgresql://127.0.0.1:5432/weir";

        // a delivery ahead of the checkpoint: the checkpoint sets the floor
        DeliveryPositions.register(feesRoot, "fees_results", target, fees.outputPosition() + 1, 0);
        RetentionFloor floor = RetentionFloor.of(journal);
        assertEquals(fees.outputPosition(), floor.outputFloor("fees"));
        assertEquals(RetentionHolder.Kind.PIPELINE_CHECKPOINT, floor.pipeline("fees").holder().kind());

        // behind it: the delivery does, and is named; it holds no events
        DeliveryPositions.advance(feesRoot, "fees_results", target, early, 0);
        floor = RetentionFloor.of(journal);
        assertEquals(early, floor.outputFloor("fees"));
        final RetentionHolder delivery = floor.pipeline("fees").holder();
        assertEquals(RetentionHolder.Kind.POSTGRES_DELIVERY, delivery.kind());
        assertEquals(RetentionFloor.NOT_HELD, delivery.eventsFrom());
        assertTrue(delivery.detail().startsWith("delivery into fees_results at " + target + ", updated 1970-01-01T00:00:00Z"), delivery.detail());
        assertEquals(spend.outputPosition(), floor.outputFloor("default"), "another pipeline's delivery holds another output journal");
        assertEquals(Math.min(spend.sourceOffset(), fees.sourceOffset()), floor.eventsFloor());

        // registered before its first commit: every output
        DeliveryPositions.register(feesRoot, "fees_results", target, DeliveryPositions.EVERYTHING, 0);
        assertEquals(RetentionFloor.FROM_START, RetentionFloor.of(journal).outputFloor("fees"));

        // a torn record: every output, never none
        DeliveryPositions.advance(feesRoot, "fees_results", target, early, 0);
        final Path record = DeliveryPositions.file(feesRoot, "fees_results", target);
        final byte[] whole = Files.readAllBytes(record);
        Files.write(record, java.util.Arrays.copyOf(whole, whole.length / 2));
        floor = RetentionFloor.of(journal);
        assertEquals(RetentionFloor.FROM_START, floor.outputFloor("fees"));
        assertTrue(floor.pipeline("fees").holder().detail().contains("cannot be read"), floor.pipeline("fees").holder().detail());
        Files.write(record, "garbage".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(RetentionFloor.FROM_START, RetentionFloor.of(journal).outputFloor("fees"));

        // a delivery of the default pipeline, whose records are at the root
        DeliveryPositions.register(journal.pipelineRoot(), "weir_results", target, DeliveryPositions.EVERYTHING, 0);
        floor = RetentionFloor.of(journal);
        assertEquals(RetentionFloor.FROM_START, floor.outputFloor("default"));
        assertEquals(4, floor.holders().size(), floor.holders().toString());
    }

    @Test
    void tupleKeyedPipelinesGiveTheirKeyColumnsFromTheirCheckpoint()
    {
        final Path path = dir.resolve("j");
        append(path, 0, 3_000);
        spend(path, JournalDirectory.DEFAULT_PIPELINE).build().runToEnd();
        pairs(path, "pairs").build().runToEnd();
        Weir.pipeline().journal(path).pipeline("by-fee").keyColumn("fee").valueColumn("amount").window(TumblingWindows.of(1_000))
            .outOfOrderness(200).build().runToEnd();
        Weir.pipeline().journal(path).pipeline("expr").keyColumns("merchant", "card").value("amount - fee").window(TumblingWindows.of(1_000))
            .outOfOrderness(200).build().runToEnd();

        final RetentionFloor floor = RetentionFloor.of(JournalDirectory.open(path));
        assertEquals(List.of(), floor.pipeline("default").keyColumns(), "one string column: dictionary ids");
        assertEquals(false, floor.pipeline("default").keysByTuple());
        assertEquals(List.of(0, 3), floor.pipeline("pairs").keyColumns());
        assertEquals(List.of(3), floor.pipeline("by-fee").keyColumns(), "a long column");
        assertEquals(List.of(1, 0), floor.pipeline("expr").keyColumns(), "in the key's order, past a value expression");
        assertEquals(3, floor.pipeline("expr").keyColumnArray()[1] + 3);
    }

    @Test
    void aPipelineThatNeverRanHoldsNothingAndAnEmptyJournalHasNoFloor() throws IOException
    {
        final Path path = dir.resolve("j");
        append(path, 0, 100);
        final JournalDirectory journal = JournalDirectory.open(path);
        Files.createDirectories(path.resolve("pipelines").resolve("idle"));
        final RetentionFloor floor = RetentionFloor.of(journal);
        assertEquals(RetentionFloor.NOT_HELD, floor.eventsFloor());
        assertNull(floor.eventsHolder());
        assertEquals(List.of("idle"), floor.pipelines());
        assertEquals(RetentionFloor.NOT_HELD, floor.outputFloor("idle"));
        assertNull(floor.pipeline("idle").holder());
        assertNotNull(floor.toString());
    }

    private static Checkpoint newestCheckpoint(final JournalDirectory pipeline)
    {
        return CheckpointCodec.describe(new CheckpointStore(pipeline.checkpoints(), 2).loadNewestValid());
    }

    private static List<Long> positions(final JournalDirectory pipeline)
    {
        final List<Long> positions = new ArrayList<>();
        try (OutputJournal outputs = OutputJournal.open(pipeline))
        {
            outputs.seekAfter(OutputJournal.NONE);
            while (outputs.next(output ->
            {
            }) != 0)
            {
                positions.add(outputs.lastReadPosition());
            }
        }
        return positions;
    }

    private static List<Path> listing(final Path root) throws IOException
    {
        try (Stream<Path> files = Files.walk(root))
        {
            return files.map(root::relativize).sorted().toList();
        }
    }

    private static PipelineBuilder spend(final Path journal, final String name)
    {
        return Weir.pipeline().journal(journal).pipeline(name).keyColumn("card").valueColumn("amount")
            .window(TumblingWindows.of(1_000)).outOfOrderness(200).allowedLateness(300).latePolicy(LatePolicy.SIDE);
    }

    private static PipelineBuilder fees(final Path journal, final String name)
    {
        return Weir.pipeline().journal(journal).pipeline(name).keyColumn("merchant").valueColumn("fee")
            .window(TumblingWindows.of(500)).outOfOrderness(200);
    }

    private static PipelineBuilder pairs(final Path journal, final String name)
    {
        return Weir.pipeline().journal(journal).pipeline(name).keyColumns("card", "fee").valueColumn("amount")
            .window(TumblingWindows.of(1_000)).outOfOrderness(200).allowedLateness(300).latePolicy(LatePolicy.SIDE);
    }

    private static void append(final Path journal, final int from, final int to)
    {
        final SplittableRandom random = new SplittableRandom(7);
        try (EventJournal writer = EventJournal.openOrCreate(journal, SCHEMA))
        {
            for (int i = 0; i < to; i++)
            {
                final long time = 10_000L + i - random.nextInt(300);
                final int card = random.nextInt(40);
                final int merchant = random.nextInt(7);
                final long amount = random.nextInt(5_000);
                final long fee = random.nextInt(50);
                if (i >= from)
                {
                    writer.append(writer.row().eventId(i).eventTime(time).setString(0, writer.stringId(0, "card-" + card))
                        .setString(1, writer.stringId(1, "m" + merchant)).setLong(2, amount).setLong(3, fee));
                }
            }
        }
    }
}
