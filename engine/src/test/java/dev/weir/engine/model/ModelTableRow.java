package dev.weir.engine.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One version of a table's row, appended to the journal: valid from {@code validFrom} on, until a later
 * valid-from of its key. A tombstone removes the key from {@code validFrom} on. Immutable. Test-only; shares no
 * code with the engine.
 *
 * @param table     the table's name.
 * @param validFrom epoch ms, {@code >= 0}.
 * @param tombstone true: the key has no row from {@code validFrom} on (only the key columns of {@code values} count).
 * @param values    the value of every column by name: a String for a string column, a Long for a long or decimal
 *                  (unscaled) one.
 */
public record ModelTableRow(String table, long validFrom, boolean tombstone, Map<String, Object> values) implements JournalEntry
{
    public ModelTableRow
    {
        Objects.requireNonNull(table, "table");
        values = Map.copyOf(values);
        if (validFrom < 0)
        {
            throw new IllegalArgumentException("validFrom must be >= 0: " + validFrom);
        }
    }

    /**
     * @param t the row's table.
     * @return the values of its key columns, in key order.
     */
    public List<Object> key(final ModelTable t)
    {
        return t.key().stream().map(values::get).toList();
    }

    /**
     * @param t the row's table.
     * @return the row as a CSV line {@code event_time,COLUMNS...,op} (op: upsert or delete), for failure messages.
     */
    public String describe(final ModelTable t)
    {
        final StringBuilder sb = new StringBuilder(table).append('@').append(validFrom);
        for (final ModelTable.Column c : t.columns())
        {
            sb.append(',').append(values.get(c.name()));
        }
        return sb.append(tombstone ? ",delete" : ",upsert").toString();
    }
}
