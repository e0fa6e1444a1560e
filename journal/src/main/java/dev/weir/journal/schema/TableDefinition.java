package dev.weir.journal.schema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A reference table's definition: its name, its key columns (one or more), and its typed columns (key columns
 * included, in declared order), whose text form is the one of {@link JournalSchema#parse} (defaults allowed:
 * {@code limit:decimal(2)=0}). A journal's marker records each table as {@link #text()}; {@link #fromText} reads it
 * back. Two definitions are {@link #sameAs} when their name, key and columns (with defaults) are the same.
 * <p>
 * Immutable; thread-safe.
 *
 * @param name    the table's name, {@code [a-z_][a-z0-9_]{0,63}}.
 * @param key     the names of its key columns, in key order.
 * @param columns its columns, the key columns among them.
 */
public record TableDefinition(String name, List<String> key, JournalSchema columns)
{
    /** The most tables a journal holds. */
    public static final int MAX_TABLES = 64;

    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,63}");
    private static final String KEY_PART = " key=";
    private static final String COLUMNS_PART = " columns=";

    /**
     * @param name    the table's name.
     * @param key     the names of its key columns.
     * @param columns its columns.
     */
    public TableDefinition
    {
        key = List.copyOf(key);
    }

    /**
     * @param name    the table's name: {@code [a-z_][a-z0-9_]{0,63}}.
     * @param key     its key: comma-separated column names, each a column of {@code columns}, no repeats.
     * @param columns its columns, in {@link JournalSchema#parse} syntax (defaults allowed).
     * @return the definition.
     * @throws IllegalArgumentException with a one-line message naming the problem.
     */
    public static TableDefinition parse(final String name, final String key, final String columns)
    {
        if (name == null || !NAME.matcher(name).matches())
        {
            throw new IllegalArgumentException("table name '" + name + "' must match [a-z_][a-z0-9_]*, at most 64 characters");
        }
        final JournalSchema schema;
        try
        {
            schema = JournalSchema.parse(columns);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("table " + name + ": " + ex.getMessage(), ex);
        }
        if (key == null || key.isEmpty())
        {
            throw new IllegalArgumentException("table " + name + ": no key: give one or more of its columns, e.g. " + schema.column(0).name());
        }
        final List<String> names = new ArrayList<>();
        final Set<String> seen = new HashSet<>();
        for (final String part : key.split(",", -1))
        {
            if (schema.indexOf(part) < 0)
            {
                throw new IllegalArgumentException("table " + name + ": key column '" + part + "' is not one of its columns " + schema);
            }
            if (!seen.add(part))
            {
                throw new IllegalArgumentException("table " + name + ": key column '" + part + "' is named twice");
            }
            names.add(part);
        }
        return new TableDefinition(name, names, schema);
    }

    /**
     * @param i the position of a key column in the key, 0 to {@link #keySize()} - 1.
     * @return its index in {@link #columns()}.
     */
    public int keyColumn(final int i)
    {
        return columns.indexOf(key.get(i));
    }

    /** @return the number of key columns. */
    public int keySize()
    {
        return key.size();
    }

    /**
     * @param column an index in {@link #columns()}.
     * @return true if it is a key column.
     */
    public boolean isKey(final int column)
    {
        return key.contains(columns.column(column).name());
    }

    /** @return the marker line's text after {@code table=}: {@code NAME key=K1,K2 columns=SPEC}. */
    public String text()
    {
        return name + KEY_PART + String.join(",", key) + COLUMNS_PART + columns;
    }

    /**
     * @param text a definition's {@link #text()}.
     * @return the definition.
     * @throws IllegalArgumentException if it is not one.
     */
    public static TableDefinition fromText(final String text)
    {
        final int key = text.indexOf(KEY_PART);
        final int columns = text.indexOf(COLUMNS_PART);
        if (key < 0 || columns < key)
        {
            throw new IllegalArgumentException("'" + text + "' is not NAME key=K1,K2 columns=SPEC");
        }
        return parse(text.substring(0, key), text.substring(key + KEY_PART.length(), columns),
            text.substring(columns + COLUMNS_PART.length()));
    }

    /**
     * @param other another definition.
     * @return true if both have the same name, key and columns (defaults included).
     */
    public boolean sameAs(final TableDefinition other)
    {
        return name.equals(other.name) && key.equals(other.key) && columns.toString().equals(other.columns.toString());
    }

    @Override
    public String toString()
    {
        return text();
    }
}
