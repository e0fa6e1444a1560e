package dev.weir.kafka;

import dev.weir.csv.CsvRecordDecoder;
import dev.weir.csv.JsonRecordDecoder;
import dev.weir.journal.EventJournal;
import dev.weir.journal.schema.JournalSchema;

/**
 * Turns one Kafka record into one event of a partition's journal, or says why it cannot: the record's value is
 * a line in the pipeline's columns and its key must be the line's key: its key columns' texts joined by commas
 * as the result rows print the key ({@link CsvRecordDecoder}; windows per key are only correct when the topic is
 * partitioned by that key). {@link #csv(JournalSchema, int[])} reads the value as an events CSV line,
 * {@link #json(JournalSchema, int[])} as a JSON object.
 * <p>
 * Not thread-safe: one per partition, used by the instance's Kafka thread only.
 */
public interface RecordDecoder
{
    /**
     * Parse a record and append it to the journal as an event.
     *
     * @param key     the record's key, or null.
     * @param value   the record's value, or null.
     * @param journal the partition's journal (owned by the calling thread).
     * @return the journal offset of the event appended (or, if {@link #batches()}, its slot in the journal's batch),
     *         or -1 if the record was refused ({@link #rejection()} says why).
     */
    long append(byte[] key, byte[] value, EventJournal journal);

    /**
     * @return true if {@link #append} adds each event to the journal's batch ({@link EventJournal#batch()}), where
     *         the partition writes it as part of one document after each poll; false (the default) if it appends
     *         each event at once and returns its offset.
     */
    default boolean batches()
    {
        return false;
    }

    /**
     * @return why the last {@link #append} refused its record.
     */
    String rejection();

    /**
     * @param schema    the events' columns.
     * @param keyColumn the index of the key column (a string, long or decimal column).
     * @return a decoder of values that are events CSV lines, as {@code weir ingest} reads them, with the reasons it
     *         gives ({@link CsvRecordDecoder}); what {@code weir run --kafka} uses.
     */
    static RecordDecoder csv(final JournalSchema schema, final int keyColumn)
    {
        return csv(schema, new int[] {keyColumn});
    }

    /**
     * @param schema     the events' columns.
     * @param keyColumns the indexes of the key columns, in key order (one or more).
     * @return a decoder of values that are events CSV lines, as {@code weir ingest} reads them, with the reasons it
     *         gives ({@link CsvRecordDecoder}); what {@code weir run --kafka} uses.
     */
    static RecordDecoder csv(final JournalSchema schema, final int[] keyColumns)
    {
        final CsvRecordDecoder csv = new CsvRecordDecoder(schema, keyColumns);
        return new RecordDecoder()
        {
            @Override
            public long append(final byte[] key, final byte[] value, final EventJournal journal)
            {
                return csv.append(key, value, journal);
            }

            @Override
            public String rejection()
            {
                return csv.rejection();
            }

            @Override
            public boolean batches()
            {
                return true;
            }
        };
    }

    /**
     * @param schema    the events' columns.
     * @param keyColumn the index of the key column (a string, long or decimal column).
     * @return a decoder of values that are JSON objects whose members are named as the columns, with event_id and
     *         event_time ({@link JsonRecordDecoder}); what {@code weir run --kafka --record-format json} uses.
     */
    static RecordDecoder json(final JournalSchema schema, final int keyColumn)
    {
        return json(schema, new int[] {keyColumn});
    }

    /**
     * @param schema     the events' columns.
     * @param keyColumns the indexes of the key columns, in key order (one or more).
     * @return a decoder of values that are JSON objects whose members are named as the columns, with event_id and
     *         event_time ({@link JsonRecordDecoder}); what {@code weir run --kafka --record-format json} uses.
     */
    static RecordDecoder json(final JournalSchema schema, final int[] keyColumns)
    {
        final JsonRecordDecoder json = new JsonRecordDecoder(schema, keyColumns);
        return new RecordDecoder()
        {
            @Override
            public long append(final byte[] key, final byte[] value, final EventJournal journal)
            {
                return json.append(key, value, journal);
            }

            @Override
            public String rejection()
            {
                return json.rejection();
            }

            @Override
            public boolean batches()
            {
                return true;
            }
        };
    }
}
