package dev.weir.engine.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.Pipeline;
import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code syncOnCheckpoint}: when a checkpoint is on disk, the events it covers are too, whoever appended
 * them, not only the outputs. Observed for real, without a machine crash: the kernel marks a page of a
 * memory-mapped file dirty until it is written back, and {@code /proc/self/smaps} shows the dirty pages of
 * each mapping of this process. Events appended through the Java API (an {@link EventJournal} kept open
 * here, as an embedding application does) leave their pages dirty; the kernel writes them back by
 * itself only after about 30 s. A checkpoint that covers them must find them clean, because the
 * checkpointer forced them to disk before it wrote the checkpoint. Linux only, on a disk-backed
 * filesystem (in {@code target/}: a tmpfs has no write-back).
 */
final class SyncOnCheckpointTest
{
    private static final int EVENTS = 20_000;

    private Path root;

    @BeforeEach
    void journalOnADisk() throws IOException
    {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/smaps")), "needs Linux's /proc/self/smaps");
        Files.createDirectories(Path.of("target"));
        root = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "sync-on-checkpoint-");
        final String type = Files.getFileStore(root).type();
        assertTrue(!type.equals("tmpfs") && !type.equals("ramfs"), "target/ is on a filesystem with write-back, not " + type);
    }

    @AfterEach
    void deleteJournal() throws IOException
    {
        try (var paths = Files.walk(root))
        {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void aBoundedRunForcesTheEventsItsCheckpointCoversToDiskNotOnlyItsOutputs() throws Exception
    {
        final Path journal = root.resolve("journal");
        try (EventJournal producer = EventJournal.openOrCreate(journal))
        {
            append(producer, 0, EVENTS);
            assertTrue(DirtyPages.kib(".cq4", "/events/") > 0, "the appended events' pages are dirty before the run");

            final Pipeline pipeline = Weir.pipeline().journal(journal).window(TumblingWindows.of(100)).syncOnCheckpoint(true).build();
            pipeline.runToEnd();

            assertTrue(covered(journal).finished(), "the last checkpoint covers the whole input");
            assertEquals(EVENTS, covered(journal).applied(), "the last checkpoint covers every event");
            assertEquals(0, DirtyPages.kib(".cq4", "/events/"), "every event the checkpoint covers was forced to disk");
        }
    }

    @Test
    void aFollowingRunForcesTheEventsOfEachCheckpointBeforeWritingIt() throws Exception
    {
        final Path journal = root.resolve("journal");
        try (EventJournal producer = EventJournal.openOrCreate(journal))
        {
            append(producer, 0, 10); // the journal exists with its first events before the pipeline opens it
            final Pipeline pipeline = Weir.pipeline().journal(journal).window(TumblingWindows.of(100)).syncOnCheckpoint(true)
                .checkpointEvery(1_000).build().start();
            boolean stopped = false;
            try
            {
                final dev.weir.journal.JournalOffsets offsets = producer.directory().offsets();
                long last = append(producer, 10, EVENTS);
                int appended = EVENTS;
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180); // forced writes on a busy machine's disk
                Checkpoint periodic;
                // a checkpoint falls due only as events arrive, and waits for the next event while the previous
                // one is still being written: feed small batches until one covers the stream's recent end
                while (true)
                {
                    while (pipeline.processedOffset() < last)
                    {
                        assertTrue(System.nanoTime() < deadline, "the run processes every event within 180 s");
                        Thread.sleep(5);
                    }
                    periodic = covered(journal);
                    // each event is a document of its own: queue indices count events, offsets may not (slotted offsets)
                    if (periodic != null && offsets.index(periodic.sourceOffset()) >= offsets.index(last) - 2_500)
                    {
                        break;
                    }
                    assertTrue(System.nanoTime() < deadline, "a periodic checkpoint covers the stream's recent end within 180 s");
                    Thread.sleep(20);
                    last = append(producer, appended, appended + 200);
                    appended += 200;
                }
                // a page still dirty must hold an event appended after that checkpoint's offset (or the index
                // entry of one): every page before it was forced before the checkpoint was written
                final long after = offsets.index(last) - offsets.index(periodic.sourceOffset());
                // each dirty page is counted once per mapping of it in this process: the producer's appender and the
                // run's reader map the same file, so an event after the checkpoint may count twice (up to 64 B each):
                // the bound stays far below the 20,000 events (about 780 KiB in one mapping) a checkpoint that forced
                // nothing would leave dirty
                final long bound = 16 + after * 2 * 64 / 1024;
                final long dirty = DirtyPages.kib(".cq4", "/events/");
                assertTrue(dirty <= bound, "the events a periodic checkpoint covers were forced to disk before it was written: "
                    + dirty + " KiB dirty, at most " + bound + " KiB may hold the " + after + " events after it");

                pipeline.stop();
                stopped = true;
                assertEquals(last, covered(journal).sourceOffset(), "the checkpoint taken on stop covers every event");
                assertEquals(0, DirtyPages.kib(".cq4", "/events/"), "every event the checkpoint taken on stop covers was forced to disk");
            }
            finally
            {
                if (!stopped)
                {
                    pipeline.stop();
                }
            }
        }
    }

    private static long append(final EventJournal producer, final int from, final int to)
    {
        long offset = -1;
        for (int i = from; i < to; i++)
        {
            offset = producer.append(i, 1_000L + i, "k" + (i % 50), i);
        }
        return offset;
    }

    /**
     * @return what the newest checkpoint covers, or null if there is none yet (or it was pruned while read).
     */
    private static Checkpoint covered(final Path journal)
    {
        try
        {
            final CheckpointStore.Loaded newest = new CheckpointStore(JournalDirectory.open(journal).checkpoints(), 3).loadNewestValid();
            return newest == null ? null : CheckpointCodec.describe(newest);
        }
        catch (final java.io.UncheckedIOException ex)
        {
            return null; // the running checkpointer deleted an old file between the listing and the read
        }
    }
}
