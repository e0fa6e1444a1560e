package dev.weir.engine.delivery;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.codec.ResultKind;

/**
 * A target that a pipeline's outputs are delivered into (a PostgreSQL table, files, a Kafka topic), by tailing
 * the pipeline's output journal ({@link dev.weir.journal.OutputJournal}) from the position the target holds
 * durably.
 * <p>
 * The contract every implementation keeps:
 * <ul>
 * <li><b>Position and rows together.</b> {@link #deliver} reads the outputs after the output journal position
 * the target holds, writes them, and commits the rows and the new position in one step (a transaction, an atomic
 * replacement, a producer transaction). A delivery killed at any point resumes after the position committed
 * last, and delivering an output again changes nothing. So every output reaches the target exactly once.</li>
 * <li><b>No verification of its own.</b> The output journal holds each output once: outputs a recovery
 * regenerates are verified by the engine on the binary documents before they reach it. A sink never compares
 * what it reads with what it wrote.</li>
 * <li><b>Two kinds of failure.</b> A target that cannot be reached now (down, hanging past its timeouts) is
 * {@link DeliveryUnavailableException}: nothing is lost, the output journal keeps every output, and the next
 * call retries. Any other exception is a refusal (a target that does not match, or a position that is not this
 * journal's): retrying would not help, and continuous delivery stops.</li>
 * <li><b>Retention.</b> A sink registers the position it still needs in the pipeline's directory
 * ({@link dev.weir.journal.DeliveryPositions}) before it first reads, so retention keeps those outputs.</li>
 * </ul>
 * <p>
 * Threads: {@link #deliver} is called by one delivering thread at a time, which owns the sink's connection and
 * files. {@link #heldPosition()}, {@link #pendingResults} and {@link #abort()} may be called from any thread,
 * also while a delivery runs. The sink's creator closes it; a pipeline never does.
 */
public interface OutputSink
{
    /** {@link #heldPosition()} before the target was reached. */
    long UNKNOWN = -2;

    /**
     * Deliver every output the journal's output journal holds after the position the target holds, and commit
     * the rows with the new position. Called by the delivering thread only.
     *
     * @param journal the pipeline's journal (its output journal is read).
     * @throws DeliveryUnavailableException if the target cannot be reached or failed now; what was committed stays.
     * @throws RuntimeException             a refusal: the target does not match, or holds a position that is not this
     *                                      journal's.
     */
    void deliver(JournalDirectory journal);

    /**
     * @return the output journal position the target was last seen to hold (-1: nothing delivered), or
     *         {@link #UNKNOWN} before it was reached; any thread.
     */
    long heldPosition();

    /**
     * Count what is not delivered yet: the results after {@link #heldPosition()} (all of them while it is
     * unknown). Reads with its own cursor; any thread, even while a delivery runs.
     *
     * @param journal the pipeline's journal.
     * @return results not delivered: by default, {@link #resultsAfter} the held position.
     */
    default long pendingResults(final JournalDirectory journal)
    {
        return resultsAfter(journal, heldPosition());
    }

    /**
     * Make a delivery blocked on a target that hangs fail now (its uncommitted step is lost, what it committed
     * stays); any thread. The next {@link #deliver} connects again.
     */
    void abort();

    /**
     * Count the results (not update rows) a journal's output journal holds after a position, with a cursor of its
     * own: what {@link #pendingResults} tells for a sink that holds that position. Any thread.
     *
     * @param journal  the pipeline's journal.
     * @param position the position held, or {@link #UNKNOWN} or -1 to count every result.
     * @return results after it.
     */
    static long resultsAfter(final JournalDirectory journal, final long position)
    {
        final long[] results = {0};
        try (OutputJournal pending = OutputJournal.open(journal))
        {
            pending.seekAfter(Math.max(OutputJournal.NONE, position));
            while (pending.next(stored ->
            {
                if (stored.isResult() && stored.result().kind() != ResultKind.UPDATE)
                {
                    results[0]++;
                }
            }) != 0)
            {
                // counted
            }
        }
        return results[0];
    }
}
