package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import dev.weir.engine.delivery.DeliveryListener;
import dev.weir.engine.delivery.OutputSink;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PipelineBuilder#deliverContinuously}: the pipeline runs the delivery on its own
 * {@code weir-<pipeline>-<run>-delivery} thread, made by the application's thread factory, and its last delivery,
 * when the run ends, sees every output; a refusal stops the delivery and is told to the listener, not the run.
 */
class PipelineDeliveryTest
{
    @TempDir
    Path dir;

    @Test
    void theLastDeliverySeesEveryOutputAndRunsOnThePipelinesDeliveryThread()
    {
        final Path journal = journal();
        final RecordingSink sink = new RecordingSink(null);
        final List<String> made = new CopyOnWriteArrayList<>();
        final RunSummary summary = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000))
            .threadFactory(task ->
            {
                made.add(task.toString());
                return new Thread(task, task.toString());
            })
            .deliverContinuously(sink, Duration.ofMillis(1)).build().runToEnd();

        assertTrue(summary.events() > 0);
        assertTrue(sink.seen.size() >= 1, "delivered at least once, at the end");
        assertEquals(outputs(journal), sink.seen.get(sink.seen.size() - 1), "the last delivery saw every output");
        assertTrue(sink.thread.get().matches("weir-default-\\d+-delivery"), sink.thread.get());
        assertTrue(made.contains(sink.thread.get()), "made by the application's factory: " + made);
    }

    @Test
    void aRefusalStopsTheDeliveryNotTheRun()
    {
        final Path journal = journal();
        final IllegalStateException refused = new IllegalStateException("not this journal's table");
        final RecordingSink sink = new RecordingSink(refused);
        final AtomicReference<RuntimeException> stopped = new AtomicReference<>();
        final RunSummary summary = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000))
            .deliverContinuously(sink, Duration.ofMillis(1), new DeliveryListener()
            {
                @Override
                public void onStopped(final RuntimeException cause)
                {
                    stopped.set(cause);
                }
            }).build().runToEnd();

        assertNotNull(summary, "the run completed");
        assertSame(refused, stopped.get());
        assertEquals(1, sink.seen.size(), "no delivery after the refusal");
    }

    @Test
    void aRunWithoutDurableOutputsCannotDeliver()
    {
        final PipelineBuilder builder = Weir.pipeline().journal(journal()).window(TumblingWindows.of(1_000)).replayRange(0, 10)
            .deliverContinuously(new RecordingSink(null), Duration.ofSeconds(1));
        assertThrows(IllegalStateException.class, builder::build);
        assertThrows(IllegalArgumentException.class, () -> Weir.pipeline().deliverContinuously(new RecordingSink(null), Duration.ZERO));
    }

    private Path journal()
    {
        final Path journal = dir.resolve("j");
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int i = 0; i < 5_000; i++)
            {
                writer.append(i, i, "k" + i % 7, i);
            }
        }
        return journal;
    }

    private static long outputs(final Path journal)
    {
        final long[] count = {0};
        try (OutputJournal output = OutputJournal.open(JournalDirectory.open(journal)))
        {
            output.readAll(stored -> count[0]++);
        }
        return count[0];
    }

    /** Counts the output journal's outputs at each delivery, on the thread it was called. */
    private static final class RecordingSink implements OutputSink
    {
        final List<Long> seen = new CopyOnWriteArrayList<>();
        final AtomicReference<String> thread = new AtomicReference<>();
        private final RuntimeException refusal;

        RecordingSink(final RuntimeException refusal)
        {
            this.refusal = refusal;
        }

        @Override
        public void deliver(final JournalDirectory journal)
        {
            thread.set(Thread.currentThread().getName());
            final long[] count = {0};
            try (OutputJournal output = OutputJournal.open(journal))
            {
                output.readAll(stored -> count[0]++);
            }
            seen.add(count[0]);
            if (refusal != null)
            {
                throw refusal;
            }
        }

        @Override
        public long heldPosition()
        {
            return UNKNOWN;
        }

        @Override
        public long pendingResults(final JournalDirectory journal)
        {
            return 0;
        }

        @Override
        public void abort()
        {
        }
    }
}
