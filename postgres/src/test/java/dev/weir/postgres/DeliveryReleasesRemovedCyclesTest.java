package dev.weir.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.weir.engine.Pipeline;
import dev.weir.engine.Weir;
import dev.weir.engine.retention.JournalRetention;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.retention.HeldRemovedCycles;
import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28, item 7: a sink that delivers a following pipeline's results for long (as {@code weir run --follow
 * --jdbc-url} does) keeps none of the events cycles retention removed open. Its key lookups read the first cycle,
 * where every key is defined, and then needed nothing more; before, that kept the first cycle file mapped for
 * the sink's whole life, its disk space held after retention deleted it. A minutely journal under a test clock.
 */
@Tag("slow")
class DeliveryReleasesRemovedCyclesTest
{
    private static final int CYCLES = 5;
    private static final int PER_CYCLE = 300;

    @TempDir
    Path dir;

    @RegisterExtension
    final TestTables tables = new TestTables("released_test");

    private final AtomicLong now = new AtomicLong(Instant.parse("2026-12-01T10:00:00Z").toEpochMilli() + 5_000);

    @AfterEach
    void restoreClock()
    {
        JournalClock.useForTests(null);
    }

    @Test
    void aLongDeliveryKeepsNoRemovedCycleOpen() throws Exception
    {
        JournalClock.useForTests(JournalClock.of(now::get));
        final Path path = dir.resolve("j");
        EventJournal.openOrCreate(path, null, JournalRollCycle.MINUTELY).close();
        final JournalDirectory journal = JournalDirectory.open(path);
        final String firstCycle;
        try (Pipeline pipeline = Weir.pipeline().journal(path).window(TumblingWindows.of(1_000)).checkpointEvery(100).build().start();
             PostgresSink sink = PostgresSink.connect(TestDatabase.URL, tables.name(), 300))
        {
            for (int c = 0; c < CYCLES; c++)
            {
                long offset = -1;
                for (int i = 0; i < PER_CYCLE; i++)
                {
                    offset = pipeline.append(c * PER_CYCLE + i, now.get() + i * 10L, "k" + (i % 10), i);
                }
                assertTrue(pipeline.awaitOffset(offset, 60, TimeUnit.SECONDS));
                assertTrue(sink.deliver(journal).results() > 0, "cycle " + c + " delivered");
                now.addAndGet(60_000);
            }
            firstCycle = JournalCycles.events(journal).cycles().get(0).fileName();
            JournalRetention.apply(journal, 0, null, now.get(), false);
            assertFalse(Files.exists(journal.eventsQueue().resolve(firstCycle)), "retention removed the first events cycle, " + firstCycle);

            sink.deliver(journal); // nothing new: the sink goes on as a follower's does
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!HeldRemovedCycles.inThisProcess(path).isEmpty() && System.nanoTime() < deadline)
            {
                Thread.sleep(20); // Chronicle lets go of a file on a background thread
            }
            assertEquals(List.of(), HeldRemovedCycles.inThisProcess(path), "removed cycle files this process still maps or holds open");
        }
    }
}
