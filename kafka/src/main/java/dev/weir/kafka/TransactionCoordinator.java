package dev.weir.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The instance's transactions: its transactional producer and the state of the transaction it has open, moved
 * only as {@link State} says. A failed producer call is handled as {@link TransactionFailure} classifies it, by the
 * exception's type: the transaction is aborted, or the producer renewed, or the run ends (fenced, failed for good,
 * or {@value TransactionFailure#IN_A_ROW} failed transactions in a row). The caller then takes its partitions over
 * again with {@link #producer()}, which may be a new one.
 * <p>
 * Not thread-safe: the instance's Kafka thread owns it.
 */
final class TransactionCoordinator implements AutoCloseable
{
    /** Where the instance's transaction is. */
    enum State
    {
        /** No transaction open: the next send begins one. */
        IDLE,
        /** A transaction is open; sends go into it. */
        OPEN,
        /** The offsets are being sent and the transaction committed; a failure leaves it here until recovered. */
        COMMITTING,
        /** The transaction is being aborted. */
        ABORTING,
        /** Another instance runs with the same transactional id: the run ends. */
        FENCED,
        /** The producer failed for good, or too many transactions failed in a row: the run ends. */
        FAILED
    }

    private static final Logger LOG = LoggerFactory.getLogger(TransactionCoordinator.class);

    private final String name;
    private final Supplier<? extends Producer<byte[], byte[]>> producers;
    private final long timeoutNanos;
    private final LongSupplier nanoClock;
    private Producer<byte[], byte[]> producer;
    private State state = State.IDLE;
    private long began;
    private boolean sent;
    private int failedInARow;

    /**
     * @param name      the instance's name, for messages.
     * @param producers makes a new transactional producer, its transactions initialised (a new epoch, the open
     *                  transaction ended); called once now and once per renewal.
     * @param timeout   the producers' {@code transaction.timeout.ms}.
     * @param nanoClock the monotonic clock, ns ({@code System::nanoTime}).
     */
    TransactionCoordinator(final String name, final Supplier<? extends Producer<byte[], byte[]>> producers, final Duration timeout,
        final LongSupplier nanoClock)
    {
        this.name = name;
        this.producers = producers;
        this.timeoutNanos = timeout.toNanos();
        this.nanoClock = nanoClock;
        this.producer = producers.get();
    }

    /**
     * @return the producer sends go through (a new one after a renewal).
     */
    Producer<byte[], byte[]> producer()
    {
        return producer;
    }

    /**
     * @return where the transaction is.
     */
    State state()
    {
        return state;
    }

    /**
     * @return true if a transaction is open (committing or aborting included).
     */
    boolean inTransaction()
    {
        return state == State.OPEN || state == State.COMMITTING || state == State.ABORTING;
    }

    /**
     * @return true if something was sent in the open transaction.
     */
    boolean sentAny()
    {
        return sent;
    }

    /**
     * @return how long the open transaction has had something in it, ns (0 if nothing was sent in it).
     */
    long ageNanos()
    {
        return inTransaction() && sent ? nanoClock.getAsLong() - began : 0;
    }

    /** Begin a transaction unless one is open. */
    void begin()
    {
        if (state == State.IDLE)
        {
            producer.beginTransaction();
            state = State.OPEN;
            began = nanoClock.getAsLong();
        }
    }

    /** Note that something was sent in the open transaction. */
    void sent()
    {
        sent = true;
    }

    /**
     * While nothing is sent in the open transaction, the broker's transaction has not begun: restart its age.
     */
    void restartAgeIfNothingSent()
    {
        if (!sent)
        {
            began = nanoClock.getAsLong();
        }
    }

    /**
     * Send the offsets into the open transaction and commit it.
     *
     * @param offsets the consumer offsets to commit with it (none: not sent).
     * @param group   the consumer's group metadata.
     * @throws org.apache.kafka.common.KafkaException as the producer throws it: then {@link #recover} it.
     */
    void commit(final Map<TopicPartition, OffsetAndMetadata> offsets, final ConsumerGroupMetadata group)
    {
        state = State.COMMITTING;
        if (!offsets.isEmpty())
        {
            producer.sendOffsetsToTransaction(offsets, group);
        }
        producer.commitTransaction();
        state = State.IDLE;
        sent = false;
        failedInARow = 0;
    }

    /**
     * A producer call failed: end the run, or renew the producer, or abort the transaction, as
     * {@link TransactionFailure} says.
     *
     * @param failure what the producer threw.
     * @throws RuntimeException the failure itself if fenced (state {@link State#FENCED}), or an
     *                          {@link IllegalStateException} if it cannot be overcome or too many failed in a row
     *                          ({@link State#FAILED}).
     */
    void recover(final RuntimeException failure)
    {
        final TransactionFailure.Remedy remedy = endUnlessRecoverable(failure);
        if (++failedInARow >= TransactionFailure.IN_A_ROW)
        {
            state = State.FAILED;
            throw new IllegalStateException(name + " cannot go on: " + failedInARow + " transactions failed in a row, the last with " + failure, failure);
        }
        if (remedy == TransactionFailure.Remedy.RENEW)
        {
            LOG.warn("{}: the transaction failed ({}) and the producer cannot go on; a new producer takes the owned partitions over again",
                name, failure.toString());
            renew();
        }
        else
        {
            LOG.warn("{}: the transaction failed ({}); aborting it and taking the owned partitions over again", name, failure.toString());
            abort();
        }
    }

    /**
     * Abort the open transaction, if any; if the abort fails, end the run or renew the producer as
     * {@link TransactionFailure} says.
     */
    void abort()
    {
        if (!inTransaction())
        {
            return;
        }
        state = State.ABORTING;
        try
        {
            producer.abortTransaction();
            state = State.IDLE;
            sent = false;
        }
        catch (final RuntimeException ex)
        {
            endUnlessRecoverable(ex);
            LOG.warn("{}: aborting the transaction failed ({}); a new producer ends it", name, ex.toString());
            renew();
        }
    }

    /** As the run ends: abort the open transaction, if any, ignoring a failure. */
    void abortQuietly()
    {
        if (state != State.IDLE && producer != null)
        {
            try
            {
                producer.abortTransaction();
            }
            catch (final RuntimeException ex)
            {
                LOG.debug("aborting: {}", ex.toString());
            }
        }
        if (state != State.FENCED && state != State.FAILED)
        {
            state = State.IDLE;
        }
    }

    @Override
    public void close()
    {
        if (producer != null)
        {
            producer.close(Duration.ofSeconds(5));
        }
    }

    /** @return the remedy for a producer's failure, unless it ends the run (fenced, or fatal): then it is thrown. */
    private TransactionFailure.Remedy endUnlessRecoverable(final RuntimeException failure)
    {
        final boolean outlived = inTransaction() && nanoClock.getAsLong() - began >= timeoutNanos;
        final TransactionFailure.Remedy remedy = TransactionFailure.remedy(failure, outlived);
        if (remedy == TransactionFailure.Remedy.FENCED)
        {
            state = State.FENCED;
            throw failure; // named as a fencing where the run ends
        }
        if (remedy == TransactionFailure.Remedy.FATAL)
        {
            state = State.FAILED;
            throw new IllegalStateException(name + " cannot go on: its producer failed for good (" + failure + ")", failure);
        }
        return remedy;
    }

    /**
     * Replace the producer by a new one, whose {@code initTransactions} gets a new epoch and ends the open
     * transaction.
     */
    private void renew()
    {
        try
        {
            producer.close(Duration.ZERO);
        }
        catch (final RuntimeException ex)
        {
            LOG.debug("closing the failed producer: {}", ex.toString());
        }
        state = State.IDLE;
        sent = false;
        producer = null;
        producer = producers.get();
    }
}
