package dev.weir.kafka;

import dev.weir.journal.EventJournal;

/**
 * Turns one Kafka record into one event of a partition's journal, or says why it cannot: the record's value is
 * a line in the pipeline's columns and its key must be the line's key column (windows per key are only correct
 * when the topic is partitioned by that key). The command line implements it with its CSV parser.
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
     * @return the journal offset of the event appended, or -1 if the record was refused ({@link #rejection()} says why).
     */
    long append(byte[] key, byte[] value, EventJournal journal);

    /**
     * @return why the last {@link #append} refused its record.
     */
    String rejection();
}
