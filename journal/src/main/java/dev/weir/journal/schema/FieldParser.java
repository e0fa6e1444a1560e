package dev.weir.journal.schema;

/**
 * Reads the text of one field of an events CSV as a value of its column in a {@link JournalSchema}: the
 * rules an ingest applies to each named column of a line (and a test driver to each value it is given),
 * with the same one-line reasons.
 * <ul>
 *   <li>a {@link ColumnType#LONG} column is a 64-bit integer ({@code bad long in column NAME: TEXT});</li>
 *   <li>a {@link ColumnType#DECIMAL} column of scale N is an optional {@code -}, digits, and an optional
 *   {@code .} followed by 1 to N digits; fewer than N are padded with zeros, and a value whose unscaled
 *   long overflows is refused ({@code bad decimal in column NAME: TEXT (scale N)});</li>
 *   <li>a {@link ColumnType#STRING} column is 1 to {@value JournalSchema#MAX_STRING_BYTES} bytes of UTF-8
 *   without a line break, as {@link StringFormat} has it ({@code empty string in column NAME},
 *   {@code string over 256 bytes in column NAME}, {@code line break in column NAME}).</li>
 * </ul>
 * A reason quotes a bad field up to {@value #SHOWN_CHARS} characters. Parsing a number allocates nothing.
 * <p>
 * Not thread-safe: a reusable parser that holds the last number parsed; one owner thread.
 */
public final class FieldParser
{
    /** The most characters of a bad field that a reason quotes. */
    public static final int SHOWN_CHARS = 80;

    private static final long MULTIPLY_MIN = Long.MIN_VALUE / 10;

    private final String[] names;
    private final ColumnType[] types;
    private final int[] scales;
    private long number;

    /**
     * @param schema the columns whose fields it parses.
     */
    public FieldParser(final JournalSchema schema)
    {
        final int n = schema.size();
        this.names = new String[n];
        this.types = new ColumnType[n];
        this.scales = new int[n];
        for (int i = 0; i < n; i++)
        {
            final JournalSchema.Column c = schema.column(i);
            names[i] = c.name();
            types[i] = c.type();
            scales[i] = c.scale();
        }
    }

    /**
     * Parse a {@link ColumnType#LONG} or {@link ColumnType#DECIMAL} field into {@link #number()}.
     *
     * @param column the column's index.
     * @param text   the text holding the field.
     * @param start  the field's first character in {@code text}.
     * @param end    one past its last.
     * @return true if valid ({@link #number()} is then its value, a decimal's unscaled long); false if not
     *         ({@link #whyNotNumber} tells why).
     */
    public boolean parseNumber(final int column, final CharSequence text, final int start, final int end)
    {
        assert types[column] != ColumnType.STRING : names[column] + " is a string column";
        if (types[column] == ColumnType.LONG)
        {
            try
            {
                number = Long.parseLong(text, start, end, 10);
                return true;
            }
            catch (final NumberFormatException ex)
            {
                return false;
            }
        }
        return parseDecimal(text, start, end, scales[column]);
    }

    /**
     * @param column the index of the column a field failed {@link #parseNumber} in.
     * @param field  the field's text.
     * @return the reason.
     */
    public String whyNotNumber(final int column, final String field)
    {
        return types[column] == ColumnType.LONG
            ? "bad long in column " + names[column] + ": " + shown(field)
            : "bad decimal in column " + names[column] + ": " + shown(field) + " (scale " + scales[column] + ")";
    }

    /**
     * Check a {@link ColumnType#STRING} field.
     *
     * @param column the column's index.
     * @param text   the field's text, unquoted.
     * @return null if valid, else the reason.
     */
    public String checkString(final int column, final String text)
    {
        assert types[column] == ColumnType.STRING : names[column] + " is not a string column";
        if (text.isEmpty())
        {
            return "empty string in column " + names[column];
        }
        if (StringFormat.utf8Length(text) > JournalSchema.MAX_STRING_BYTES)
        {
            return "string over " + JournalSchema.MAX_STRING_BYTES + " bytes in column " + names[column];
        }
        if (text.indexOf('\r') >= 0 || text.indexOf('\n') >= 0)
        {
            return "line break in column " + names[column];
        }
        return null;
    }

    /** @return the value of the last number field parsed (a decimal's unscaled long). */
    public long number()
    {
        return number;
    }

    /**
     * @param field a field's text.
     * @return it, cut to {@value #SHOWN_CHARS} characters followed by {@code ...} if longer: how a reason quotes it.
     */
    public static String shown(final String field)
    {
        return field.length() <= SHOWN_CHARS ? field : field.substring(0, SHOWN_CHARS) + "...";
    }

    /**
     * Parse a decimal of a given scale into {@link #number}, its unscaled long; allocates nothing.
     *
     * @return false if the text is not such a decimal, or its unscaled value does not fit a long.
     */
    private boolean parseDecimal(final CharSequence text, final int start, final int end, final int scale)
    {
        int i = start;
        final boolean negative = i < end && text.charAt(i) == '-';
        if (negative)
        {
            i++;
        }
        long acc = 0; // accumulated negatively, so that Long.MIN_VALUE fits
        final int integerStart = i;
        while (i < end && isDigit(text.charAt(i)))
        {
            acc = shift(acc, text.charAt(i++) - '0');
            if (acc > 0)
            {
                return false;
            }
        }
        if (i == integerStart)
        {
            return false;
        }
        int fraction = 0;
        if (i < end && text.charAt(i) == '.')
        {
            i++;
            while (i < end && isDigit(text.charAt(i)) && fraction < scale)
            {
                acc = shift(acc, text.charAt(i++) - '0');
                if (acc > 0)
                {
                    return false;
                }
                fraction++;
            }
            if (fraction == 0)
            {
                return false;
            }
        }
        if (i != end)
        {
            return false;
        }
        for (; fraction < scale; fraction++)
        {
            acc = shift(acc, 0);
            if (acc > 0)
            {
                return false;
            }
        }
        if (!negative && acc == Long.MIN_VALUE)
        {
            return false;
        }
        number = negative ? acc : -acc;
        return true;
    }

    /**
     * @return {@code acc * 10 - digit}, or 1 (never a valid negative accumulator) if that overflows.
     */
    private static long shift(final long acc, final int digit)
    {
        if (acc < MULTIPLY_MIN)
        {
            return 1;
        }
        final long times = acc * 10;
        return times < Long.MIN_VALUE + digit ? 1 : times - digit;
    }

    private static boolean isDigit(final char c)
    {
        return c >= '0' && c <= '9';
    }
}
