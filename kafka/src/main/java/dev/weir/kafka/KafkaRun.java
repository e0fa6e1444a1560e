package dev.weir.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.checkpoint.CheckpointMismatchException;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.JournalSchema;
import dev.weir.journal.OwnerLock;
import dev.weir.journal.files.FileReplacement;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.DynamicCompositeAgent;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Weir instance in a Kafka consumer group: it owns some partitions of a topic, runs a pipeline on a local
 * journal for each (see {@link PartitionTask}), and commits, every commit interval, one Kafka transaction holding
 * the outputs produced since the last one, the rejected records, the checkpoints the pipelines wrote (in the
 * compacted topic {@code <group>-weir-checkpoints}) and the consumer offsets (each partition's newest checkpoint's
 * offset + 1, where a new owner resumes). Any instance can therefore take a partition over, and a
 * {@code read_committed} consumer of the output topic sees every output exactly once.
 * <p>
 * Threads: every Kafka client call (poll, sends, transactions, the rebalance callbacks) is made on the run's Kafka
 * thread {@code weir-kafka-<group>-<instance>}; every partition's pipeline runs as an agent on one pipeline thread
 * {@code weir-kafka-<group>-<instance>-pipelines}, whatever the number of partitions (two threads busy on two
 * cores, not one per partition). The producer's own sender thread and the consumer's heartbeat thread are
 * Kafka's.
 * <p>
 * Refusals: a second run on the same journal directory (in any process) is refused at {@link #start()}; a takeover
 * is refused, before anything is processed, when any checkpoint of the group was taken under another pipeline
 * configuration or other output or rejected partition counts ({@link ResumeTerms}): the run then ends with that
 * {@link CheckpointMismatchException} as its {@link #failure()}.
 * <p>
 * Failures: a failed transaction is handled as {@link TransactionFailure} classifies it. A fenced producer (another
 * instance started with the same instance id) ends the run, as Kafka documents, and so does a failure no producer
 * can overcome (authorization, an unsupported version). A producer that cannot go on (its sequence numbers, or a
 * transaction the broker aborted for its timeout after an outage or a stall) is replaced by a new one, whose
 * {@code initTransactions} gets a new epoch; any other failed transaction is aborted. Either way every owned
 * partition is then taken over again from what is committed. {@value TransactionFailure#IN_A_ROW} failed transactions
 * in a row end the run. A pipeline that fails, or an output regenerated differently from the one committed, ends the
 * run.
 * <p>
 * Thread-safety: {@link #start()}, {@link #close()} and {@link #awaitEnd(Duration)} may be called from any thread;
 * the rest of the state is owned by the Kafka thread.
 */
public final class KafkaRun implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(KafkaRun.class);
    private static final int DELIVERY_BUDGET = 4096;
    private static final Duration LEADERS_TIMEOUT = Duration.ofSeconds(60);

    private final Settings settings;
    private final String name;
    private final Map<Integer, PartitionTask> tasks = new HashMap<>();
    private final DynamicCompositeAgent agents;
    private final AgentRunner agentRunner;
    private final Thread kafkaThread;
    private final AtomicLong mirroredTotal = new AtomicLong();
    private final AtomicLong producedTotal = new AtomicLong();
    private final AtomicLong transactions = new AtomicLong();
    private final AtomicLong takeovers = new AtomicLong();
    private volatile boolean running = true;
    private volatile Throwable failure;
    private volatile String status = "";
    private KafkaConsumer<byte[], byte[]> consumer;
    private KafkaProducer<byte[], byte[]> producer;
    private Admin admin;
    private CommittedReader committedReader;
    private CheckpointTopic checkpointTopic;
    private PartitionTask.Context context;
    private ResumeTerms terms;
    private CheckpointMismatchException refused;
    private OwnerLock ownerLock;
    private boolean inTransaction;
    private long transactionBegan;
    private int failedInARow;
    private boolean dirty;

    /**
     * What an instance runs with.
     *
     * @param bootstrap        the brokers, {@code host:port[,host:port...]}.
     * @param topic            the source topic.
     * @param group            the consumer group.
     * @param outputTopic      the output topic (created with the source topic's partition count if missing).
     * @param rejectedTopic    the rejected records' topic (created likewise if missing).
     * @param instance         this instance's id, stable across its restarts (its transactional id is
     *                         {@code weir-<group>-<instance>}).
     * @param journal          the directory the partitions' journals go under ({@code kafka/<topic>-<partition>}).
     * @param schema           the events' columns.
     * @param rollCycle        the journals' roll cycle.
     * @param pipeline         a new pipeline's settings: window, lateness, key and value; its journal, layout and
     *                         checkpoint listener are the run's.
     * @param decoders         a new record decoder, one per partition.
     * @param rows             the output rows.
     * @param commitInterval   time between transactions.
     * @param transactionTimeout the producer's {@code transaction.timeout.ms}: how long a transaction left open by a
     *                         killed instance blocks {@code read_committed} readers, unless it restarts sooner.
     * @param sessionTimeout   the consumer's {@code session.timeout.ms}: how long a killed instance keeps its partitions.
     */
    public record Settings(
        String bootstrap, String topic, String group, String outputTopic, String rejectedTopic, String instance, Path journal,
        JournalSchema schema, JournalRollCycle rollCycle, Supplier<PipelineBuilder> pipeline, Supplier<RecordDecoder> decoders,
        OutputRows.Factory rows, Duration commitInterval, Duration transactionTimeout, Duration sessionTimeout)
    {
        /**
         * @throws NullPointerException     if a setting is missing.
         * @throws IllegalArgumentException if the instance id or a duration is not valid.
         */
        public Settings
        {
            Objects.requireNonNull(bootstrap, "bootstrap");
            Objects.requireNonNull(topic, "topic");
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(outputTopic, "outputTopic");
            Objects.requireNonNull(rejectedTopic, "rejectedTopic");
            Objects.requireNonNull(instance, "instance");
            Objects.requireNonNull(journal, "journal");
            Objects.requireNonNull(schema, "schema");
            Objects.requireNonNull(rollCycle, "rollCycle");
            Objects.requireNonNull(pipeline, "pipeline");
            Objects.requireNonNull(decoders, "decoders");
            Objects.requireNonNull(rows, "rows");
            if (!instance.matches("[A-Za-z0-9._-]{1,64}"))
            {
                throw new IllegalArgumentException("instance id '" + instance + "' is not valid: 1 to 64 letters, digits, '.', '_' or '-'");
            }
            if (commitInterval.isNegative() || commitInterval.isZero() || transactionTimeout.toMillis() < 1000 || sessionTimeout.toMillis() < 1000)
            {
                throw new IllegalArgumentException("the commit interval must be positive, the transaction and session timeouts at least 1 s");
            }
        }

        /**
         * @return the checkpoint topic of the group.
         */
        public String checkpointTopic()
        {
            return group + "-weir-checkpoints";
        }
    }

    /**
     * @param settings what the instance runs with.
     */
    public KafkaRun(final Settings settings)
    {
        this.settings = settings;
        this.name = "weir-kafka-" + settings.group() + "-" + settings.instance();
        this.agents = new DynamicCompositeAgent(name + "-pipelines");
        this.agentRunner = new AgentRunner(new BackoffIdleStrategy(1, 10, 1_000, 1_000_000), this::pipelineThreadError, null, agents);
        this.kafkaThread = new Thread(this::runKafka, name);
    }

    /**
     * Take the journal directory's {@code kafka} subdirectory for this run, then start the pipeline thread and the
     * Kafka thread.
     *
     * @return this.
     * @throws dev.weir.journal.JournalRefusedException if another run (in this process or another) owns that directory.
     */
    public KafkaRun start()
    {
        ownerLock = OwnerLock.acquire(settings.journal().resolve("kafka"),
            "two instances must not share a --journal (a takeover deletes the partition's journal there): give each its own, or stop the other first");
        AgentRunner.startOnThread(agentRunner, runnable -> new Thread(runnable, name + "-pipelines"));
        kafkaThread.start();
        return this;
    }

    /**
     * Stop: the owned partitions' pipelines are stopped, their outputs and checkpoints committed, and the group
     * left, so that other instances take the partitions over from there. Waits for it.
     */
    @Override
    public void close()
    {
        running = false;
        final KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null)
        {
            c.wakeup();
        }
        try
        {
            kafkaThread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        agentRunner.close();
    }

    /**
     * @param timeout how long to wait.
     * @return true if the run ended (closed or failed) within it.
     * @throws InterruptedException if interrupted.
     */
    public boolean awaitEnd(final Duration timeout) throws InterruptedException
    {
        kafkaThread.join(Math.max(1, timeout.toMillis()));
        return !kafkaThread.isAlive();
    }

    /**
     * @return what ended the run, or null while it runs or if it was closed.
     */
    public Throwable failure()
    {
        return failure;
    }

    /**
     * @return events mirrored into the partitions' journals since the start (any thread).
     */
    public long events()
    {
        return mirroredTotal.get();
    }

    /**
     * @return outputs produced to the output topic since the start (any thread).
     */
    public long outputs()
    {
        return producedTotal.get();
    }

    /**
     * @return transactions committed since the start (any thread).
     */
    public long transactions()
    {
        return transactions.get();
    }

    /**
     * @return partitions taken over since the start (any thread).
     */
    public long takeovers()
    {
        return takeovers.get();
    }

    /**
     * @return one line per owned partition, as of the last commit (any thread): its committed offset, lag,
     *         watermark, outputs and last checkpoint.
     */
    public String status()
    {
        return status;
    }

    private void pipelineThreadError(final Throwable error)
    {
        LOG.error("the pipeline thread of {} failed: {}", name, error.toString(), error);
        failure = error;
        running = false;
    }

    private void runKafka()
    {
        try
        {
            open();
            consumer.subscribe(List.of(settings.topic()), new Rebalance());
            long nextCommit = System.nanoTime() + settings.commitInterval().toNanos();
            long nextStatus = 0;
            while (running && refused == null)
            {
                final ConsumerRecords<byte[], byte[]> records;
                try
                {
                    records = consumer.poll(Duration.ofMillis(10));
                }
                catch (final WakeupException ex)
                {
                    break;
                }
                final long now;
                try
                {
                    if (!dirty)
                    {
                        transactionBegan = System.nanoTime(); // nothing sent in the open transaction yet: the broker's starts later
                    }
                    if (!records.isEmpty())
                    {
                        begin();
                        for (final TopicPartition partition : records.partitions())
                        {
                            final PartitionTask task = tasks.get(partition.partition());
                            if (task == null)
                            {
                                continue;
                            }
                            for (final ConsumerRecord<byte[], byte[]> record : records.records(partition))
                            {
                                task.mirror(record);
                            }
                        }
                        mirroredTotal.addAndGet(records.count());
                        dirty = true;
                    }
                    deliverAll(DELIVERY_BUDGET);
                    now = System.nanoTime();
                    if (now - nextCommit >= 0)
                    {
                        commit();
                        nextCommit = now + settings.commitInterval().toNanos();
                    }
                }
                catch (final KafkaException ex)
                {
                    recover(ex, List.of()); // a send, or the producer in an error state
                    continue;
                }
                if (now - nextStatus >= 0)
                {
                    publishStatus();
                    nextStatus = now + 1_000_000_000L;
                }
                checkPipelines();
            }
            if (refused != null)
            {
                throw refused;
            }
            leave();
        }
        catch (final RuntimeException | Error ex)
        {
            final Throwable fenced = fencedCause(ex);
            if (fenced != null)
            {
                failure = new IllegalStateException(name + " was fenced: another instance runs with the same instance id ("
                    + settings.instance() + "), so this one stops, as Kafka documents (" + fenced.getMessage() + ")", ex);
                LOG.error("{}", failure.getMessage());
                discardAll();
                return;
            }
            // a failure inside a rebalance callback reaches here wrapped by the consumer: keep its cause
            failure = ex instanceof KafkaException && ex.getCause() != null && String.valueOf(ex.getMessage()).contains("rebalance callback")
                ? ex.getCause() : ex;
            LOG.error("{} failed: {}", name, ex.toString(), ex);
            abortQuietly();
            discardAll();
        }
        finally
        {
            closeClients();
            running = false;
            ownerLock.close();
        }
    }

    private void open()
    {
        final Properties adminConfig = new Properties();
        adminConfig.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrap());
        admin = Admin.create(adminConfig);
        final int partitions = partitionCount(settings.topic());
        createIfMissing(new NewTopic(settings.outputTopic(), Optional.of(partitions), Optional.empty()));
        createIfMissing(new NewTopic(settings.rejectedTopic(), Optional.of(partitions), Optional.empty()));
        createIfMissing(new NewTopic(settings.checkpointTopic(), Optional.of(1), Optional.empty()).configs(Map.of(
            TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
            TopicConfig.SEGMENT_MS_CONFIG, "600000",
            TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG, "0.1")));
        checkpointTopic = new CheckpointTopic(settings.checkpointTopic());

        producer = newProducer();

        final Properties consumerConfig = new Properties();
        consumerConfig.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrap());
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, settings.group());
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerConfig.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        consumerConfig.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Integer.toString((int)settings.sessionTimeout().toMillis()));
        consumerConfig.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Integer.toString((int)Math.max(500, settings.sessionTimeout().toMillis() / 5)));
        consumerConfig.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, name);
        consumer = new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer());

        committedReader = new CommittedReader(settings.bootstrap(), admin, settings.transactionTimeout().multipliedBy(3).plusSeconds(30));
        context = new PartitionTask.Context(settings.journal().resolve("kafka"), settings.schema(), settings.rollCycle(), settings.pipeline(),
            settings.decoders(), settings.rows(), producer, settings.outputTopic(), partitionCount(settings.outputTopic()),
            settings.rejectedTopic(), partitionCount(settings.rejectedTopic()));
        terms = new ResumeTerms(settings.group(), settings.topic(), settings.pipeline().get().concludeFor(settings.schema()).describe(),
            settings.outputTopic(), context.outputPartitions(), settings.rejectedTopic(), context.rejectedPartitions());
    }

    /** @return a new transactional producer, its transactions initialised: a new epoch, the open transaction ended */
    private KafkaProducer<byte[], byte[]> newProducer()
    {
        final Properties producerConfig = new Properties();
        producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrap());
        producerConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "weir-" + settings.group() + "-" + settings.instance());
        producerConfig.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Integer.toString((int)settings.transactionTimeout().toMillis()));
        producerConfig.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        producerConfig.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(128 * 1024));
        producerConfig.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(1024 * 1024));
        final KafkaProducer<byte[], byte[]> fresh = new KafkaProducer<>(producerConfig, new ByteArraySerializer(), new ByteArraySerializer());
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                fresh.initTransactions();
                return fresh;
            }
            catch (final org.apache.kafka.common.errors.TimeoutException ex)
            {
                if (attempt == TransactionFailure.INIT_ATTEMPTS)
                {
                    fresh.close(Duration.ZERO);
                    throw ex;
                }
                LOG.warn("{}: initialising the producer's transactions timed out ({}); trying again", name, ex.getMessage());
            }
            catch (final RuntimeException ex)
            {
                fresh.close(Duration.ZERO);
                throw ex;
            }
        }
    }

    /**
     * Replace the producer by a new one, whose {@code initTransactions} gets a new epoch and ends the open
     * transaction; the partitions' tasks are then to be taken over again (they hold the old producer).
     */
    private void renewProducer()
    {
        try
        {
            producer.close(Duration.ZERO);
        }
        catch (final RuntimeException ex)
        {
            LOG.debug("closing the failed producer: {}", ex.toString());
        }
        inTransaction = false;
        dirty = false;
        producer = null;
        producer = newProducer();
        context = context.with(producer);
    }

    private int partitionCount(final String topic)
    {
        try
        {
            return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
        catch (final ExecutionException ex)
        {
            throw new IllegalStateException("cannot describe topic " + topic + " at " + settings.bootstrap() + ": " + ex.getCause().getMessage(), ex.getCause());
        }
    }

    private void createIfMissing(final NewTopic topic)
    {
        try
        {
            admin.createTopics(List.of(topic)).all().get();
            LOG.info("created topic {}", topic.name());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
        catch (final ExecutionException ex)
        {
            if (!(ex.getCause() instanceof TopicExistsException))
            {
                throw new IllegalStateException("cannot create topic " + topic.name() + ": " + ex.getCause().getMessage(), ex.getCause());
            }
        }
        awaitLeaders(topic.name());
    }

    /** Wait until every partition of a topic (perhaps created a moment ago, here or by another instance) answers. */
    private void awaitLeaders(final String topic)
    {
        try
        {
            TopicLeaders.await(admin, topic, partitionCount(topic), LEADERS_TIMEOUT);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            final Throwable cause = ex instanceof ExecutionException ? ex.getCause() : ex;
            throw new IllegalStateException("the partitions of topic " + topic + " have no leader that answers: " + cause.getMessage(), cause);
        }
    }

    private void begin()
    {
        if (!inTransaction)
        {
            producer.beginTransaction();
            inTransaction = true;
            transactionBegan = System.nanoTime();
        }
    }

    private void deliverAll(final int budget)
    {
        for (final PartitionTask task : tasks.values())
        {
            begin();
            final long before = task.produced();
            task.deliver(budget);
            final long sent = task.produced() - before;
            if (sent > 0)
            {
                producedTotal.addAndGet(sent);
                dirty = true;
            }
        }
    }

    private void commit()
    {
        commit(List.of());
    }

    /**
     * Ship the ready checkpoints, send the offsets and commit the open transaction; on failure, abort it and take
     * the owned partitions over again, except those leaving.
     *
     * @param leaving partitions being released, not to be taken over again.
     * @return false if the transaction failed and was aborted.
     */
    private boolean commit(final Collection<TopicPartition> leaving)
    {
        if (!inTransaction)
        {
            return true;
        }
        try
        {
            boolean any = dirty;
            final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            for (final PartitionTask task : tasks.values())
            {
                any |= task.shipIfReady(checkpointTopic);
                if (task.resumeOffset() >= 0)
                {
                    offsets.put(task.source(), new OffsetAndMetadata(task.resumeOffset()));
                }
            }
            if (!any)
            {
                return true; // keep the transaction open: nothing to commit yet
            }
            if (!offsets.isEmpty())
            {
                producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
            }
            producer.commitTransaction();
            inTransaction = false;
            dirty = false;
            failedInARow = 0;
            transactions.incrementAndGet();
            return true;
        }
        catch (final KafkaException ex)
        {
            recover(ex, leaving);
            return false;
        }
    }

    /**
     * A producer call failed: end the run, or renew the producer or abort the transaction, as
     * {@link TransactionFailure} says, then take the owned partitions over again, except those leaving.
     */
    private void recover(final RuntimeException failure, final Collection<TopicPartition> leaving)
    {
        final TransactionFailure.Remedy remedy = endUnlessRecoverable(failure);
        if (++failedInARow >= TransactionFailure.IN_A_ROW)
        {
            throw new IllegalStateException(name + " cannot go on: " + failedInARow + " transactions failed in a row, the last with " + failure, failure);
        }
        if (remedy == TransactionFailure.Remedy.RENEW)
        {
            LOG.warn("{}: the transaction failed ({}) and the producer cannot go on; a new producer takes the owned partitions over again",
                name, failure.toString());
            renewProducer();
        }
        else
        {
            LOG.warn("{}: the transaction failed ({}); aborting it and taking the owned partitions over again", name, failure.toString());
        }
        abortAndTakeOverAgain(leaving);
    }

    /** @return the remedy for a producer's failure, unless it ends the run (fenced, or fatal): then it is thrown. */
    private TransactionFailure.Remedy endUnlessRecoverable(final RuntimeException failure)
    {
        final boolean outlived = inTransaction && System.nanoTime() - transactionBegan >= settings.transactionTimeout().toNanos();
        final TransactionFailure.Remedy remedy = TransactionFailure.remedy(failure, outlived);
        if (remedy == TransactionFailure.Remedy.FENCED)
        {
            throw failure; // named as a fencing where the run ends
        }
        if (remedy == TransactionFailure.Remedy.FATAL)
        {
            throw new IllegalStateException(name + " cannot go on: its producer failed for good (" + failure + ")", failure);
        }
        return remedy;
    }

    private void abortAndTakeOverAgain(final Collection<TopicPartition> lost)
    {
        if (inTransaction)
        {
            try
            {
                producer.abortTransaction();
                inTransaction = false;
                dirty = false;
            }
            catch (final RuntimeException ex)
            {
                endUnlessRecoverable(ex);
                LOG.warn("{}: aborting the transaction failed ({}); a new producer ends it", name, ex.toString());
                renewProducer();
            }
        }
        final List<TopicPartition> again = new ArrayList<>();
        for (final PartitionTask task : new ArrayList<>(tasks.values()))
        {
            if (!lost.contains(task.source()))
            {
                again.add(task.source());
            }
            discard(task);
        }
        takeOver(again);
    }

    private void takeOver(final Collection<TopicPartition> partitions)
    {
        if (partitions.isEmpty())
        {
            return;
        }
        final Map<Integer, PartitionCheckpoint> checkpoints = checkpointTopic.readNewest(committedReader, settings.topic());
        try
        {
            terms.check(checkpoints.values());
        }
        catch (final CheckpointMismatchException ex)
        {
            // not thrown here: inside a rebalance callback the consumer would log it with its stack trace; the loop ends the run
            refused = ex;
            return;
        }
        for (final TopicPartition partition : partitions)
        {
            final PartitionCheckpoint checkpoint = checkpoints.get(partition.partition());
            final NavigableMap<Long, PartitionTask.CommittedRow> committed = new TreeMap<>();
            final String source = partition.topic() + ":" + partition.partition();
            final long after = checkpoint == null ? 0 : checkpoint.outputs();
            committedReader.read(new TopicPartition(settings.outputTopic(), partition.partition() % context.outputPartitions()),
                checkpoint == null ? 0 : checkpoint.outputsFrom(), record ->
                {
                    if (source.equals(OutputHeaders.text(record.headers(), OutputHeaders.SOURCE)))
                    {
                        final long sequence = OutputHeaders.number(record.headers(), OutputHeaders.SEQUENCE);
                        if (sequence > after)
                        {
                            committed.put(sequence, new PartitionTask.CommittedRow(new String(record.value(), StandardCharsets.UTF_8), record.offset()));
                        }
                    }
                });
            final long[] rejectedThrough = {checkpoint == null ? -1 : checkpoint.rejectedThrough()};
            committedReader.read(new TopicPartition(settings.rejectedTopic(), partition.partition() % context.rejectedPartitions()),
                checkpoint == null ? 0 : checkpoint.rejectsFrom(), record ->
                {
                    if (source.equals(OutputHeaders.text(record.headers(), OutputHeaders.SOURCE)))
                    {
                        rejectedThrough[0] = Math.max(rejectedThrough[0], OutputHeaders.number(record.headers(), OutputHeaders.OFFSET));
                    }
                });
            final PartitionTask task = new PartitionTask(context, partition, new PartitionTask.Start(checkpoint, committed, rejectedThrough[0]));
            tasks.put(partition.partition(), task);
            addAgent(task);
            if (task.resumeOffset() >= 0)
            {
                consumer.seek(partition, task.resumeOffset());
            }
            else
            {
                consumer.seekToBeginning(List.of(partition));
            }
            takeovers.incrementAndGet();
            LOG.info("{} took {} over: checkpoint at offset {} covering {} outputs, {} committed after it, resuming at {}", name, partition,
                checkpoint == null ? -1 : checkpoint.kafkaOffset(), after, committed.size(), task.resumeOffset());
        }
    }

    /** Stop the pipelines of partitions that move away, deliver and checkpoint what they did, and commit it. */
    private void release(final Collection<TopicPartition> partitions)
    {
        final List<PartitionTask> leaving = new ArrayList<>();
        for (final TopicPartition partition : partitions)
        {
            final PartitionTask task = tasks.get(partition.partition());
            if (task != null)
            {
                removeAgent(task);
                leaving.add(task);
            }
        }
        if (leaving.isEmpty())
        {
            return;
        }
        final List<TopicPartition> moving = leaving.stream().map(PartitionTask::source).toList();
        try
        {
            begin();
            for (final PartitionTask task : leaving)
            {
                producedTotal.addAndGet(drain(task));
            }
        }
        catch (final KafkaException ex)
        {
            recover(ex, moving);
            return; // the leaving tasks were discarded, the next owner redoes their uncommitted work
        }
        dirty = true;
        if (!commit(moving))
        {
            return; // aborted: the leaving tasks were discarded, the next owner redoes their uncommitted work
        }
        for (final PartitionTask task : leaving)
        {
            tasks.remove(task.source().partition());
            task.close();
            LOG.info("{} released {} (committed through offset {})", name, task.source(), task.resumeOffset() - 1);
        }
    }

    private static long drain(final PartitionTask task)
    {
        final long before = task.produced();
        while (task.deliver(DELIVERY_BUDGET) > 0)
        {
            // every output the stopped pipeline wrote
        }
        return task.produced() - before;
    }

    private void leave()
    {
        release(new ArrayList<>(consumer.assignment()));
    }

    private void discard(final PartitionTask task)
    {
        tasks.remove(task.source().partition());
        removeAgent(task);
        try
        {
            task.close();
        }
        catch (final RuntimeException ex)
        {
            LOG.warn("{}: closing {} failed: {}", name, task.source(), ex.toString());
        }
    }

    private void discardAll()
    {
        for (final PartitionTask task : new ArrayList<>(tasks.values()))
        {
            try
            {
                discard(task);
            }
            catch (final RuntimeException ex)
            {
                LOG.warn("{}: discarding {} failed: {}", name, task.source(), ex.toString());
            }
        }
    }

    private void addAgent(final PartitionTask task)
    {
        while (!agents.tryAdd(task.agent()))
        {
            Thread.onSpinWait();
        }
        while (!agents.hasAddAgentCompleted())
        {
            pause();
        }
    }

    private void removeAgent(final PartitionTask task)
    {
        if (agentRunner.isClosed())
        {
            task.agent().onClose();
            return;
        }
        while (!agents.tryRemove(task.agent()))
        {
            Thread.onSpinWait();
        }
        while (!agents.hasRemoveAgentCompleted())
        {
            pause();
        }
    }

    private static void pause()
    {
        try
        {
            Thread.sleep(1);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    private void checkPipelines()
    {
        for (final PartitionTask task : tasks.values())
        {
            final Throwable failed = task.failure();
            if (failed != null)
            {
                throw new IllegalStateException("the pipeline of " + task.source() + " failed: " + failed, failed);
            }
        }
    }

    private void publishStatus()
    {
        final StringBuilder lines = new StringBuilder();
        for (final PartitionTask task : new TreeMap<>(tasks).values())
        {
            final OptionalLong lag = consumer.currentLag(task.source());
            task.status(lines, lag.isPresent() ? lag.getAsLong() : -1);
        }
        status = lines.toString();
        final Path file = settings.journal().resolve("kafka").resolve("status");
        try
        {
            Files.createDirectories(file.getParent());
            final Path temp = file.resolveSibling(".status.tmp");
            final String text = "instance " + settings.instance() + " group " + settings.group() + " topic " + settings.topic()
                + " at " + java.time.Instant.now() + " events " + mirroredTotal.get() + " outputs " + producedTotal.get()
                + " transactions " + transactions.get() + "\n" + status;
            FileReplacement.replace(file, temp, false, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
        }
        catch (final java.io.IOException ex)
        {
            LOG.debug("cannot write {}: {}", file, ex.toString());
        }
    }

    /** @return the fencing in a failure's causes (the producer's own, or this run's report of it), or null */
    private static Throwable fencedCause(final Throwable failure)
    {
        for (Throwable cause = failure; cause != null; cause = cause.getCause())
        {
            if (cause instanceof ProducerFencedException)
            {
                return cause;
            }
        }
        return null;
    }

    private void abortQuietly()
    {
        if (inTransaction && producer != null)
        {
            try
            {
                producer.abortTransaction();
            }
            catch (final RuntimeException ex)
            {
                LOG.debug("aborting: {}", ex.toString());
            }
            inTransaction = false;
        }
    }

    private void closeClients()
    {
        if (consumer != null)
        {
            try
            {
                consumer.close(Duration.ofSeconds(5));
            }
            catch (final RuntimeException ex)
            {
                LOG.debug("closing the consumer: {}", ex.toString());
            }
        }
        if (producer != null)
        {
            producer.close(Duration.ofSeconds(5));
        }
        if (committedReader != null)
        {
            committedReader.close();
        }
        if (admin != null)
        {
            admin.close(Duration.ofSeconds(5));
        }
    }

    /** The group's callbacks, on the Kafka thread inside {@code poll}. */
    private final class Rebalance implements ConsumerRebalanceListener
    {
        @Override
        public void onPartitionsRevoked(final Collection<TopicPartition> partitions)
        {
            release(partitions);
        }

        @Override
        public void onPartitionsAssigned(final Collection<TopicPartition> partitions)
        {
            takeOver(partitions);
        }

        @Override
        public void onPartitionsLost(final Collection<TopicPartition> partitions)
        {
            LOG.warn("{} lost {} (its session expired): aborting its transaction", name, partitions);
            final Set<TopicPartition> lost = Set.copyOf(partitions);
            for (final PartitionTask task : new ArrayList<>(tasks.values()))
            {
                if (lost.contains(task.source()))
                {
                    discard(task);
                }
            }
            abortAndTakeOverAgain(lost);
        }
    }
}
