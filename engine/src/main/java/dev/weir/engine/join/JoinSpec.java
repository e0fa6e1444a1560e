package dev.weir.engine.join;

import java.util.List;

import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;

/**
 * One {@code --join} resolved against a journal: the table (its index and definition) and, per key column of the
 * table, the event column that holds the event's key. Immutable; thread-safe.
 *
 * @param table        the table's index in the journal's tables.
 * @param definition   the table's definition.
 * @param eventColumns per key column of the table, in key order, the event column's index.
 */
public record JoinSpec(int table, TableDefinition definition, int[] eventColumns)
{
    /**
     * Resolve a join.
     *
     * @param tables      the journal's tables, in definition order.
     * @param events      the events' columns.
     * @param name        the table's name.
     * @param keyColumns  the event columns for the table's key columns: empty for the columns named like the key's;
     *                    each an event column, in key order; or each {@code TCOL=ECOL}, a key column and its event
     *                    column, in any order (key columns not named are read from the event column of their name).
     * @return the join.
     * @throws IllegalArgumentException with a one-line message: no such table, a wrong number of key columns, an
     *                                  event column missing, or of another type than its key column.
     */
    public static JoinSpec resolve(final List<TableDefinition> tables, final JournalSchema events, final String name, final List<String> keyColumns)
    {
        final int index = JoinedColumns.table(tables, name);
        final TableDefinition definition = tables.get(index);
        final List<String> key = definition.key();
        if (!keyColumns.isEmpty() && keyColumns.get(0).contains("="))
        {
            return resolve(tables, events, name, byKeyOrder(name, key, keyColumns));
        }
        if (!keyColumns.isEmpty() && keyColumns.size() != key.size())
        {
            throw new IllegalArgumentException("--join " + name + ": the table's key is " + String.join(",", key) + " (" + key.size()
                + " columns), but " + keyColumns.size() + " event columns were given");
        }
        final int[] columns = new int[key.size()];
        for (int k = 0; k < columns.length; k++)
        {
            final String eventColumn = keyColumns.isEmpty() ? key.get(k) : keyColumns.get(k);
            columns[k] = events.indexOf(eventColumn);
            if (columns[k] < 0)
            {
                throw new IllegalArgumentException("--join " + name + ": the events have no column " + eventColumn + " for the table's key column "
                    + key.get(k) + " (name it: --join " + name + ":" + key.get(k) + "=COLUMN); the events' columns are " + events);
            }
            final JournalSchema.Column event = events.column(columns[k]);
            final JournalSchema.Column table = definition.columns().column(definition.keyColumn(k));
            if (event.type() != table.type() || (event.type() == ColumnType.DECIMAL && event.scale() != table.scale()))
            {
                throw new IllegalArgumentException("--join " + name + ": the event column " + eventColumn + " is " + typeName(event)
                    + " but the table's key column " + key.get(k) + " is " + typeName(table) + ": a key joins only a column of the same type");
            }
        }
        return new JoinSpec(index, definition, columns);
    }

    /** The event columns of {@code TCOL=ECOL} pairs, in key order; a key column not named reads its namesake. */
    private static List<String> byKeyOrder(final String name, final List<String> key, final List<String> pairs)
    {
        final String[] columns = key.toArray(new String[0]);
        final boolean[] named = new boolean[columns.length];
        for (final String pair : pairs)
        {
            final int eq = pair.indexOf('=');
            final int k = eq < 0 ? -1 : key.indexOf(pair.substring(0, eq));
            if (k < 0)
            {
                throw new IllegalArgumentException("--join " + name + ": " + pair + " does not name a key column of the table as TCOL=ECOL"
                    + " (its key: " + String.join(",", key) + ")");
            }
            if (named[k])
            {
                throw new IllegalArgumentException("--join " + name + ": the key column " + key.get(k) + " is named twice");
            }
            named[k] = true;
            columns[k] = pair.substring(eq + 1);
        }
        return List.of(columns);
    }

    /** @return the text a configuration string records: {@code NAME(TCOL=ECOL,...)}, with the event columns' names. */
    public String describe(final JournalSchema events)
    {
        final StringBuilder text = new StringBuilder(definition.name()).append('(');
        for (int k = 0; k < eventColumns.length; k++)
        {
            text.append(k == 0 ? "" : ",").append(definition.key().get(k)).append('=').append(events.column(eventColumns[k]).name());
        }
        return text.append(')').toString();
    }

    private static String typeName(final JournalSchema.Column column)
    {
        return column.type() == ColumnType.DECIMAL ? "decimal(" + column.scale() + ")" : column.type().name().toLowerCase(java.util.Locale.ROOT);
    }
}
