package dev.weir.journal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The columns of a journal's events, fixed when the journal is created: {@code event_id} and
 * {@code event_time} always, then 1 to {@value #MAX_COLUMNS} named columns, each a
 * {@link ColumnType#STRING}, {@link ColumnType#LONG} or {@link ColumnType#DECIMAL} with its scale.
 * Its text form, parsed by {@link #parse(String)} and given back by {@link #toString()}, is the one of
 * {@code --columns}: {@code card:string,merchant:string,amount:decimal(2)}.
 * <p>
 * {@link #DEFAULT} ({@code key:string,value:long}) is the schema of every journal created without one,
 * and of those created before schemas existed. In it alone, the {@code key} column keeps the key rule of
 * {@link KeyFormat}; every other string column takes 1 to {@value #MAX_STRING_BYTES} bytes of UTF-8.
 * <p>
 * Immutable and thread-safe.
 */
public final class JournalSchema
{
    /** The most named columns a schema has. */
    public static final int MAX_COLUMNS = 32;
    /** The longest value of a string column, in UTF-8 bytes. */
    public static final int MAX_STRING_BYTES = 256;
    /** The largest scale of a decimal column. */
    public static final int MAX_SCALE = 18;

    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,63}");
    private static final Pattern COLUMN = Pattern.compile("([^:]*):(string|long|decimal\\((\\d{1,2})\\))");

    /** The schema of a journal created without one: {@code key:string,value:long}. */
    public static final JournalSchema DEFAULT = parse("key:string,value:long");

    /**
     * One named column.
     *
     * @param name  its name, {@code [a-z_][a-z0-9_]*}, at most 64 characters.
     * @param type  its type.
     * @param scale fraction digits of a decimal column, 0 for the others.
     */
    public record Column(String name, ColumnType type, int scale)
    {
        @Override
        public String toString()
        {
            return name + ":" + (type == ColumnType.DECIMAL ? "decimal(" + scale + ")" : type.name().toLowerCase());
        }
    }

    private final List<Column> columns;
    private final String text;

    private JournalSchema(final List<Column> columns)
    {
        this.columns = Collections.unmodifiableList(columns);
        final StringBuilder b = new StringBuilder();
        for (final Column c : columns)
        {
            b.append(b.length() == 0 ? "" : ",").append(c);
        }
        this.text = b.toString();
    }

    /**
     * @param spec the text form, e.g. {@code card:string,amount:decimal(2)}.
     * @return the schema.
     * @throws IllegalArgumentException with a one-line reason if the text is not a valid schema.
     */
    public static JournalSchema parse(final String spec)
    {
        if (spec == null || spec.isEmpty())
        {
            throw new IllegalArgumentException("no columns: give name:type pairs, e.g. card:string,amount:decimal(2)");
        }
        final String[] parts = spec.split(",", -1);
        if (parts.length > MAX_COLUMNS)
        {
            throw new IllegalArgumentException("more than " + MAX_COLUMNS + " columns: " + parts.length);
        }
        final List<Column> columns = new ArrayList<>(parts.length);
        final Set<String> names = new HashSet<>();
        for (final String part : parts)
        {
            final Matcher m = COLUMN.matcher(part);
            if (!m.matches())
            {
                throw new IllegalArgumentException("column '" + part + "' is not name:type with type string, long or decimal(N)");
            }
            final String name = m.group(1);
            if (!NAME.matcher(name).matches())
            {
                throw new IllegalArgumentException("column name '" + name + "' must match [a-z_][a-z0-9_]*, at most 64 characters");
            }
            if (name.equals("event_id") || name.equals("event_time"))
            {
                throw new IllegalArgumentException("column name '" + name + "' is reserved: every event has event_id and event_time");
            }
            if (!names.add(name))
            {
                throw new IllegalArgumentException("column '" + name + "' is named twice");
            }
            final ColumnType type;
            int scale = 0;
            if (m.group(3) != null)
            {
                type = ColumnType.DECIMAL;
                scale = Integer.parseInt(m.group(3));
                if (scale > MAX_SCALE)
                {
                    throw new IllegalArgumentException("column '" + name + "': decimal scale must be 0 to " + MAX_SCALE + ": " + scale);
                }
            }
            else
            {
                type = m.group(2).equals("string") ? ColumnType.STRING : ColumnType.LONG;
            }
            columns.add(new Column(name, type, scale));
        }
        return new JournalSchema(columns);
    }

    /** @return the named columns, in order. */
    public List<Column> columns()
    {
        return columns;
    }

    /** @return how many named columns there are. */
    public int size()
    {
        return columns.size();
    }

    /**
     * @param index a column index, 0 for the first named column.
     * @return the column.
     */
    public Column column(final int index)
    {
        return columns.get(index);
    }

    /**
     * @param name a column name.
     * @return its index, or -1 if there is no such column.
     */
    public int indexOf(final String name)
    {
        for (int i = 0; i < columns.size(); i++)
        {
            if (columns.get(i).name().equals(name))
            {
                return i;
            }
        }
        return -1;
    }

    /** @return true if this is {@link #DEFAULT}. */
    public boolean isDefault()
    {
        return this == DEFAULT || text.equals(DEFAULT.text);
    }

    /** @return the CSV header of an events file in this schema: {@code event_id,event_time,} then the column names. */
    public String csvHeader()
    {
        final StringBuilder b = new StringBuilder("event_id,event_time");
        for (final Column c : columns)
        {
            b.append(',').append(c.name());
        }
        return b.toString();
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof JournalSchema && ((JournalSchema)other).text.equals(text);
    }

    @Override
    public int hashCode()
    {
        return text.hashCode();
    }

    /** @return the text form, as {@link #parse(String)} reads it. */
    @Override
    public String toString()
    {
        return text;
    }
}
