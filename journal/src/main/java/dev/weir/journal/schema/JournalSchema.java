package dev.weir.journal.schema;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The columns of a journal's events: {@code event_id} and {@code event_time} always, then 1 to
 * {@value #MAX_COLUMNS} named columns, each a {@link ColumnType#STRING}, {@link ColumnType#LONG} or
 * {@link ColumnType#DECIMAL} with its scale. Its text form, parsed by {@link #parse(String)} and given back by
 * {@link #toString()}, is the one of {@code --columns}: {@code card:string,merchant:string,amount:decimal(2)}.
 * <p>
 * <b>Added columns.</b> A journal's columns are those it was created with (generation 1), followed by the
 * columns added since, each with a default ({@code channel:string=web}, {@code fee:decimal(2)=0}): a journal
 * gains columns only at the end, several at a time (one generation each), and each earlier event reads an
 * added column's default. {@link #extend} checks that a schema only adds columns to another; removing,
 * renaming, reordering or retyping a column, or adding one without a default, is refused. A default is
 * parsed and checked as a field of its column would be ({@link FieldParser}); a string default cannot
 * contain {@code ,} (which separates columns). A default means something only on an added column: a journal
 * created with a schema keeps no default (every event carries every column it was created with), so
 * {@link dev.weir.journal.JournalDirectory#create} drops the defaults it is given. {@link #generation()} and
 * {@link #generationOf(int)} tell which generation added each column; a schema parsed from text is all of
 * generation 1 (only {@link #extend} makes later generations). Equality compares the text form only.
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
    private static final Pattern COLUMN = Pattern.compile("([^:]*):(string|long|decimal\\((\\d{1,2})\\))(?:=(.*))?", Pattern.DOTALL);

    /** The schema of a journal created without one: {@code key:string,value:long}. */
    public static final JournalSchema DEFAULT = parse("key:string,value:long");

    /**
     * One named column.
     *
     * @param name  its name, {@code [a-z_][a-z0-9_]*}, at most 64 characters.
     * @param type  its type.
     * @param scale fraction digits of a decimal column, 0 for the others.
     * @param defaultValue the canonical text of the value earlier events read in a column added to a journal
     *              (a long's digits, a decimal's with exactly {@code scale} fraction digits, a string as it is),
     *              or null if it has none.
     */
    public record Column(String name, ColumnType type, int scale, String defaultValue)
    {
        /**
         * A column without a default.
         *
         * @param name  its name.
         * @param type  its type.
         * @param scale fraction digits of a decimal column, 0 for the others.
         */
        public Column(final String name, final ColumnType type, final int scale)
        {
            this(name, type, scale, null);
        }

        /** @return true if it has a default. */
        public boolean hasDefault()
        {
            return defaultValue != null;
        }

        /**
         * @return the default of a long or decimal column as a field value (a decimal's unscaled long).
         * @throws IllegalStateException if it has none or is a string column.
         */
        public long defaultLong()
        {
            if (defaultValue == null || type == ColumnType.STRING)
            {
                throw new IllegalStateException("column " + name + " has no numeric default");
            }
            return type == ColumnType.LONG ? Long.parseLong(defaultValue)
                : new java.math.BigDecimal(defaultValue).movePointRight(scale).longValueExact();
        }

        /** @return the same column without its default. */
        Column withoutDefault()
        {
            return defaultValue == null ? this : new Column(name, type, scale);
        }

        /** @return true if it has the same name, type and scale as {@code other}, whatever their defaults. */
        boolean sameAs(final Column other)
        {
            return name.equals(other.name) && type == other.type && scale == other.scale;
        }

        /** @return its text form without the default: {@code name:type}. */
        String declaration()
        {
            return name + ":" + (type == ColumnType.DECIMAL ? "decimal(" + scale + ")" : type.name().toLowerCase());
        }

        @Override
        public String toString()
        {
            return defaultValue == null ? declaration() : declaration() + "=" + defaultValue;
        }
    }

    private final List<Column> columns;
    /** Per column, the generation that added it: 1 for the columns the journal was created with. */
    private final int[] generations;
    private final String text;

    private JournalSchema(final List<Column> columns)
    {
        this(columns, new int[columns.size()]);
        java.util.Arrays.fill(generations, 1);
    }

    private JournalSchema(final List<Column> columns, final int[] generations)
    {
        this.columns = Collections.unmodifiableList(columns);
        this.generations = generations;
        final StringBuilder b = new StringBuilder();
        for (final Column c : columns)
        {
            b.append(b.length() == 0 ? "" : ",").append(c);
        }
        this.text = b.toString();
    }

    /**
     * @param spec the text form, e.g. {@code card:string,amount:decimal(2)}, with a default after {@code =} on
     *             the columns to add to a journal, e.g. {@code channel:string=web}.
     * @return the schema, every column of generation 1.
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
                final Column previous = columns.isEmpty() ? null : columns.get(columns.size() - 1);
                if (previous != null && previous.type() == ColumnType.STRING && previous.hasDefault() && !part.contains(":"))
                {
                    throw new IllegalArgumentException("column '" + previous.name() + "': a string default cannot contain ','"
                        + " (it separates columns)");
                }
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
            columns.add(new Column(name, type, scale, m.group(4) == null ? null : parseDefault(new Column(name, type, scale), m.group(4))));
        }
        return new JournalSchema(columns);
    }

    /**
     * @return the canonical text of a default, checked as a field of the column.
     * @throws IllegalArgumentException if it is not a valid value of the column.
     */
    private static String parseDefault(final Column column, final String text)
    {
        final FieldParser fields = new FieldParser(new JournalSchema(List.of(column)));
        if (column.type() == ColumnType.STRING)
        {
            final String why = text.isEmpty() ? "empty string in column " + column.name() + " (a string is 1 to " + MAX_STRING_BYTES
                + " bytes: write name:string=VALUE)" : fields.checkString(0, text);
            if (why != null)
            {
                throw new IllegalArgumentException("column '" + column.name() + "': its default is not valid: " + why);
            }
            return text;
        }
        if (!fields.parseNumber(0, text, 0, text.length()))
        {
            throw new IllegalArgumentException("column '" + column.name() + "': its default is not valid: " + fields.whyNotNumber(0, text));
        }
        return column.type() == ColumnType.LONG
            ? Long.toString(fields.number())
            : java.math.BigDecimal.valueOf(fields.number(), column.scale()).toPlainString();
    }

    /**
     * Check that {@code next} is this schema followed by one or more columns, each with a default, and give the
     * schema of a journal that gains them: this one's columns and generations, then the new columns as
     * generation {@link #generation()} + 1. A default {@code next} gives a column this schema has already is
     * ignored on a column of generation 1 (which has none) and must equal the recorded one on an added column.
     *
     * @param next the columns wanted.
     * @return the extended schema.
     * @throws IllegalArgumentException naming the column and the rule if {@code next} removes, renames,
     *                                  reorders or retypes a column, changes a default, adds a column without
     *                                  a default, or adds none.
     */
    public JournalSchema extend(final JournalSchema next)
    {
        checkSameColumns(next, Math.min(size(), next.size()));
        if (next.size() < size())
        {
            throw new IllegalArgumentException("column '" + columns.get(next.size()).name() + "' is missing from " + next
                + ": a journal's columns cannot be removed (its columns are " + this + ")");
        }
        if (next.size() == size())
        {
            throw new IllegalArgumentException("no column to add: the journal's columns are " + this);
        }
        final List<Column> all = new ArrayList<>(columns);
        final int[] gens = java.util.Arrays.copyOf(generations, next.size());
        for (int i = size(); i < next.size(); i++)
        {
            final Column added = next.column(i);
            if (indexOf(added.name()) >= 0)
            {
                throw new IllegalArgumentException("column '" + added.name() + "' is already column " + (indexOf(added.name()) + 1)
                    + " of the journal: columns cannot be reordered (its columns are " + this + ")");
            }
            if (!added.hasDefault())
            {
                throw new IllegalArgumentException("column '" + added.name() + "' is added without a default: write "
                    + added.declaration() + "=VALUE, the value the journal's earlier events read");
            }
            all.add(added);
            gens[i] = generation() + 1;
        }
        return new JournalSchema(all, gens);
    }

    /**
     * @param next the columns wanted.
     * @return true if {@code next} has exactly this schema's columns (defaults as {@link #extend} reads them).
     * @throws IllegalArgumentException as {@link #extend} does if a column of this schema differs in {@code next}.
     */
    public boolean sameColumns(final JournalSchema next)
    {
        checkSameColumns(next, Math.min(size(), next.size()));
        return next.size() == size();
    }

    private void checkSameColumns(final JournalSchema next, final int common)
    {
        for (int i = 0; i < common; i++)
        {
            final Column have = columns.get(i);
            final Column want = next.column(i);
            if (!have.name().equals(want.name()))
            {
                final int elsewhere = next.indexOf(have.name());
                throw new IllegalArgumentException("column " + (i + 1) + " is '" + have.name() + "', not '" + want.name() + "': "
                    + (elsewhere >= 0 ? "a journal's columns cannot be reordered" : "a journal's columns cannot be removed or renamed")
                    + " (its columns are " + this + "; new columns go at the end)");
            }
            if (!have.sameAs(want))
            {
                throw new IllegalArgumentException("column '" + have.name() + "' is " + have.declaration() + ", not " + want.declaration()
                    + ": a journal's column cannot change its type (its columns are " + this + ")");
            }
            if (have.hasDefault() && want.hasDefault() && !have.defaultValue().equals(want.defaultValue()))
            {
                throw new IllegalArgumentException("column '" + have.name() + "' was added with the default " + have.defaultValue()
                    + ", not " + want.defaultValue() + ": a column's default cannot change (earlier events read it)");
            }
        }
    }

    /**
     * @param schemaText the text form of a schema, as a file of this journal recorded it.
     * @return the generation g at which this schema's columns were {@code schemaText} (the columns of generations 1
     *         to g, as {@link #toString()} writes them), or 0 if they never were.
     */
    public int generationWritten(final String schemaText)
    {
        for (int g = generation(); g >= 1; g--)
        {
            if (upTo(g).toString().equals(schemaText))
            {
                return g;
            }
        }
        return 0;
    }

    /**
     * @param generation a generation, 1 to {@link #generation()}.
     * @return the columns of generations 1 to {@code generation}: this schema as it was then.
     */
    public JournalSchema upTo(final int generation)
    {
        if (generation >= generation())
        {
            return this;
        }
        int n = 0;
        while (n < generations.length && generations[n] <= generation)
        {
            n++;
        }
        return new JournalSchema(new ArrayList<>(columns.subList(0, n)), java.util.Arrays.copyOf(generations, n));
    }

    /** @return the number of generations: 1 for a journal's creation, one more for each time it gained columns. */
    public int generation()
    {
        return generations.length == 0 ? 1 : generations[generations.length - 1];
    }

    /**
     * @param column a column index.
     * @return the generation that added it: 1 for the columns the journal was created with.
     */
    public int generationOf(final int column)
    {
        return generations[column];
    }

    /** @return the columns of generation 1, those the journal was created with (this schema if it has no other). */
    public JournalSchema original()
    {
        return upTo(1);
    }

    /** @return the same columns, all of generation 1, without defaults: what a journal created with this schema has. */
    public JournalSchema withoutDefaults()
    {
        final List<Column> plain = new ArrayList<>(columns.size());
        boolean any = generation() > 1;
        for (final Column c : columns)
        {
            plain.add(c.withoutDefault());
            any |= c.hasDefault();
        }
        return any ? new JournalSchema(plain) : this;
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

    /** @return true if this is {@link #DEFAULT} (not a journal of the default schema that gained columns: see {@link #original()}). */
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
