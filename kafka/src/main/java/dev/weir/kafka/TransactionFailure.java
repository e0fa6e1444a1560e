package dev.weir.kafka;

import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidPidMappingException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnsupportedVersionException;

/**
 * What a failure of the instance's transactional producer calls for, by the rules of the Kafka 4.4 producer. The
 * whole cause chain is looked at, and the most severe remedy any of its exceptions calls for wins:
 * <ul>
 *   <li>{@link Remedy#FATAL}: authorization, authentication, an unsupported version or a bad configuration. No new
 *       producer can help; the run ends.</li>
 *   <li>{@link Remedy#FENCED} or {@link Remedy#RENEW}: {@code ProducerFencedException}, the transactional id's
 *       epoch moved past the producer's. Another instance with the same id does that when it starts (fenced: the
 *       run ends, as Kafka documents), and so does the broker when it aborts a transaction left open for longer
 *       than its timeout (a broker outage, a stalled process): the producer then learns it from
 *       {@code sendOffsetsToTransaction} or {@code commitTransaction} as the same exception. Only the broker's abort
 *       is possible when the open transaction is older than the timeout, and then the producer is renewed.</li>
 *   <li>{@link Remedy#RENEW}: the producer cannot go on: its sequence numbers ({@code OutOfOrderSequenceException},
 *       {@code UnknownProducerIdException}), its producer id ({@code InvalidPidMappingException}), a commit the
 *       broker refused for a transaction it had aborted ({@code InvalidTxnStateException}, fatal to the producer),
 *       a call that timed out (a commit that timed out must be retried, so the producer refuses to abort) or a
 *       refused state transition ({@code IllegalStateException}). A new producer with the same transactional id gets
 *       a new epoch from {@code initTransactions}, which also ends the open transaction, and every partition is
 *       taken over again from what is committed.</li>
 *   <li>{@link Remedy#ABORT}: offsets the group refused because it is rebalancing or moved the partitions
 *       ({@code RebalanceInProgressException}, {@code CommitFailedException}): the partitions are taken over again
 *       from what is committed, as the rebalance assigns them (the instance does not commit while its consumer
 *       rejoins the group, see {@link RebalanceTracker}, so a rebalance seldom causes it); and any other Kafka
 *       exception, {@code TransactionAbortableException} and
 *       {@code InvalidProducerEpochException} (a send with an epoch the broker has moved past) included: the
 *       transaction is aborted with the same producer and every partition taken over again. If the abort fails,
 *       its failure is classified in turn (after a second instance started, the abort is fenced).</li>
 * </ul>
 * Stateless; thread-safe.
 */
final class TransactionFailure
{
    /** The failed transactions in a row (no commit between them) that end the run. */
    static final int IN_A_ROW = 5;
    /** How often a new producer's {@code initTransactions} is tried when it times out (each blocks up to a minute). */
    static final int INIT_ATTEMPTS = 5;

    /** What to do about a failed transaction, from the mildest to the most severe. */
    enum Remedy
    {
        /** Abort the transaction with the same producer, then take every owned partition over again. */
        ABORT,
        /** Close the producer, open a new one (a new epoch) and take every owned partition over again. */
        RENEW,
        /** Another instance runs with the same transactional id: end the run. */
        FENCED,
        /** Nothing the instance does can help: end the run. */
        FATAL
    }

    private TransactionFailure()
    {
    }

    /**
     * @param failure          what a producer call threw (or a Kafka exception wrapping it).
     * @param outlivedTimeout  whether the open transaction began longer ago than the producer's
     *                         {@code transaction.timeout.ms}, so the broker may have aborted it.
     * @return the remedy.
     */
    static Remedy remedy(final Throwable failure, final boolean outlivedTimeout)
    {
        Remedy remedy = Remedy.ABORT;
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause())
        {
            final Remedy one = remedyOf(cause, outlivedTimeout);
            if (one.compareTo(remedy) > 0)
            {
                remedy = one;
            }
        }
        return remedy;
    }

    private static Remedy remedyOf(final Throwable cause, final boolean outlivedTimeout)
    {
        if (cause instanceof AuthorizationException || cause instanceof AuthenticationException
            || cause instanceof UnsupportedVersionException || cause instanceof InvalidConfigurationException)
        {
            return Remedy.FATAL;
        }
        if (cause instanceof ProducerFencedException)
        {
            return outlivedTimeout ? Remedy.RENEW : Remedy.FENCED;
        }
        if (cause instanceof RebalanceInProgressException || cause instanceof CommitFailedException)
        {
            return Remedy.ABORT;
        }
        if (cause instanceof OutOfOrderSequenceException || cause instanceof InvalidPidMappingException || cause instanceof InvalidTxnStateException
            || cause instanceof TimeoutException || cause instanceof IllegalStateException)
        {
            return Remedy.RENEW;
        }
        return Remedy.ABORT;
    }
}
