package dev.weir.kafka;

import dev.weir.journal.schema.JournalSchema;

/**
 * How a source record's value holds its event: {@link #CSV} (one events CSV line) or {@link #JSON} (one JSON object
 * whose members are named as the columns). Either way the record's key must be the key column's text. Immutable.
 */
public enum RecordFormat
{
    /** The value is one events CSV line: event_id, event_time, then the columns ({@link RecordDecoder#csv}). */
    CSV,
    /** The value is one JSON object: members event_id, event_time and the columns, by name ({@link RecordDecoder#json}). */
    JSON;

    /**
     * @param schema    the events' columns.
     * @param keyColumn the index of the key column (a string or long column).
     * @return a new decoder of values of this format.
     */
    RecordDecoder decoder(final JournalSchema schema, final int keyColumn)
    {
        return this == CSV ? RecordDecoder.csv(schema, keyColumn) : RecordDecoder.json(schema, keyColumn);
    }
}
