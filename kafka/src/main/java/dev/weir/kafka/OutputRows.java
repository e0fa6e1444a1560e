package dev.weir.kafka;

import dev.weir.files.RowColumns;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.codec.OutputDecoder;

/**
 * The text of the outputs a partition's pipeline writes, as they go to the output topic: a result as a results
 * CSV row, a late event as a late-events CSV row, each with its key's text as the record key. {@link #csv(RowColumns)}
 * gives the rows the files sink writes, so a consumer of the topic reads what {@code --results} writes.
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
     * @param columns the pipeline's key, value and aggregations.
     * @return rows as the files sink writes them: a result as its results CSV row, a late event as its
     *         late-events CSV row, keyed by the key's text (what {@code weir run --kafka} produces).
     */
    static Factory csv(final RowColumns columns)
    {
        return directory -> new CsvOutputRows(columns, directory);
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

    /** Let go of the journal cycles the rows' reads have passed (retention removes them); called between shipments. */
    default void releasePassedCycles()
    {
    }

    /** Release what the rows opened. */
    @Override
    void close();
}
