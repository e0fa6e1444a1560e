package dev.weir.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;

import dev.weir.kafka.TransactionFailure.Remedy;
import dev.weir.test.kafka.KafkaTestBroker;
import dev.weir.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.InvalidPidMappingException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.errors.UnknownProducerIdException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The classification of the transactional producer's failures: each Kafka exception and what it calls for, also
 * when wrapped (as the producer and the partitions' sends wrap them), and, against the test broker, the failures a
 * real Kafka 4.4 producer gives when the broker aborted its timed-out transaction (a new producer then goes on) and
 * when a second producer with the same transactional id fenced it.
 */
@Tag("slow")
final class TransactionFailureTest
{
    @Test
    void eachFailureHasItsRemedy()
    {
        assertEquals(Remedy.ABORT, TransactionFailure.remedy(new KafkaException("a send failed"), false));
        assertEquals(Remedy.ABORT, TransactionFailure.remedy(new TransactionAbortableException("abortable"), false));
        assertEquals(Remedy.ABORT, TransactionFailure.remedy(new RecordTooLargeException("too large"), false));
        assertEquals(Remedy.RENEW, TransactionFailure.remedy(new OutOfOrderSequenceException("gap"), false));
        assertEquals(Remedy.RENEW, TransactionFailure.remedy(new UnknownProducerIdException("no state"), false));
        assertEquals(Remedy.RENEW, TransactionFailure.remedy(new InvalidPidMappingException("expired id"), false));
        assertEquals(Remedy.RENEW, TransactionFailure.remedy(new TimeoutException("commit timed out"), false));
        assertEquals(Remedy.RENEW, TransactionFailure.remedy(
            new IllegalStateException("Cannot attempt operation `abortTransaction` because the previous call to `commitTransaction` timed out"), false));
        assertEquals(Remedy.FENCED, TransactionFailure.remedy(new ProducerFencedException("fenced"), false));
        assertEquals(Remedy.ABORT, TransactionFailure.remedy(new InvalidProducerEpochException("old epoch"), false));
        assertEquals(Remedy.RENEW, TransactionFailure.remedy(new InvalidTxnStateException("aborted by the broker"), false));
        assertEquals(Remedy.RENEW, TransactionFailure.remedy(new ProducerFencedException("fenced"), true));
        assertEquals(Remedy.ABORT, TransactionFailure.remedy(new InvalidProducerEpochException("old epoch"), true));
        for (final boolean outlived : new boolean[] {false, true})
        {
            assertEquals(Remedy.FATAL, TransactionFailure.remedy(new TransactionalIdAuthorizationException("denied"), outlived));
            assertEquals(Remedy.FATAL, TransactionFailure.remedy(new ClusterAuthorizationException("denied"), outlived));
            assertEquals(Remedy.FATAL, TransactionFailure.remedy(new TopicAuthorizationException("denied"), outlived));
            assertEquals(Remedy.FATAL, TransactionFailure.remedy(new SaslAuthenticationException("bad password"), outlived));
            assertEquals(Remedy.FATAL, TransactionFailure.remedy(new UnsupportedVersionException("old broker"), outlived));
        }
    }

    @Test
    void theMostSevereCauseDecides()
    {
        // the producer in an error state: "Cannot execute transactional method because we are in an error state"
        assertEquals(Remedy.RENEW, TransactionFailure.remedy(new KafkaException("error state", new OutOfOrderSequenceException("gap")), false));
        assertEquals(Remedy.ABORT, TransactionFailure.remedy(
            new KafkaException("error state", new TransactionAbortableException("exhausted retries", new KafkaException("expired"))), false));
        // a partition's send, wrapped by PartitionTask
        assertEquals(Remedy.RENEW, TransactionFailure.remedy(new KafkaException("a send failed", new TimeoutException("expired")), false));
        assertEquals(Remedy.FENCED, TransactionFailure.remedy(new KafkaException("a send failed", new ProducerFencedException("fenced")), false));
        assertEquals(Remedy.FATAL, TransactionFailure.remedy(
            new KafkaException("x", new KafkaException("gap", new TransactionalIdAuthorizationException("denied"))), true));
    }

    @Test
    void aTransactionTheBrokerTimedOutIsFencedButANewProducerGoesOn() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            final String topic = KafkaBroker.topic(admin, "weir-txn-timeout", 1);
            final String id = KafkaTestBroker.uniqueName("weir-txn-timeout");
            try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap, id))
            {
                timedOut(admin, producer, topic, id);
                // the instance's commit: the offsets, then the commit
                final RuntimeException failure = assertThrows(RuntimeException.class, () ->
                {
                    producer.sendOffsetsToTransaction(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(1)), new ConsumerGroupMetadata("g-" + id));
                    producer.commitTransaction();
                });
                assertTrue(failure instanceof ProducerFencedException, () -> "Kafka 4.4 reports the broker's abort as a fencing: " + failure);
                assertEquals(Remedy.RENEW, TransactionFailure.remedy(failure, true), () -> "what the producer threw: " + failure);
                final RuntimeException abort = assertThrows(RuntimeException.class, producer::abortTransaction, "the producer cannot go on");
                assertEquals(Remedy.RENEW, TransactionFailure.remedy(abort, true), () -> "what the abort threw: " + abort);
            }
            try (KafkaProducer<byte[], byte[]> renewed = producer(bootstrap, id))
            {
                renewed.initTransactions();
                commitOne(renewed, topic, "after");
            }
            assertEquals(List.of("after"), committed(bootstrap, topic), "the timed-out transaction is aborted, the new producer's committed");
        }
    }

    @Test
    void aCommitAloneAfterTheBrokersAbortCallsForANewProducer() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        final String id = KafkaTestBroker.uniqueName("weir-txn-commit");
        try (Admin admin = KafkaBroker.admin(bootstrap); KafkaProducer<byte[], byte[]> producer = producer(bootstrap, id))
        {
            final String topic = KafkaBroker.topic(admin, "weir-txn-commit", 1);
            timedOut(admin, producer, topic, id);
            final RuntimeException failure = assertThrows(RuntimeException.class, producer::commitTransaction);
            assertEquals(Remedy.RENEW, TransactionFailure.remedy(failure, true), () -> "what the commit threw: " + failure);
            assertEquals(Remedy.RENEW, TransactionFailure.remedy(failure, false), () -> "what the commit threw: " + failure);
            assertThrows(KafkaException.class, producer::abortTransaction, "the producer is in a fatal state");
        }
    }

    @Test
    void aSendAfterTheBrokersAbortIsAbortable() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        final String id = KafkaTestBroker.uniqueName("weir-txn-send");
        try (Admin admin = KafkaBroker.admin(bootstrap); KafkaProducer<byte[], byte[]> producer = producer(bootstrap, id))
        {
            final String topic = KafkaBroker.topic(admin, "weir-txn-send", 1);
            timedOut(admin, producer, topic, id);
            final ExecutionException failure = assertThrows(ExecutionException.class, () -> producer.send(record(topic, "more")).get());
            assertEquals(Remedy.ABORT, TransactionFailure.remedy(failure.getCause(), false), () -> "what the send gave: " + failure.getCause());
            producer.abortTransaction();
            commitOne(producer, topic, "after");
            assertEquals(List.of("after"), committed(bootstrap, topic), "the same producer goes on after the abort");
        }
    }

    @Test
    void aSecondProducerWithTheSameIdFencesTheFirst() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            final String topic = KafkaBroker.topic(admin, "weir-txn-fence", 1);
            final String id = KafkaTestBroker.uniqueName("weir-txn-fence");
            try (KafkaProducer<byte[], byte[]> first = producer(bootstrap, id); KafkaProducer<byte[], byte[]> second = producer(bootstrap, id))
            {
                first.initTransactions();
                first.beginTransaction();
                first.send(record(topic, "first")).get();
                second.initTransactions();
                final ExecutionException send = assertThrows(ExecutionException.class, () -> first.send(record(topic, "more")).get());
                assertEquals(Remedy.ABORT, TransactionFailure.remedy(send.getCause(), false), () -> "what the send gave: " + send.getCause());
                final RuntimeException abort = assertThrows(RuntimeException.class, first::abortTransaction);
                assertEquals(Remedy.FENCED, TransactionFailure.remedy(abort, false), () -> "what the abort threw: " + abort);
                final RuntimeException commit = assertThrows(RuntimeException.class, first::commitTransaction);
                assertEquals(Remedy.FENCED, TransactionFailure.remedy(commit, false), () -> "what the commit threw: " + commit);
            }
        }
    }

    /** Open a transaction with one record and wait until the broker has aborted it for its 1 s timeout (a new epoch). */
    private static void timedOut(final Admin admin, final KafkaProducer<byte[], byte[]> producer, final String topic, final String id) throws Exception
    {
        producer.initTransactions();
        // the epoch before the transaction: with a 1 s timeout the broker may abort it before a busy machine's first
        // look would have seen it ongoing
        final int epoch = awaitState(admin, id, TransactionState.EMPTY).producerEpoch();
        producer.beginTransaction();
        producer.send(record(topic, "before")).get();
        while (awaitState(admin, id, TransactionState.COMPLETE_ABORT).producerEpoch() <= epoch)
        {
            Thread.sleep(100);
        }
    }

    /** Commit one record in a transaction of its own. */
    private static void commitOne(final KafkaProducer<byte[], byte[]> producer, final String topic, final String value) throws Exception
    {
        producer.beginTransaction();
        producer.send(record(topic, value)).get();
        producer.commitTransaction();
    }

    private static List<String> committed(final String bootstrap, final String topic)
    {
        return KafkaBroker.readCommitted(bootstrap, topic, Duration.ofSeconds(2)).stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
    }

    private static TransactionDescription awaitState(final Admin admin, final String id, final TransactionState state) throws Exception
    {
        for (int i = 0; i < 1_200; i++)
        {
            final Map<String, TransactionDescription> all = admin.describeTransactions(List.of(id)).all().get();
            final TransactionDescription description = all.get(id);
            if (description.state() == state)
            {
                return description;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the transaction " + id + " never reached " + state);
    }

    private static KafkaProducer<byte[], byte[]> producer(final String bootstrap, final String id)
    {
        final Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, id);
        config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "1000");
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static ProducerRecord<byte[], byte[]> record(final String topic, final String value)
    {
        return new ProducerRecord<>(topic, 0, null, value.getBytes(StandardCharsets.UTF_8));
    }
}
