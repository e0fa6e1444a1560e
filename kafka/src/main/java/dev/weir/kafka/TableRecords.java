package dev.weir.kafka;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The records of the source topic that hold reference-table rows rather than events. Such a record carries the
 * header {@value #HEADER}, whose value is the table's name (UTF-8); its value is one table CSV line: {@code event_time},
 * the table's columns in order, then {@code op} ({@code upsert}, {@code delete} or empty), as {@code weir ingest --table}
 * reads a file's lines. Its key is not read.
 * <p>
 * A row applies to the events after it in its partition, as a row appended to a local journal applies to the events
 * appended after it: so a takeover and a replay join every event to the same row. A row meant for every key goes to
 * every partition ({@code weir produce --table}).
 * <p>
 * Thread-safe: constants and pure functions.
 */
public final class TableRecords
{
    /** The header that marks a record as a row of the table it names. */
    public static final String HEADER = "weir-table";

    private TableRecords()
    {
    }

    /**
     * @param headers a record's headers.
     * @return the name of the table the record is a row of, or null if it is an event.
     */
    public static String table(final Headers headers)
    {
        final Header header = headers.lastHeader(HEADER);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
