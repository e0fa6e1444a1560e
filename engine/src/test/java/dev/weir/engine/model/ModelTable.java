package dev.weir.engine.model;

import java.util.List;
import java.util.Objects;

/**
 * A reference table as the as-of join model sees it: a name, its key columns, its typed columns (key columns
 * included, in declared order) with their defaults. Immutable. Test-only; shares no code with the engine.
 *
 * @param name    the table's name, which qualifies its columns in expressions ({@code cards.home}).
 * @param key     the key columns' names, in key order.
 * @param columns every column, in declared order.
 */
public record ModelTable(String name, List<String> key, List<ModelTable.Column> columns)
{
    /**
     * One column of a table.
     *
     * @param name         its name.
     * @param type         {@code string}, {@code long} or {@code decimal(S)}.
     * @param defaultValue what a missing row reads under join-missing keep: a String or a Long (a decimal's unscaled long).
     * @param defaultText  the default as the column spec declares it, or null for none (then 0 or "").
     */
    public record Column(String name, String type, Object defaultValue, String defaultText)
    {
        /** @return true for a string column. */
        public boolean isString()
        {
            return type.equals("string");
        }
    }

    public ModelTable
    {
        Objects.requireNonNull(name, "name");
        key = List.copyOf(key);
        columns = List.copyOf(columns);
    }

    /**
     * @param name the column's name.
     * @return the column.
     */
    public Column column(final String name)
    {
        for (final Column c : columns)
        {
            if (c.name().equals(name))
            {
                return c;
            }
        }
        throw new IllegalArgumentException("table " + this.name + " has no column " + name);
    }

    /** @return the key as {@code TableDefinition.parse} takes it: {@code k1,k2}. */
    public String keyText()
    {
        return String.join(",", key);
    }

    /** @return the columns as {@code TableDefinition.parse} takes them: {@code name:type[=default],...}. */
    public String columnsText()
    {
        final StringBuilder sb = new StringBuilder();
        for (final Column c : columns)
        {
            if (sb.length() > 0)
            {
                sb.append(',');
            }
            sb.append(c.name()).append(':').append(c.type());
            if (c.defaultText() != null)
            {
                sb.append('=').append(c.defaultText());
            }
        }
        return sb.toString();
    }
}
