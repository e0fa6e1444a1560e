package dev.weir.kafka;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.PipelineConfiguration;
import dev.weir.engine.resume.CheckpointMismatchException;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.OwnerLock;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.WakeupException;
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
 * Threads: every Kafka client call (poll, sends, transactions, the group's callbacks) is made on the run's Kafka
 * thread {@code weir-kafka-<group>-<instance>}; every partition's pipeline runs as an agent on one pipeline thread
 * {@code weir-kafka-<group>-<instance>-pipelines}, whatever the number of partitions (two threads busy on two
 * cores, not one per partition). The producer's own sender thread and the consumer's heartbeat thread are
 * Kafka's.
 * <p>
 * Quiet partitions: with {@link Settings#idleTimeout()}, an owned partition with no record for that long gets a
 * heartbeat in its journal, on the Kafka thread, recorded by the checkpoint committed with the rows it caused
 * ({@link PartitionTask#heartbeatIfIdle}, {@link IdleHeartbeat}).
 * <p>
 * Refusals: a second run on the same journal directory (in any process) is refused at {@link #start()}; a takeover
 * is refused, before anything is processed, when any checkpoint of the group was taken under another pipeline
 * configuration or other output or rejected partition counts ({@link ResumeTerms}): the run then ends with that
 * {@link CheckpointMismatchException} as its {@link #failure()}.
 * <p>
 * Made by {@link #builder()}, or from {@link Settings}. Jobs: the clients are {@link KafkaClients}'; the
 * transaction is the {@link TransactionCoordinator}'s; a takeover is made by {@link PartitionTakeover}; the pipeline
 * thread is {@link PartitionAgents}; the counters and status lines are {@link InstanceStatus}. This class runs the
 * Kafka thread's loop and the group's callbacks.
 * <p>
 * Failures: a failed transaction is handled as {@link TransactionFailure} classifies it, by the exception's type. A fenced producer (another
 * instance started with the same instance id) ends the run, as Kafka documents, and so does a failure no producer
 * can overcome (authorization, an unsupported version). A producer that cannot go on (its sequence numbers, or a
 * transaction the broker aborted for its timeout after an outage or a stall) is replaced by a new one, whose
 * {@code initTransactions} gets a new epoch; any other failed transaction is aborted. Either way every owned
 * partition is then taken over again from what is committed: the aborted transaction held their outputs, checkpoints
 * and offsets. So that a rebalance does not do that to the partitions that stay, the periodic commit waits while the
 * consumer rejoins its group ({@link RebalanceTracker}), whose new generation would refuse the old one's offsets; the
 * group's callbacks commit with the new generation (a revocation commits the whole transaction, and so does an
 * assignment before its takeovers). {@value TransactionFailure#IN_A_ROW} failed transactions
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

    private final Settings settings;
    private final String name;
    private final Map<Integer, PartitionTask> tasks = new HashMap<>();
    private final PartitionAgents agents;
    private final Thread kafkaThread;
    private final InstanceStatus status;
    private volatile boolean running = true;
    private volatile Throwable failure;
    private volatile KafkaClients clients;
    private KafkaConsumer<byte[], byte[]> consumer;
    private TransactionCoordinator transactions;
    private PartitionTakeover takeover;
    private PartitionTask.Context context;
    private volatile CheckpointTopic checkpointTopic;
    private CheckpointMismatchException refused;
    /** What one of the group's callbacks threw last: the consumer rethrows it wrapped, and the run ends with it. */
    private RuntimeException callbackFailure;
    private OwnerLock ownerLock;

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
     * @param idleTimeout      T of {@code --idle-timeout}: an owned partition with no record for T gets a heartbeat
     *                         ({@link IdleHeartbeat}); {@link Duration#ZERO} for none.
     */
    public record Settings(
        String bootstrap, String topic, String group, String outputTopic, String rejectedTopic, String instance, Path journal,
        JournalSchema schema, JournalRollCycle rollCycle, Supplier<PipelineBuilder> pipeline, Supplier<RecordDecoder> decoders,
        OutputRows.Factory rows, Duration commitInterval, Duration transactionTimeout, Duration sessionTimeout, Duration idleTimeout,
        List<TableDefinition> tables)
    {
        /**
         * Settings without reference tables.
         */
        public Settings(
            final String bootstrap, final String topic, final String group, final String outputTopic, final String rejectedTopic,
            final String instance, final Path journal, final JournalSchema schema, final JournalRollCycle rollCycle,
            final Supplier<PipelineBuilder> pipeline, final Supplier<RecordDecoder> decoders, final OutputRows.Factory rows,
            final Duration commitInterval, final Duration transactionTimeout, final Duration sessionTimeout, final Duration idleTimeout)
        {
            this(bootstrap, topic, group, outputTopic, rejectedTopic, instance, journal, schema, rollCycle, pipeline, decoders, rows,
                commitInterval, transactionTimeout, sessionTimeout, idleTimeout, List.of());
        }

        /**
         * Settings without idle heartbeats.
         */
        public Settings(
            final String bootstrap, final String topic, final String group, final String outputTopic, final String rejectedTopic,
            final String instance, final Path journal, final JournalSchema schema, final JournalRollCycle rollCycle,
            final Supplier<PipelineBuilder> pipeline, final Supplier<RecordDecoder> decoders, final OutputRows.Factory rows,
            final Duration commitInterval, final Duration transactionTimeout, final Duration sessionTimeout)
        {
            this(bootstrap, topic, group, outputTopic, rejectedTopic, instance, journal, schema, rollCycle, pipeline, decoders, rows,
                commitInterval, transactionTimeout, sessionTimeout, Duration.ZERO, List.of());
        }

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
            Objects.requireNonNull(idleTimeout, "idleTimeout");
            if (idleTimeout.isNegative())
            {
                throw new IllegalArgumentException("the idle timeout must not be negative: " + idleTimeout);
            }
            tables = List.copyOf(tables);
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
     * @return a builder of a run's settings, with {@code weir run --kafka}'s defaults.
     */
    public static KafkaRunBuilder builder()
    {
        return new KafkaRunBuilder();
    }

    /**
     * @param settings what the instance runs with.
     */
    public KafkaRun(final Settings settings)
    {
        this.settings = settings;
        this.name = "weir-kafka-" + settings.group() + "-" + settings.instance();
        this.agents = new PartitionAgents(name, this::pipelineThreadError);
        this.status = new InstanceStatus(settings);
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
        agents.start();
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
        final KafkaClients c = clients;
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
        agents.close();
    }

    /**
     * @return what the instance runs with.
     */
    public Settings settings()
    {
        return settings;
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
        return status.events();
    }

    /**
     * @return outputs produced to the output topic since the start (any thread).
     */
    public long outputs()
    {
        return status.outputs();
    }

    /**
     * @return transactions committed since the start (any thread).
     */
    public long transactions()
    {
        return status.transactions();
    }

    /**
     * @return partitions taken over since the start (any thread).
     */
    public long takeovers()
    {
        return status.takeovers();
    }

    /**
     * @param partition a partition of the source topic.
     * @return the times this instance took it over since the start (any thread): once per assignment, unless a
     *         failed transaction made it take the partitions it owns over again.
     */
    public long takeovers(final int partition)
    {
        return status.takeovers(partition);
    }

    /**
     * @return the committed records of the checkpoint topic the takeovers read since the start (any thread): each
     *         takeover reads only those committed after the previous one's read.
     */
    long checkpointRecordsRead()
    {
        final CheckpointTopic read = checkpointTopic;
        return read == null ? 0 : read.recordsRead();
    }

    /**
     * @param partition a partition of the source topic.
     * @return the times this instance released it since the start, its work committed (any thread).
     */
    public long releases(final int partition)
    {
        return status.releases(partition);
    }

    /**
     * @return one line per owned partition, as of the last commit (any thread): its committed offset, lag,
     *         watermark, outputs and last checkpoint.
     */
    public String status()
    {
        return status.lines();
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
                    transactions.restartAgeIfNothingSent();
                    if (!records.isEmpty())
                    {
                        transactions.begin();
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
                            task.flush();
                        }
                        status.mirrored(records.count());
                        transactions.sent();
                    }
                    deliverAll(DELIVERY_BUDGET);
                    now = System.nanoTime();
                    for (final PartitionTask task : tasks.values())
                    {
                        task.heartbeatIfIdle(now); // --idle-timeout: a quiet partition's watermark advances
                    }
                    if (now - nextCommit >= 0)
                    {
                        if (!clients.rebalances().defersCommit(transactions.ageNanos())) // a join under way: the next loop tries again
                        {
                            commit(List.of());
                            nextCommit = now + settings.commitInterval().toNanos();
                        }
                    }
                }
                catch (final KafkaException ex)
                {
                    recover(ex, List.of()); // a send, or the producer in an error state
                    continue;
                }
                if (now - nextStatus >= 0)
                {
                    status.publish(new TreeMap<>(tasks).values(), consumer::currentLag);
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
            // a failure inside one of the group's callbacks reaches here wrapped by the consumer: keep it, not the wrapper
            failure = callbackFailure != null && ex.getCause() == callbackFailure ? callbackFailure : ex;
            LOG.error("{} failed: {}", name, ex.toString(), ex);
            if (transactions != null)
            {
                transactions.abortQuietly();
            }
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
        clients = new KafkaClients(settings, name);
        clients.open();
        checkpointTopic = new CheckpointTopic(settings.checkpointTopic());
        transactions = new TransactionCoordinator(name, clients::newProducer, settings.transactionTimeout(), System::nanoTime);
        clients.openConsumers();
        consumer = clients.consumer();
        final PipelineConfiguration configuration = settings.pipeline().get().concludeFor(settings.schema(), settings.tables());
        context = new PartitionTask.Context(settings.journal().resolve("kafka"), settings.schema(), settings.rollCycle(), settings.pipeline(),
            settings.decoders(), settings.rows(), transactions.producer(), settings.outputTopic(), clients.partitionCount(settings.outputTopic()),
            settings.rejectedTopic(), clients.partitionCount(settings.rejectedTopic()), settings.idleTimeout().toMillis(),
            configuration.outOfOrdernessMillis(), settings.tables());
        final ResumeTerms terms = new ResumeTerms(settings.group(), settings.topic(),
            configuration.describe(),
            settings.outputTopic(), context.outputPartitions(), settings.rejectedTopic(), context.rejectedPartitions(), settings.tables());
        takeover = new PartitionTakeover(settings, checkpointTopic, clients.committedReader(), terms);
    }

    private void deliverAll(final int budget)
    {
        for (final PartitionTask task : tasks.values())
        {
            transactions.begin();
            final long before = task.produced();
            task.deliver(budget);
            final long sent = task.produced() - before;
            if (sent > 0)
            {
                status.produced(sent);
                transactions.sent();
            }
        }
    }

    /**
     * Ship the ready checkpoints, send the offsets and commit the open transaction; on failure, recover as the
     * {@link TransactionCoordinator} says and take the owned partitions over again, except those leaving.
     *
     * @param leaving partitions being released, not to be taken over again.
     * @return false if the transaction failed and was aborted.
     */
    private boolean commit(final Collection<TopicPartition> leaving)
    {
        if (!transactions.inTransaction())
        {
            return true;
        }
        try
        {
            boolean any = transactions.sentAny();
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
            transactions.commit(offsets, consumer.groupMetadata());
            status.committed();
            return true;
        }
        catch (final KafkaException ex)
        {
            recover(ex, leaving);
            return false;
        }
    }

    /**
     * A producer call failed: end the run, or renew the producer or abort the transaction, as the
     * {@link TransactionCoordinator} says, then take the owned partitions over again, except those leaving.
     */
    private void recover(final RuntimeException failed, final Collection<TopicPartition> leaving)
    {
        transactions.recover(failed);
        takeOverAgain(leaving);
    }

    /** Discard every owned partition's task and take them over again from what is committed, except those lost. */
    private void takeOverAgain(final Collection<TopicPartition> lost)
    {
        context = context.with(transactions.producer());
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
        final Map<Integer, PartitionCheckpoint> checkpoints;
        try
        {
            checkpoints = takeover.newestCheckpoints();
        }
        catch (final CheckpointMismatchException ex)
        {
            // not thrown here: inside the group's callback the consumer would log it with its stack trace; the loop ends the run
            refused = ex;
            return;
        }
        for (final TopicPartition partition : partitions)
        {
            final PartitionCheckpoint checkpoint = checkpoints.get(partition.partition());
            final PartitionTask task = takeover.take(context, partition, checkpoint);
            tasks.put(partition.partition(), task);
            agents.add(task.agent());
            if (task.resumeOffset() >= 0)
            {
                consumer.seek(partition, task.resumeOffset());
            }
            else
            {
                consumer.seekToBeginning(List.of(partition));
            }
            status.tookOver(partition.partition());
            LOG.info("{} took {} over: checkpoint at offset {} covering {} outputs, {} committed after it, resuming at {}", name, partition,
                checkpoint == null ? -1 : checkpoint.kafkaOffset(), checkpoint == null ? 0 : checkpoint.outputs(), task.committedAfterCheckpoint(),
                task.resumeOffset());
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
                agents.remove(task.agent());
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
            transactions.begin();
            for (final PartitionTask task : leaving)
            {
                status.produced(drain(task));
            }
        }
        catch (final KafkaException ex)
        {
            recover(ex, moving);
            return; // the leaving tasks were discarded, the next owner redoes their uncommitted work
        }
        transactions.sent();
        if (!commit(moving))
        {
            return; // aborted: the leaving tasks were discarded, the next owner redoes their uncommitted work
        }
        for (final PartitionTask task : leaving)
        {
            tasks.remove(task.source().partition());
            task.close();
            status.released(task.source().partition());
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
        agents.remove(task.agent());
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

    private void closeClients()
    {
        final KafkaClients c = clients;
        if (c == null)
        {
            return;
        }
        c.closeConsumer();
        if (transactions != null)
        {
            transactions.close();
        }
        c.close();
    }

    /**
     * The group's callbacks, on the Kafka thread inside {@code poll}. What one throws is kept: the consumer rethrows
     * it wrapped in a {@link KafkaException}, and the run ends with it.
     */
    private final class Rebalance implements ConsumerRebalanceListener
    {
        @Override
        public void onPartitionsRevoked(final Collection<TopicPartition> partitions)
        {
            kept(() -> release(partitions));
        }

        @Override
        public void onPartitionsAssigned(final Collection<TopicPartition> partitions)
        {
            kept(() ->
            {
                commit(List.of()); // what waited for the join to end, with the group's new generation
                takeOver(partitions);
            });
        }

        @Override
        public void onPartitionsLost(final Collection<TopicPartition> partitions)
        {
            kept(() ->
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
                transactions.abort();
                takeOverAgain(lost);
            });
        }

        private void kept(final Runnable callback)
        {
            try
            {
                callback.run();
            }
            catch (final RuntimeException ex)
            {
                callbackFailure = ex;
                throw ex;
            }
        }
    }
}
