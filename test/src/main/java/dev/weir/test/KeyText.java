package dev.weir.test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.expr.ColumnProjection;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.KeyTuples;
import dev.weir.journal.schema.JournalSchema;

/**
 * The text of a result's key id, one value per key column: a string column's value from the driver's
 * dictionary, a long column's digits, a decimal column's value at its scale; joined as the CLI's CSV result
 * rows print a key.
 * <p>
 * Not thread-safe: the driver's.
 */
final class KeyText
{
    private final JournalSchema schema;
    private final int[] columns;
    private final TestStrings strings;
    private final KeyTuples tuples;

    /**
     * @param projection the pipeline's key and value columns.
     * @param strings    the driver's dictionaries.
     * @param tuples     the run's key tuples, or null if key ids are the one string key column's ids.
     */
    KeyText(final ColumnProjection projection, final TestStrings strings, final KeyTuples tuples)
    {
        this.schema = projection.schema();
        this.columns = projection.keyColumns();
        this.strings = strings;
        this.tuples = tuples;
    }

    /**
     * @param keyId a key id from a result or late event.
     * @return its values, in key order.
     */
    List<String> values(final int keyId)
    {
        final List<String> values = new ArrayList<>(columns.length);
        for (int i = 0; i < columns.length; i++)
        {
            values.add(value(keyId, i));
        }
        return values;
    }

    private String value(final int keyId, final int index)
    {
        if (tuples == null)
        {
            return strings.text(columns[0], keyId);
        }
        final long component = tuples.component(keyId, index);
        final JournalSchema.Column column = schema.column(columns[index]);
        if (column.type() == ColumnType.STRING)
        {
            return strings.text(columns[index], (int)component);
        }
        return column.scale() == 0 ? Long.toString(component) : BigDecimal.valueOf(component, column.scale()).toPlainString();
    }

    /**
     * @param values a key's values.
     * @return them joined by commas, each quoted as RFC 4180 has it if it holds a comma, quote or line break:
     *         the key fields of the CLI's CSV result row.
     */
    static String join(final List<String> values)
    {
        final StringBuilder b = new StringBuilder();
        for (int i = 0; i < values.size(); i++)
        {
            final String v = values.get(i);
            boolean quote = false;
            for (int c = 0; c < v.length() && !quote; c++)
            {
                final char ch = v.charAt(c);
                quote = ch == ',' || ch == '"' || ch == '\n' || ch == '\r';
            }
            b.append(i == 0 ? "" : ",").append(quote ? '"' + v.replace("\"", "\"\"") + '"' : v);
        }
        return b.toString();
    }
}
