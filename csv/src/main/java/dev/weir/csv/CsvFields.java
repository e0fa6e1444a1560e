package dev.weir.csv;

/**
 * The fields of one CSV line, split by the rules of RFC 4180 for a single line:
 * <ul>
 *   <li>fields are separated by commas; an unquoted field is taken as it is, spaces included, and may not
 *   contain a quote;</li>
 *   <li>a field that starts with a quote runs to the next lone quote, which must end the line or be
 *   followed by a comma; inside it, commas are text and {@code ""} is one quote;</li>
 *   <li>a line break inside a quoted field is not supported (one event per line): a quote still open at
 *   the end of the line rejects it.</li>
 * </ul>
 * {@link #split(String, String[])} records where each field's text lies in the line (offsets only, no
 * allocation); {@link #text(int)} makes a field's text. Up to {@value #MAX_FIELDS} fields are recorded,
 * more are only counted. Reusable, not thread-safe.
 */
public final class CsvFields
{
    /** The most fields recorded: the event id, the event time and every column of the widest schema. */
    public static final int MAX_FIELDS = dev.weir.journal.schema.JournalSchema.MAX_COLUMNS + 2;

    private final int[] starts = new int[MAX_FIELDS];
    private final int[] ends = new int[MAX_FIELDS];
    private final boolean[] escaped = new boolean[MAX_FIELDS];
    private final StringBuilder unescaped = new StringBuilder();
    private String line;
    private int count;

    /**
     * Split a line into fields.
     *
     * @param text  a line without its line terminator.
     * @param names the names of the fields in order, to name a field in a reason, or null; a field beyond
     *              them is named by its number only.
     * @return null if the line splits (the fields are then readable), else the reason it does not.
     */
    public String split(final String text, final String[] names)
    {
        line = text;
        count = 0;
        final int length = text.length();
        int pos = 0;
        while (true)
        {
            if (pos < length && text.charAt(pos) == '"')
            {
                final int start = ++pos;
                boolean doubled = false;
                while (true)
                {
                    if (pos >= length)
                    {
                        return "unterminated quote in field " + named(count, names);
                    }
                    if (text.charAt(pos) == '"')
                    {
                        if (pos + 1 < length && text.charAt(pos + 1) == '"')
                        {
                            doubled = true;
                            pos += 2;
                            continue;
                        }
                        break;
                    }
                    pos++;
                }
                record(start, pos, doubled);
                pos++; // the closing quote
                if (pos < length && text.charAt(pos) != ',')
                {
                    return "text after the closing quote of field " + named(count - 1, names);
                }
            }
            else
            {
                final int start = pos;
                while (pos < length && text.charAt(pos) != ',')
                {
                    if (text.charAt(pos) == '"')
                    {
                        return "quote in unquoted field " + named(count, names) + " (quote the field and double its quotes)";
                    }
                    pos++;
                }
                record(start, pos, false);
            }
            if (pos >= length)
            {
                return null;
            }
            pos++; // the comma: a field follows, empty if the line ends here
        }
    }

    /** @return the number of fields of the last line split, recorded or not. */
    public int count()
    {
        return count;
    }

    /**
     * @param field a recorded field's index.
     * @return the offset in the line of its first character (after an opening quote).
     */
    public int start(final int field)
    {
        assert field < Math.min(count, MAX_FIELDS) : field;
        return starts[field];
    }

    /**
     * @param field a recorded field's index.
     * @return the offset in the line after its last character (before a closing quote).
     */
    public int end(final int field)
    {
        assert field < Math.min(count, MAX_FIELDS) : field;
        return ends[field];
    }

    /**
     * @param field a recorded field's index.
     * @return true if the field's characters in the line hold doubled quotes, so they are not its text
     *         as they stand.
     */
    public boolean escaped(final int field)
    {
        assert field < Math.min(count, MAX_FIELDS) : field;
        return escaped[field];
    }

    /**
     * @param field a recorded field's index.
     * @return true if the field is empty.
     */
    public boolean isEmpty(final int field)
    {
        return end(field) == start(field);
    }

    /**
     * @param field a recorded field's index.
     * @return its text, quotes undoubled (allocates).
     */
    public String text(final int field)
    {
        final int start = start(field);
        final int end = end(field);
        if (!escaped[field])
        {
            return line.substring(start, end);
        }
        unescaped.setLength(0);
        for (int i = start; i < end; i++)
        {
            final char c = line.charAt(i);
            unescaped.append(c);
            if (c == '"')
            {
                i++; // its double
            }
        }
        return unescaped.toString();
    }

    private void record(final int start, final int end, final boolean doubled)
    {
        if (count < MAX_FIELDS)
        {
            starts[count] = start;
            ends[count] = end;
            escaped[count] = doubled;
        }
        count++;
    }

    private static String named(final int field, final String[] names)
    {
        return names != null && field < names.length ? (field + 1) + " (" + names[field] + ")" : Integer.toString(field + 1);
    }
}
