package dev.weir.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.Weir;
import dev.weir.engine.delivery.DeliveryListener;
import dev.weir.engine.delivery.OutputSink;
import dev.weir.engine.delivery.PendingDelivery;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.files.FileOutputSink;
import dev.weir.files.ResultFiles;
import dev.weir.files.RowColumns;
import dev.weir.journal.JournalDirectory;
import dev.weir.kafka.KafkaOutputSink;
import dev.weir.postgres.PostgresOutputSink;
import dev.weir.postgres.PostgresSink;
import dev.weir.postgres.ResultsTableShape;
import dev.weir.testsupport.TestDatabase;

/**
 * The child JVM of {@link OutputSinkContract}: a pipeline over a journal, run to its end with its outputs delivered
 * continuously into one of the three {@link OutputSink}s, then delivered once more (the last delivery of the run may
 * have found the target unavailable); exits 0 once all is delivered, {@value #NOT_DONE} if
 * the last delivery was abandoned (run it again), and fails if the sink refused. Arguments: the sink's kind ({@code files},
 * {@code postgres}, {@code kafka}), the journal, the target (a directory, a table, {@code bootstrap/topic}).
 */
final class SinkDeliveryChild
{
    /** The exit code of a child whose last delivery was abandoned (still blocked at the stop): run it again. */
    static final int NOT_DONE = 3;
    /** The columns of every row the three sinks write. */
    static final RowColumns COLUMNS = new RowColumns("key", "value", List.of());

    private SinkDeliveryChild()
    {
    }

    /**
     * @param args kind, journal, target.
     * @throws Exception if the run or the delivery fails (the exit code is then not 0).
     */
    public static void main(final String[] args) throws Exception
    {
        final Path journal = Path.of(args[1]);
        final OutputSink sink = open(args[0], journal, args[2]);
        try
        {
            final AtomicReference<RuntimeException> refused = new AtomicReference<>();
            final AtomicBoolean abandoned = new AtomicBoolean();
            pipeline(journal).deliverContinuously(sink, Duration.ofMillis(20), new DeliveryListener()
            {
                @Override
                public void onStopped(final RuntimeException cause)
                {
                    refused.set(cause);
                }

                @Override
                public void onPending(final PendingDelivery pending)
                {
                    abandoned.set(pending.abandoned());
                }
            }).build().runToEnd();
            if (abandoned.get())
            {
                System.err.println("the last delivery did not end within the stop's grace: not done");
                System.exit(NOT_DONE); // its thread still owns the sink
            }
            if (refused.get() != null)
            {
                throw refused.get(); // a sink that refuses fails the contract
            }
            sink.deliver(JournalDirectory.open(journal).pipeline(JournalDirectory.DEFAULT_PIPELINE));
        }
        finally
        {
            if (sink instanceof AutoCloseable closeable)
            {
                closeable.close();
            }
        }
        System.exit(0);
    }

    /**
     * @param journal the journal.
     * @return the pipeline the contract runs: tumbling windows of 1 s, checkpoints every 2,000 events.
     */
    static PipelineBuilder pipeline(final Path journal)
    {
        return Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).outOfOrderness(400).allowedLateness(3_000)
            .checkpointEvery(2_000);
    }

    /**
     * @param kind    {@code files}, {@code postgres} or {@code kafka}.
     * @param journal the journal whose default pipeline is delivered.
     * @param target  a directory ({@code results.csv} and {@code late.csv} in it), a results table (late events into TABLE_late), or
     *                {@code bootstrap/topic}.
     * @return the sink (closeable for Kafka; a PostgreSQL sink's connection is the JVM's to close at its exit).
     */
    static OutputSink open(final String kind, final Path journal, final String target)
    {
        switch (kind)
        {
            case "files":
                final Path results = Path.of(target, "results.csv");
                return new FileOutputSink(ResultFiles.of(journal, JournalDirectory.DEFAULT_PIPELINE).columns(COLUMNS).results(results)
                    .late(Path.of(target, "late.csv")).build(), results);
            case "postgres":
                return new PostgresOutputSink(PostgresSink.deferred(TestDatabase.URL, target, target + "_late", ResultsTableShape.DEFAULT, 200),
                    TestDatabase.URL);
            case "kafka":
                final int slash = target.indexOf('/');
                return new KafkaOutputSink(target.substring(0, slash), target.substring(slash + 1), COLUMNS);
            default:
                throw new IllegalArgumentException("no sink of kind " + kind);
        }
    }
}
