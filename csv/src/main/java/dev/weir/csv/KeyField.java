package dev.weir.csv;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * The record key {@code weir produce} gives a line: the text of the line's key field (the field {@code 2 + } the key
 * column's index: after {@code event_id} and {@code event_time}), quotes undoubled as {@link CsvFields} reads it,
 * as UTF-8 bytes. With several key fields ({@link #KeyField(int[], int[])}), their texts joined by commas in key
 * order, a text holding a comma, quote or line break quoted as RFC 4180 has it; a decimal field's text is its value
 * at its column's scale ({@code 12.5} at scale 2 is {@code 12.50}), as {@link CsvRecordDecoder} checks it. A line whose key field cannot be found (not valid UTF-8, not splittable as CSV, or too few fields)
 * has no key (null): it is still sent, so that Weir rejects it with its partition and offset. Reusable, not
 * thread-safe.
 */
public final class KeyField
{
    private final int[] keyFields;
    /** By key field: the scale of its decimal column, or -1 for a field sent as it is written. */
    private final int[] scales;
    private final CsvFields fields = new CsvFields();

    /**
     * @param field the index of the key field in a line (0 is {@code event_id}).
     */
    public KeyField(final int field)
    {
        this(new int[] {field}, new int[] {-1});
    }

    /**
     * @param keyFields the indexes of the key fields in a line (0 is {@code event_id}), in key order (one or more).
     * @param scales    by key field: its decimal column's scale, or -1 if it is not a decimal.
     * @throws IllegalArgumentException if there is no key field or the arrays differ in length.
     */
    public KeyField(final int[] keyFields, final int[] scales)
    {
        if (keyFields.length == 0 || keyFields.length != scales.length)
        {
            throw new IllegalArgumentException("one scale per key field, and at least one key field");
        }
        this.keyFields = keyFields.clone();
        this.scales = scales.clone();
    }

    /**
     * @param line a line without its terminator, or null if it is not valid UTF-8.
     * @return the key field's text as UTF-8, or null if it cannot be found.
     */
    public byte[] of(final String line)
    {
        if (line == null || fields.split(line, null) != null)
        {
            return null;
        }
        for (final int field : keyFields)
        {
            if (fields.count() <= field)
            {
                return null;
            }
        }
        if (keyFields.length == 1 && scales[0] < 0)
        {
            return fields.text(keyFields[0]).getBytes(StandardCharsets.UTF_8);
        }
        final StringBuilder key = new StringBuilder();
        for (int k = 0; k < keyFields.length; k++)
        {
            final String text = scaled(fields.text(keyFields[k]), scales[k]);
            if (k > 0)
            {
                key.append(',');
            }
            if (keyFields.length > 1 && (text.indexOf(',') >= 0 || text.indexOf('"') >= 0 || text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0))
            {
                key.append('"').append(text.replace("\"", "\"\"")).append('"');
            }
            else
            {
                key.append(text);
            }
        }
        return key.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** @return a decimal's text at its scale, or the text as it is if it is no decimal of that scale. */
    private static String scaled(final String text, final int scale)
    {
        if (scale < 0)
        {
            return text;
        }
        try
        {
            return new BigDecimal(text).setScale(scale).toPlainString();
        }
        catch (final NumberFormatException | ArithmeticException notADecimal)
        {
            return text; // sent as it is: Weir rejects the line with its reason
        }
    }
}
