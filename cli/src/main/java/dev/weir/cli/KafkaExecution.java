package dev.weir.cli;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import dev.weir.engine.Weir;
import dev.weir.engine.resume.CheckpointMismatchException;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.kafka.KafkaRun;
import dev.weir.kafka.KafkaRunBuilder;

/**
 * {@code weir run --kafka}: one instance of a consumer group, running until SIGINT or SIGTERM (then its partitions'
 * work is committed and the group left, so the others take them over) or a failure (exit 1). A journal directory
 * another instance uses, or a group whose checkpoints were taken under another configuration or other partition
 * counts, is refused with one message (exit 2). Prints a progress
 * line every few seconds on standard error: events mirrored, events/s, outputs, transactions, partitions owned.
 */
final class KafkaExecution
{
    /** Checkpoints every this many events per partition unless --checkpoint-every is given. */
    static final long DEFAULT_CHECKPOINT_EVERY = 50_000;
    private static final long PROGRESS_MS = 5_000;

    private final KafkaOptions kafka;
    private final WindowOptions window;
    private final ProcessingOptions processing;
    private final JournalSchema schema;
    private final Path journal;
    private final JournalRollCycle rollCycle;
    /** T of --idle-timeout, ms, or null. */
    private final Long idleTimeoutMs;

    KafkaExecution(final KafkaOptions kafka, final WindowOptions window, final ProcessingOptions processing, final JournalSchema schema,
        final Path journal, final JournalRollCycle rollCycle, final Long idleTimeoutMs)
    {
        this.idleTimeoutMs = idleTimeoutMs;
        this.kafka = kafka;
        this.window = window;
        this.processing = processing;
        this.schema = schema == null ? JournalSchema.DEFAULT : schema;
        this.journal = journal;
        this.rollCycle = rollCycle == null ? JournalRollCycle.DAILY : rollCycle;
    }

    /**
     * @param refused the first flag given that --kafka cannot take, or null.
     * @throws BadInputException if the flags are not a valid Kafka run.
     */
    void check(final String refused)
    {
        if (refused != null)
        {
            throw new BadInputException("--kafka takes no " + refused + ": its input is the topic, its outputs the output topic");
        }
        window.check();
        KafkaOptions.bootstrap(kafka.bootstrap);
        if (kafka.topic == null || kafka.group == null || kafka.outputTopic == null)
        {
            throw new BadInputException("--kafka needs --topic T, --group G and --output-topic O");
        }
        if (journal == null)
        {
            throw new BadInputException("--kafka needs --journal DIR: the partitions' journals go under DIR/kafka/");
        }
        for (final String column : window.keyColumn.split(",", -1))
        {
            if (schema.indexOf(column.trim()) < 0)
            {
                throw new BadInputException("--key " + window.keyColumn + ": " + column.trim() + " is not a column of " + schema);
            }
        }
        final List<TableDefinition> tables = TableOption.parse(kafka.tables);
        for (final String table : window.columns().joins())
        {
            if (tables.stream().noneMatch(t -> t.name().equals(table)))
            {
                throw new BadInputException("--join " + table + ": declare the table with --table '" + table + "(KEY)=COLUMNS' for --kafka");
            }
        }
        window.columns().projection(schema, tables); // the value, filter, early condition and named aggregates read the columns, before joining the group
        try
        {
            processing.applyTo(window.applyTo(Weir.pipeline())).concludeFor(schema, tables); // the joins' keys and types too
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        kafka.recordFormat();
        if (idleTimeoutMs != null && idleTimeoutMs <= 0)
        {
            throw new BadInputException("--idle-timeout must be > 0: " + idleTimeoutMs + " ms");
        }
        if (kafka.commitIntervalMs <= 0 || kafka.transactionTimeoutMs < 1000 || kafka.sessionTimeoutMs < 1000)
        {
            throw new BadInputException("--commit-interval must be > 0, --transaction-timeout and --session-timeout at least 1s");
        }
    }

    /**
     * Run until stopped.
     *
     * @param out where to say how to stop it and what it did.
     * @param err where progress goes.
     */
    void execute(final PrintStream out, final PrintStream err)
    {
        final long checkpointEvery = processing.checkpointEvery == 1_000_000 ? DEFAULT_CHECKPOINT_EVERY : processing.checkpointEvery;
        final KafkaRunBuilder builder = KafkaRun.builder().bootstrap(kafka.bootstrap).topic(kafka.topic).group(kafka.group).outputTopic(kafka.outputTopic)
            .rejectedTopic(kafka.rejectedTopic).instance(instance()).journal(journal).schema(schema).rollCycle(rollCycle)
            .pipeline(() -> processing.applyTo(window.applyTo(Weir.pipeline())).checkpointEvery(checkpointEvery))
            .keyColumn(window.keyColumn).recordFormat(kafka.recordFormat()).rows(window.columns()).commitInterval(kafka.commitInterval())
            .transactionTimeout(Duration.ofMillis(kafka.transactionTimeoutMs)).sessionTimeout(Duration.ofMillis(kafka.sessionTimeoutMs))
            .idleTimeout(Duration.ofMillis(idleTimeoutMs == null ? 0 : idleTimeoutMs));
        for (final TableDefinition table : TableOption.parse(kafka.tables))
        {
            builder.table(table);
        }
        final KafkaRun run = builder.build();
        final KafkaRun.Settings settings = run.settings();
        final CountDownLatch finished = new CountDownLatch(1);
        final Thread hook = new Thread(() ->
        {
            run.close();
            try
            {
                finished.await();
            }
            catch (final InterruptedException ignored)
            {
                Thread.currentThread().interrupt();
            }
            ExitStatus.haltIfFailed();
        }, "weir-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            run.start();
            out.println("Instance " + settings.instance() + " of group " + settings.group() + " on " + settings.topic() + " at "
                + settings.bootstrap() + ", results to " + settings.outputTopic() + ", rejected records to " + settings.rejectedTopic()
                + "; stop with Ctrl-C (SIGINT) or SIGTERM: its partitions' work is committed and the group left.");
            out.flush();
            long lastEvents = 0;
            long lastAt = System.nanoTime();
            while (true)
            {
                final boolean ended = run.awaitEnd(Duration.ofMillis(PROGRESS_MS));
                if (ended && run.failure() instanceof CheckpointMismatchException refused)
                {
                    throw refused; // another configuration, or other partition counts, than the group's checkpoints: exit 2
                }
                final long now = System.nanoTime();
                final long events = run.events();
                err.printf("kafka: %,d events (%,.0f/s), %,d outputs, %,d transactions, %,d partitions taken over%n", events,
                    (events - lastEvents) * 1e9 / Math.max(1, now - lastAt), run.outputs(), run.transactions(), run.takeovers());
                lastEvents = events;
                lastAt = now;
                if (ended)
                {
                    break;
                }
            }
            if (run.failure() != null)
            {
                throw new IllegalStateException("the Kafka run failed: " + run.failure().getMessage(), run.failure());
            }
            out.println("Stopped: " + run.events() + " events, " + run.outputs() + " outputs, " + run.transactions() + " transactions.");
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            run.close();
        }
        finally
        {
            finished.countDown();
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            catch (final IllegalStateException shutdownInProgress)
            {
                // stopped by a signal: the hook is running
            }
        }
    }

    private String instance()
    {
        if (kafka.instance != null)
        {
            return kafka.instance;
        }
        try
        {
            return KafkaRunBuilder.hostInstance();
        }
        catch (final UncheckedIOException ex)
        {
            throw new BadInputException("--kafka needs --instance ID: the host name is unknown (" + ex.getCause().getMessage() + ")");
        }
    }
}
