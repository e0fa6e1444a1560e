package dev.weir.kafka;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import dev.weir.engine.PipelineBuilder;
import dev.weir.files.RowColumns;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;

/**
 * Builds the {@link KafkaRun.Settings} of one instance, and its {@link KafkaRun}, from what a service or
 * {@code weir run --kafka} gives, with the command's defaults: records whose values are events CSV lines
 * ({@link RecordDecoder#csv}), output rows as the files sink writes them ({@link OutputRows#csv}), the rejected
 * records to {@code <output topic>-rejected}, the host name as the instance id, the default columns, daily roll
 * cycles, a transaction every 200 ms and 10 s transaction and session timeouts. The bootstrap servers, the three
 * topics, the group, the journal directory, the pipeline, the key column and the row columns have no default.
 * <pre>{@code
 * KafkaRun run = KafkaRun.builder().bootstrap("127.0.0.1:39092").topic("payments").group("fraud").outputTopic("windows")
 *     .journal(dir).schema(schema).keyColumn("card").rows(columns).pipeline(() -> Weir.pipeline().window(...)).build().start();
 * }</pre>
 * Not thread-safe: one thread builds; each {@link #build()} gives a new run.
 */
public final class KafkaRunBuilder
{
    /** Time between transactions unless {@link #commitInterval(Duration)} is given. */
    public static final Duration DEFAULT_COMMIT_INTERVAL = Duration.ofMillis(200);
    /** The producer's transaction timeout and the consumer's session timeout unless given. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private String bootstrap;
    private String topic;
    private String group;
    private String outputTopic;
    private String rejectedTopic;
    private String instance;
    private Path journal;
    private JournalSchema schema = JournalSchema.DEFAULT;
    private JournalRollCycle rollCycle = JournalRollCycle.DAILY;
    private Supplier<PipelineBuilder> pipeline;
    private String keyColumn;
    private Supplier<RecordDecoder> decoders;
    private RecordFormat recordFormat = RecordFormat.CSV;
    private OutputRows.Factory rows;
    private Duration commitInterval = DEFAULT_COMMIT_INTERVAL;
    private Duration transactionTimeout = DEFAULT_TIMEOUT;
    private Duration sessionTimeout = DEFAULT_TIMEOUT;
    private final List<TableDefinition> tables = new ArrayList<>();
    private Duration idleTimeout = Duration.ZERO;

    KafkaRunBuilder()
    {
    }

    /**
     * @param servers the brokers, {@code host:port[,host:port...]}.
     * @return this.
     * @throws IllegalArgumentException if they are not ({@link KafkaAddress}).
     */
    public KafkaRunBuilder bootstrap(final String servers)
    {
        this.bootstrap = KafkaAddress.check(servers);
        return this;
    }

    /**
     * @param name the source topic.
     * @return this.
     */
    public KafkaRunBuilder topic(final String name)
    {
        this.topic = name;
        return this;
    }

    /**
     * @param name the consumer group; its checkpoints go to the compacted topic {@code <group>-weir-checkpoints}.
     * @return this.
     */
    public KafkaRunBuilder group(final String name)
    {
        this.group = name;
        return this;
    }

    /**
     * @param name the topic of the results and late events (created with the source topic's partition count if missing).
     * @return this.
     */
    public KafkaRunBuilder outputTopic(final String name)
    {
        this.outputTopic = name;
        return this;
    }

    /**
     * @param name the topic of the rejected records, or null for {@code <output topic>-rejected}.
     * @return this.
     */
    public KafkaRunBuilder rejectedTopic(final String name)
    {
        this.rejectedTopic = name;
        return this;
    }

    /**
     * @param id this instance's id, the same across its restarts, or null for the host name ({@link #hostInstance()}).
     * @return this.
     */
    public KafkaRunBuilder instance(final String id)
    {
        this.instance = id;
        return this;
    }

    /**
     * @param directory where the partitions' journals go ({@code <directory>/kafka/<topic>-<partition>}); one
     *                  instance at a time.
     * @return this.
     */
    public KafkaRunBuilder journal(final Path directory)
    {
        this.journal = directory;
        return this;
    }

    /**
     * @param columns the events' columns (default {@link JournalSchema#DEFAULT}).
     * @return this.
     */
    public KafkaRunBuilder schema(final JournalSchema columns)
    {
        this.schema = Objects.requireNonNull(columns, "schema");
        return this;
    }

    /**
     * @param cycle the journals' roll cycle (default daily).
     * @return this.
     */
    public KafkaRunBuilder rollCycle(final JournalRollCycle cycle)
    {
        this.rollCycle = Objects.requireNonNull(cycle, "rollCycle");
        return this;
    }

    /**
     * @param settings a new pipeline's settings, asked once per partition taken over: window, lateness, key, value
     *                 and checkpoint interval; its journal, layout and checkpoint listener are the run's.
     * @return this.
     */
    public KafkaRunBuilder pipeline(final Supplier<PipelineBuilder> settings)
    {
        this.pipeline = settings;
        return this;
    }

    /**
     * Read each record's value in the {@linkplain #schema columns}, as an events CSV line unless another
     * {@link #recordFormat} is given, whose key must be the value's key: its key columns' texts joined by commas
     * ({@link RecordDecoder#csv}).
     *
     * @param column the key column, or the key columns in key order joined by commas ({@code "card,shop"}), as
     *               {@code --key} takes them: columns of the schema, of type string, long or decimal.
     * @return this.
     */
    public KafkaRunBuilder keyColumn(final String column)
    {
        this.keyColumn = column;
        this.decoders = null;
        return this;
    }

