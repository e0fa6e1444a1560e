package dev.weir.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import dev.weir.kafka.TransactionCoordinator.State;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * The transaction coordinator's states, against Kafka's {@link MockProducer}: a commit goes OPEN, COMMITTING, IDLE;
 * each failure type leads to its state: a refused offset commit (rebalance) or another Kafka exception is aborted
 * with the same producer (IDLE), a producer that cannot go on is renewed (IDLE, a new producer), a fencing ends the
 * run (FENCED), unless the transaction outlived its timeout (renewed), and an authorization failure or too many
 * failures in a row end it (FAILED).
 */
final class TransactionCoordinatorTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Map<TopicPartition, OffsetAndMetadata> OFFSETS = Map.of(new TopicPartition("t", 0), new OffsetAndMetadata(5));
    private static final ConsumerGroupMetadata GROUP = new ConsumerGroupMetadata("g");

    private final List<MockProducer<byte[], byte[]>> made = new ArrayList<>();
    private final AtomicLong clock = new AtomicLong();

    @Test
    void aCommitGoesFromOpenToIdle()
    {
        final TransactionCoordinator coordinator = coordinator();
        assertEquals(State.IDLE, coordinator.state());
        coordinator.begin();
        coordinator.sent();
        assertEquals(State.OPEN, coordinator.state());
        assertTrue(coordinator.sentAny());
        coordinator.commit(OFFSETS, GROUP);
        assertEquals(State.IDLE, coordinator.state());
        assertFalse(coordinator.sentAny());
        assertTrue(producer().transactionCommitted());
        assertTrue(producer().sentOffsets());
    }

    @Test
    void theAgeCountsFromTheFirstSendUntilTheCommit()
    {
        final TransactionCoordinator coordinator = coordinator();
        assertEquals(0, coordinator.ageNanos(), "no transaction");
        coordinator.begin();
        clock.addAndGet(1_000);
        coordinator.restartAgeIfNothingSent();
        assertEquals(0, coordinator.ageNanos(), "nothing sent yet");
        coordinator.sent();
        clock.addAndGet(5_000);
        assertEquals(5_000, coordinator.ageNanos());
        coordinator.restartAgeIfNothingSent();
        assertEquals(5_000, coordinator.ageNanos(), "something sent: the age goes on");
        coordinator.commit(OFFSETS, GROUP);
        assertEquals(0, coordinator.ageNanos(), "committed");
    }

    @Test
    void aRebalanceOrARefusedOffsetCommitIsAbortedWithTheSameProducer()
    {
        for (final RuntimeException failure : List.of(new RebalanceInProgressException("rebalancing"),
            new CommitFailedException("the group moved the partitions"), new KafkaException("a send failed")))
        {
            made.clear();
            final TransactionCoordinator coordinator = coordinator();
            coordinator.begin();
            producer().sendOffsetsToTransactionException = failure;
            final RuntimeException thrown = assertThrows(RuntimeException.class, () -> coordinator.commit(OFFSETS, GROUP));
            assertSame(failure, thrown);
            assertEquals(State.COMMITTING, coordinator.state(), "left committing until recovered");
            coordinator.recover(thrown);
            assertEquals(State.IDLE, coordinator.state(), failure + " aborted");
            assertTrue(producer().transactionAborted(), failure + " aborted");
            assertEquals(1, made.size(), failure + ": the same producer");
        }
    }

    @Test
    void aProducerThatCannotGoOnIsRenewed()
    {
        for (final RuntimeException failure : List.of(new InvalidTxnStateException("aborted by the broker"), new TimeoutException("commit timed out")))
        {
            made.clear();
            final TransactionCoordinator coordinator = coordinator();
            coordinator.begin();
            producer().commitTransactionException = failure;
            coordinator.recover(assertThrows(RuntimeException.class, () -> coordinator.commit(OFFSETS, GROUP)));
            assertEquals(State.IDLE, coordinator.state());
            assertEquals(2, made.size(), failure + ": a new producer");
            assertTrue(made.get(0).closed(), "the failed producer closed");
            assertSame(made.get(1), coordinator.producer());
        }
    }

    @Test
    void aFencingEndsTheRunUnlessTheTransactionOutlivedItsTimeout()
    {
        final TransactionCoordinator fenced = coordinator();
        fenced.begin();
        producer().fenceProducer();
        final RuntimeException failure = assertThrows(ProducerFencedException.class, () -> fenced.commit(OFFSETS, GROUP));
        assertSame(failure, assertThrows(ProducerFencedException.class, () -> fenced.recover(failure)), "the fencing itself ends the run");
        assertEquals(State.FENCED, fenced.state());

        made.clear();
        final TransactionCoordinator outlived = coordinator();
        outlived.begin();
        producer().fenceProducer();
        final RuntimeException late = assertThrows(ProducerFencedException.class, () -> outlived.commit(OFFSETS, GROUP));
        clock.addAndGet(TIMEOUT.toNanos());
        outlived.recover(late);
        assertEquals(State.IDLE, outlived.state(), "the broker aborted it: a new producer goes on");
        assertEquals(2, made.size());
    }

    @Test
    void anAbortThatIsFencedEndsTheRun()
    {
        final TransactionCoordinator coordinator = coordinator();
        coordinator.begin();
        producer().sendOffsetsToTransactionException = new RebalanceInProgressException("rebalancing");
        final RuntimeException failure = assertThrows(RuntimeException.class, () -> coordinator.commit(OFFSETS, GROUP));
        producer().abortTransactionException = new ProducerFencedException("a second instance");
        assertThrows(ProducerFencedException.class, () -> coordinator.recover(failure));
        assertEquals(State.FENCED, coordinator.state());
    }

    @Test
    void anAuthorizationFailureOrTooManyInARowEndTheRun()
    {
        final TransactionCoordinator denied = coordinator();
        denied.begin();
        producer().commitTransactionException = new TopicAuthorizationException("denied");
        final RuntimeException failure = assertThrows(RuntimeException.class, () -> denied.commit(OFFSETS, GROUP));
        final IllegalStateException ended = assertThrows(IllegalStateException.class, () -> denied.recover(failure));
        assertTrue(ended.getMessage().contains("cannot go on: its producer failed for good"), ended.getMessage());
        assertEquals(State.FAILED, denied.state());

        made.clear();
        final TransactionCoordinator repeated = coordinator();
        for (int i = 1; i < TransactionFailure.IN_A_ROW; i++)
        {
            repeated.begin();
            producer().commitTransactionException = new KafkaException("failed " + i);
            repeated.recover(assertThrows(KafkaException.class, () -> repeated.commit(OFFSETS, GROUP)));
            assertEquals(State.IDLE, repeated.state());
        }
        repeated.begin();
        producer().commitTransactionException = new KafkaException("failed again");
        final RuntimeException last = assertThrows(KafkaException.class, () -> repeated.commit(OFFSETS, GROUP));
        final IllegalStateException tooMany = assertThrows(IllegalStateException.class, () -> repeated.recover(last));
        assertTrue(tooMany.getMessage().contains(TransactionFailure.IN_A_ROW + " transactions failed in a row"), tooMany.getMessage());
        assertEquals(State.FAILED, repeated.state());
    }

    private TransactionCoordinator coordinator()
    {
        return new TransactionCoordinator("weir-kafka-g-i", () ->
        {
            final MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
            producer.initTransactions();
            made.add(producer);
            return producer;
        }, TIMEOUT, clock::get);
    }

    /** @return the newest producer made */
    private MockProducer<byte[], byte[]> producer()
    {
        return made.get(made.size() - 1);
    }
}
