package dev.weir.kafka;

import dev.weir.journal.schema.JournalSchema;

/**
 * How a source record's value holds its event: {@link #CSV} (one events CSV line) or {@link #JSON} (one JSON object
 * whose members are named as the columns). Either way the record's key must be the key's text (the key columns' texts joined by commas,
 * as {@link dev.weir.csv.CsvRecordDecoder} has it). Immutable.
 */
public enum RecordFormat
{
    /** The value is one events CSV line: event_id, event_time, then the columns ({@link RecordDecoder#csv}). */
    CSV,
    /** The value is one JSON object: members event_id, event_time and the columns, by name ({@link RecordDecoder#json}). */
    JSON;

    /**
     * @param schema     the events' columns.
     * @param keyColumns the indexes of the key columns, in key order (one or more).
     * @return a new decoder of values of this format.
     */
    RecordDecoder decoder(final JournalSchema schema, final int[] keyColumns)
    {
        return this == CSV ? RecordDecoder.csv(schema, keyColumns) : RecordDecoder.json(schema, keyColumns);
    }
}
