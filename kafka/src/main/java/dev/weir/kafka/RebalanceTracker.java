package dev.weir.kafka;

import java.time.Duration;

/**
 * Whether the instance's consumer is rejoining its group, and so whether a transaction may commit now. From the
 * moment the consumer asks to join (the assignor is asked for its subscription) until it learns its new assignment
 * (the assignor is told it), the group may move to a new generation that the consumer's group metadata does not
 * know yet: offsets sent into a transaction with the old generation are refused ({@code CommitFailedException}),
 * and the only safe answer to that is to abort the transaction and take every owned partition over again. So the
 * periodic commit waits while a join is under way, as Kafka Streams does; the group's callbacks commit with the
 * new generation. A transaction left open that long could outlive its timeout (the broker would abort it), so once
 * it is half as old as the timeout it commits anyway: the group is then most likely still waiting for a slow member
 * to join, with the old generation, which accepts it.
 * <p>
 * Thread-safety: written by the assignor inside the consumer's {@code poll} and read by the instance's Kafka thread,
 * the same thread for the classic consumer; volatile, so a reader on another thread sees the latest state.
 */
final class RebalanceTracker
{
    private final long patienceNanos;
    private volatile boolean joining;

    /**
     * @param transactionTimeout the producer's {@code transaction.timeout.ms}: a transaction waits for a join to
     *                           end until it is half as old.
     */
    RebalanceTracker(final Duration transactionTimeout)
    {
        this.patienceNanos = transactionTimeout.toNanos() / 2;
    }

    /** The consumer asks to join the group: a rebalance is under way. */
    void joinBegins()
    {
        joining = true;
    }

    /** The consumer learnt its assignment and the group's new generation. */
    void joinEnds()
    {
        joining = false;
    }

    /**
     * @return true from {@link #joinBegins()} until {@link #joinEnds()}.
     */
    boolean joining()
    {
        return joining;
    }

    /**
     * @param transactionAgeNanos how long the open transaction has had something in it, ns.
     * @return true if the periodic commit should wait: a join is under way and the transaction is not yet half as
     *         old as its timeout.
     */
    boolean defersCommit(final long transactionAgeNanos)
    {
        return joining && transactionAgeNanos < patienceNanos;
    }
}
