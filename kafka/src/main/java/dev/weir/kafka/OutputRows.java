package dev.weir.kafka;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputDecoder;

/**
 * The text of the outputs a partition's pipeline writes, as they go to the output topic: a result as a results
 * CSV row, a late event as a late-events CSV row, each with its key's text as the record key. The command line
 * implements it with the rows its files hold, so a consumer of the topic reads what {@code --results} writes.
 * <p>
 * Not thread-safe: one per partition, used by the instance's Kafka thread only.
 */
public interface OutputRows extends AutoCloseable
{
    /**
     * Opens the rows of one partition's journal.
     */
    @FunctionalInterface
    interface Factory
    {
        /**
         * @param pipeline the pipeline's journal directory (as {@link JournalDirectory#pipeline(String)} gives it).
         * @return its rows, resolving key ids through that journal's dictionaries.
         */
        OutputRows open(JournalDirectory pipeline);
    }

    /**
     * @param output a result or late event, as read from the output journal (valid during the call only).
     * @return the record key: the text of its key.
     */
    String key(OutputDecoder output);

    /**
     * @param output a result or late event, as read from the output journal (valid during the call only).
     * @return the record value: its CSV row, without a line end.
     */
    String value(OutputDecoder output);

    /** Release what the rows opened. */
    @Override
    void close();
}