    /**
     * Read each record's value in a format of Weir's, whose key must be the value's key column ({@link #keyColumn}).
     *
     * @param format {@link RecordFormat#CSV} (the default) or {@link RecordFormat#JSON}.
     * @return this.
     */
    public KafkaRunBuilder recordFormat(final RecordFormat format)
    {
        this.recordFormat = Objects.requireNonNull(format, "format");
        return this;
    }

    /**
     * Read records with decoders of one's own instead of as events CSV lines.
     *
     * @param decoder a new record decoder, asked once per partition taken over.
     * @return this.
     */
    public KafkaRunBuilder decoders(final Supplier<RecordDecoder> decoder)
    {
        this.decoders = decoder;
        this.keyColumn = null;
        return this;
    }

    /**
     * Produce each output as the files sink writes it ({@link OutputRows#csv}).
     *
     * @param columns the pipeline's key, value and aggregations, as its rows show them.
     * @return this.
     */
    public KafkaRunBuilder rows(final RowColumns columns)
    {
        return rows(OutputRows.csv(columns));
    }

    /**
     * @param factory the output rows of one partition's journal.
     * @return this.
     */
    public KafkaRunBuilder rows(final OutputRows.Factory factory)
    {
        this.rows = factory;
        return this;
    }

    /**
     * @param interval time between transactions (default 200 ms).
     * @return this.
     */
    public KafkaRunBuilder commitInterval(final Duration interval)
    {
        this.commitInterval = interval;
        return this;
    }

    /**
     * @param timeout the producer's {@code transaction.timeout.ms} (default 10 s, at least 1 s).
     * @return this.
     */
    public KafkaRunBuilder transactionTimeout(final Duration timeout)
    {
        this.transactionTimeout = timeout;
        return this;
    }

    /**
     * @param timeout the consumer's {@code session.timeout.ms} (default 10 s, at least 1 s).
     * @return this.
     */
    public KafkaRunBuilder sessionTimeout(final Duration timeout)
    {
        this.sessionTimeout = timeout;
        return this;
    }

    /**
     * @param timeout T: an owned partition with no record for T gets a heartbeat whose time is its newest event time
     *                plus the wall time since, again every T while it stays quiet, so its last windows close; each is
     *                recorded by the partition's committed checkpoint, so a takeover gives the same rows
     *                ({@code --idle-timeout}); {@link Duration#ZERO} (the default) for none.
     * @return this.
     */
    public KafkaRunBuilder idleTimeout(final Duration timeout)
    {
        this.idleTimeout = Objects.requireNonNull(timeout, "timeout");
        return this;
    }

    /**
     * Declare a reference table the pipeline may join ({@link PipelineBuilder#join}). Its rows travel in the source
     * topic, in order with the events, as records marked with the header {@link TableRecords#HEADER}: each partition's
     * journal gets the table, and a row applies to the events after it in its partition.
     *
     * @param table the table's name, key and columns, as {@code weir ingest --table} gives them.
     * @return this.
     * @throws IllegalArgumentException if a table of that name was declared already.
     */
    public KafkaRunBuilder table(final TableDefinition table)
    {
        Objects.requireNonNull(table, "table");
        if (tables.stream().anyMatch(t -> t.name().equals(table.name())))
        {
            throw new IllegalArgumentException("table " + table.name() + " is declared twice");
        }
        tables.add(table);
        return this;
    }

    /**
     * @return the settings given, with the defaults.
     * @throws NullPointerException     if a setting without default is missing.
     * @throws IllegalArgumentException if the key column is not one string or long column of the schema, or the
     *                                  instance id or a duration is not valid ({@link KafkaRun.Settings}).
     * @throws UncheckedIOException     if no instance id is given and the host name is unknown.
     */
    public KafkaRun.Settings settings()
    {
        Objects.requireNonNull(outputTopic, "outputTopic");
        return new KafkaRun.Settings(bootstrap, topic, group, outputTopic, rejectedTopic == null ? outputTopic + "-rejected" : rejectedTopic,
            instance == null ? hostInstance() : instance, journal, schema, rollCycle, pipeline, decoders == null ? csvDecoders() : decoders,
            rows, commitInterval, transactionTimeout, sessionTimeout, idleTimeout, tables);
    }

    /**
     * @return a new run of the {@link #settings()}, not started.
     */
    public KafkaRun build()
    {
        return new KafkaRun(settings());
    }

    /**
     * @return this host's name as an instance id: every character other than a letter, digit, '.', '_' or '-'
     *         replaced by '-'.
     * @throws UncheckedIOException (of an {@link UnknownHostException}) if the host name is unknown.
     */
    public static String hostInstance()
    {
        try
        {
            return InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9._-]", "-");
        }
        catch (final UnknownHostException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private Supplier<RecordDecoder> csvDecoders()
    {
        Objects.requireNonNull(keyColumn, "keyColumn (or decoders)");
        final JournalSchema columns = schema;
        final String[] names = keyColumn.split(",", -1);
        final int[] keys = new int[names.length];
        for (int k = 0; k < names.length; k++)
        {
            keys[k] = columns.indexOf(names[k].trim());
            if (keys[k] < 0)
            {
                throw new IllegalArgumentException("the key column " + names[k].trim() + " is not a column of " + columns);
            }
        }
        final RecordFormat format = recordFormat;
        return () -> format.decoder(columns, keys);
    }
}
