package dev.weir.csv;

import java.nio.charset.StandardCharsets;

/**
 * The record key {@code weir produce} gives a line: the text of the line's key field (the field {@code 2 + } the key
 * column's index: after {@code event_id} and {@code event_time}), quotes undoubled as {@link CsvFields} reads it,
 * as UTF-8 bytes. A line whose key field cannot be found (not valid UTF-8, not splittable as CSV, or too few fields)
 * has no key (null): it is still sent, so that Weir rejects it with its partition and offset. Reusable, not
 * thread-safe.
 */
public final class KeyField
{
    private final int field;
    private final CsvFields fields = new CsvFields();

    /**
     * @param field the index of the key field in a line (0 is {@code event_id}).
     */
    public KeyField(final int field)
    {
        this.field = field;
    }

    /**
     * @param line a line without its terminator, or null if it is not valid UTF-8.
     * @return the key field's text as UTF-8, or null if it cannot be found.
     */
    public byte[] of(final String line)
    {
        if (line == null || fields.split(line, null) != null || fields.count() <= field)
        {
            return null;
        }
        return fields.text(field).getBytes(StandardCharsets.UTF_8);
    }
}
