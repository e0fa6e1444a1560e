package dev.weir.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;

import dev.weir.engine.delivery.DeliveryUnavailableException;
import dev.weir.engine.delivery.OutputSink;
import dev.weir.files.KeyText;
import dev.weir.files.ResultRow;
import dev.weir.files.RowColumns;
import dev.weir.journal.DeliveryPositions;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A Kafka topic as the engine's {@link OutputSink} for a local pipeline: each delivery reads the outputs after the
 * position Kafka holds and produces them, with that position, in one Kafka transaction. A result is the value of a
 * record as the results CSV holds it, a late event as the late-events CSV holds it ({@link ResultRow}, the rows of
 * {@code weir run --kafka}'s output topic), keyed by the text of its key.
 * <p>
 * The position is a record in a compacted positions topic ({@link #positionsTopic}, one partition), keyed by the
 * journal's id, its value the last output position delivered in decimal text: it is written in the transaction of
 * the rows, so a reader with {@code isolation.level=read_committed} sees both or neither. A record rather than
 * consumer-group offsets, because the sink consumes no partition whose offsets could carry it, and a record says
 * which journal it belongs to. The producer's {@code transactional.id} is {@code weir-sink-TOPIC-JOURNALID}: a sink
 * started again fences the one it replaces and aborts its open transaction before it reads the position, so a
 * sink killed at any moment resumes after the position Kafka holds and never writes a row twice. The position is
 * also kept in the pipeline's delivery record ({@link DeliveryPositions}: table TOPIC, target {@code kafka:} and the
 * bootstrap servers), registered before the first read, so retention keeps what the topic does not hold yet.
 * <p>
 * A broker that cannot be reached or fails is {@link DeliveryUnavailableException} (the producer is closed, the next
 * delivery connects again and reads the position again); a sink fenced by another with its transactional id is a
 * refusal ({@link IllegalStateException}).
 * <p>
 * Threads: {@link #deliver} on one delivering thread, which owns the clients; {@link #heldPosition()},
 * {@link #pendingResults} and {@link #abort()} on any. The creator closes it ({@link #close()}) after the delivery
 * ended.
 */
public final class KafkaOutputSink implements OutputSink, AutoCloseable
{
    /** The most outputs produced in one transaction. */
    public static final int TRANSACTION_OUTPUTS = 10_000;

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final String bootstrap;
    private final String topic;
    private final RowColumns columns;
    private final String target;
    private volatile KafkaProducer<String, String> producer;
    private volatile long held = UNKNOWN;

    /**
     * @param bootstrap the brokers ({@code bootstrap.servers}).
     * @param topic     the topic the rows go to (created with the broker's defaults if missing).
     * @param columns   the pipeline's key, value and aggregations: the columns of the rows.
     */
    public KafkaOutputSink(final String bootstrap, final String topic, final RowColumns columns)
    {
        this.bootstrap = bootstrap;
        this.topic = topic;
        this.columns = columns;
        this.target = "kafka:" + bootstrap;
    }

    /**
     * @param topic a topic delivered into.
     * @return the compacted topic that holds the positions delivered into it.
     */
    public static String positionsTopic(final String topic)
    {
        return topic + "-weir-positions";
    }

    /**
     * Produce every output after the position Kafka holds, in transactions of at most {@value #TRANSACTION_OUTPUTS}
     * outputs, each with its new position.
     *
     * @throws DeliveryUnavailableException if Kafka cannot be reached or fails (what was committed stays).
     * @throws IllegalStateException        if another sink with this transactional id fenced this one.
     */
    @Override
    public void deliver(final JournalDirectory journal)
    {
        KafkaProducer<String, String> out = producer;
        try
        {
            if (out == null)
            {
                out = connect(journal);
            }
            deliverAfter(journal, out);
        }
        catch (final RuntimeException ex)
        {
            close(out); // a transaction it left open is aborted by the producer the next delivery starts
            throw classified(journal, ex);
        }
    }

    /** @return a fencing as a refusal, any other failure of Kafka's as unavailable, anything else as it is. */
    private RuntimeException classified(final JournalDirectory journal, final RuntimeException ex)
    {
        if (ex instanceof ProducerFencedException || ex instanceof InvalidProducerEpochException)
        {
            return new IllegalStateException("delivery of journal " + journal.id() + " into topic " + topic
                + " was fenced by another sink with its transactional id: " + ex.getMessage(), ex);
        }
        if (ex instanceof KafkaException || ex instanceof IllegalStateException)
        {
            return new DeliveryUnavailableException("delivery to topic " + topic + " at " + bootstrap + " failed (the journal keeps every output): "
                + ex.getMessage(), ex);
        }
        return ex;
    }

    private void deliverAfter(final JournalDirectory journal, final KafkaProducer<String, String> out)
    {
        final String positionKey = journal.id();
        try (KeyText keys = columns.keyText(journal); OutputJournal output = OutputJournal.open(journal))
        {
            final ResultRow rows = columns.rows(journal, keys);
            final StringBuilder row = new StringBuilder(128);
            output.seekAfter(Math.max(OutputJournal.NONE, held));
            while (true)
            {
                out.beginTransaction();
                int produced = 0;
                while (produced < TRANSACTION_OUTPUTS && output.next(stored ->
                {
                    final String key = keys.text(stored.isResult() ? stored.result().keyId() : stored.late().keyId(), 0);
                    row.setLength(0);
                    final String value = stored.isResult() ? rows.csv(row, stored.result()).toString() : rows.late(stored.late());
                    out.send(new ProducerRecord<>(topic, key, value));
                }) != 0)
                {
                    produced++;
                }
                if (produced == 0)
                {
                    out.abortTransaction();
                    return;
                }
                final long position = output.lastReadPosition();
                out.send(new ProducerRecord<>(positionsTopic(topic), 0, positionKey, Long.toString(position)));
                out.commitTransaction();
                held = position;
                DeliveryPositions.advance(journal.pipelineRoot(), topic, target, position, System.currentTimeMillis());
            }
        }
    }

    /**
     * Create the topics if missing, start a producer (fencing a predecessor), register, and read the position Kafka holds.
     *
     * @return the producer, now {@link #producer}.
     */
    private KafkaProducer<String, String> connect(final JournalDirectory journal)
    {
        final Properties adminConfig = new Properties();
        adminConfig.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(adminConfig))
        {
            createIfMissing(admin, new NewTopic(topic, Optional.empty(), Optional.empty()));
            createIfMissing(admin, new NewTopic(positionsTopic(topic), Optional.of(1), Optional.empty()).configs(Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
        }
        final Properties producerConfig = new Properties();
        producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        producerConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "weir-sink-" + topic + "-" + journal.id());
        producerConfig.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(TIMEOUT.toMillis()));
        producerConfig.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        final KafkaProducer<String, String> fresh = new KafkaProducer<>(producerConfig, new StringSerializer(), new StringSerializer());
        try
        {
            fresh.initTransactions(); // fences a predecessor and ends its open transaction, so the position below is settled
            final java.nio.file.Path record = DeliveryPositions.file(journal.pipelineRoot(), topic, target);
            if (!java.nio.file.Files.exists(record) || DeliveryPositions.readFile(record).problem() != null)
            {
                DeliveryPositions.register(journal.pipelineRoot(), topic, target, DeliveryPositions.EVERYTHING, System.currentTimeMillis());
            }
            held = committedPosition(journal.id());
        }
        catch (final RuntimeException ex)
        {
            fresh.close(Duration.ZERO);
            throw ex;
        }
        producer = fresh;
        return fresh;
    }

    /** @return the last committed position of the journal in the positions topic, or -1. */
    private long committedPosition(final String journalId)
    {
        final Properties consumerConfig = new Properties();
        consumerConfig.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        final TopicPartition partition = new TopicPartition(positionsTopic(topic), 0);
        long position = OutputJournal.NONE;
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(), new StringDeserializer()))
        {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            final long end = consumer.endOffsets(List.of(partition), TIMEOUT).get(partition);
            final long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (consumer.position(partition, TIMEOUT) < end)
            {
                if (System.nanoTime() - deadline > 0)
                {
                    throw new org.apache.kafka.common.errors.TimeoutException("reading " + partition + " to offset " + end);
                }
                for (final ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200)))
                {
                    if (journalId.equals(record.key()))
                    {
                        position = Long.parseLong(record.value());
                    }
                }
            }
        }
        return position;
    }

    private static void createIfMissing(final Admin admin, final NewTopic newTopic)
    {
        try
        {
            admin.createTopics(List.of(newTopic)).all().get();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new KafkaException("interrupted creating topic " + newTopic.name(), ex);
        }
        catch (final ExecutionException ex)
        {
            if (!(ex.getCause() instanceof TopicExistsException))
            {
                throw new KafkaException("cannot create topic " + newTopic.name() + ": " + ex.getCause().getMessage(), ex.getCause());
            }
        }
    }

    @Override
    public long heldPosition()
    {
        return held;
    }

    /** Close the producer at once: a delivery blocked on Kafka fails now (its open transaction is aborted by the broker). */
    @Override
    public void abort()
    {
        close(producer);
    }

    /** Close a producer at once, and forget it if it is still the current one (a delivery that failed closes only its own). */
    private synchronized void close(final KafkaProducer<String, String> which)
    {
        if (which == null)
        {
            return;
        }
        if (producer == which)
        {
            producer = null;
        }
        which.close(Duration.ZERO);
    }

    /** Close the producer. */
    @Override
    public void close()
    {
        close(producer);
    }
}
