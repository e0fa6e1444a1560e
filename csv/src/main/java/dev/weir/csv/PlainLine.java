package dev.weir.csv;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import dev.weir.journal.EventJournal;
import dev.weir.journal.EventRow;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;

/**
 * The allocation-free reading of a line, from its bytes: {@link CsvLineParser}'s first try. It takes only a line
 * in a plain form that the text reading takes as the same event: exactly the schema's fields; event id, event time
 * and number columns unquoted and {@link PlainNumber plain} (the time {@link PlainNumber#time as a time}); string columns holding a
 * text {@link #learn learned} before (so known to be valid, UTF-8 included), quoted as RFC 4180 has it except in
 * the default columns, whose key is never quoted. Any other line is not plain, which says nothing of whether it
 * is valid. A line of the default columns (long, long, key, long) is read straight through, without the loop over
 * the columns that reads the others. Not thread-safe: the parser's thread.
 */
final class PlainLine
{
    private final PlainNumber number = new PlainNumber();
    private final boolean defaultColumns;
    private final ColumnType[] types;
    private final int[] scales;
    private final ByteKeys[] strings;
    private final long[] longs;
    private final int[] ids;
    private byte[] unquoted = new byte[256];
    private long eventId;
    private long eventTime;

    /**
     * @param schema the columns of the lines.
     */
    PlainLine(final JournalSchema schema)
    {
        final int n = schema.size();
        defaultColumns = schema.isDefault();
        types = new ColumnType[n];
        scales = new int[n];
        strings = new ByteKeys[n];
        longs = new long[n];
        ids = new int[n];
        for (int c = 0; c < n; c++)
        {
            types[c] = schema.column(c).type();
            scales[c] = schema.column(c).scale();
            strings[c] = types[c] == ColumnType.STRING ? new ByteKeys() : null;
        }
    }

    /**
     * @param bytes holds the line, without its terminator.
     * @param start the line's first byte.
     * @param end   one past its last byte.
     * @return true if the line is plain, and so a valid event, now held here.
     */
    boolean read(final byte[] bytes, final int start, final int end)
    {
        int i = number.integer(bytes, start, end, true);
        if (i < 0 || i == end || bytes[i] != ',')
        {
            return false;
        }
        final long id = number.value();
        i = number.time(bytes, i + 1, end);
        if (i < 0)
        {
            return false;
        }
        final long time = number.value();
        if (!(defaultColumns ? keyAndValue(bytes, i, end) : columns(bytes, i, end)))
        {
            return false;
        }
        eventId = id;
        eventTime = time;
        return true;
    }

    /**
     * The rest of a line of the default columns, {@code ,key,value}, read straight through: no loop over the
     * columns, no switch on their types, so that the compiler makes one small method of the whole line.
     *
     * @param from the offset after the event time.
     * @return true if the rest is plain, and so held here.
     */
    private boolean keyAndValue(final byte[] bytes, final int from, final int end)
    {
        if (from == end || bytes[from] != ',')
        {
            return false;
        }
        int i = unquotedString(0, bytes, from + 1, end);
        if (i < 0 || i == end || bytes[i] != ',')
        {
            return false;
        }
        i = number.integer(bytes, i + 1, end, true);
        if (i != end)
        {
            return false;
        }
        longs[1] = number.value();
        return true;
    }

    /**
     * The rest of a line of any other columns, each field read by its column's type.
     *
     * @param from the offset after the event time.
     * @return true if the rest is plain, and so held here.
     */
    private boolean columns(final byte[] bytes, final int from, final int end)
    {
        int i = from;
        for (int c = 0; c < types.length; c++)
        {
            if (i == end || bytes[i] != ',')
            {
                return false;
            }
            i++;
            switch (types[c])
            {
                case LONG -> i = number.integer(bytes, i, end, true);
                case DECIMAL -> i = number.decimal(bytes, i, end, scales[c]);
                default -> i = string(c, bytes, i, end);
            }
            if (i < 0)
            {
                return false;
            }
            if (types[c] != ColumnType.STRING)
            {
                longs[c] = number.value();
            }
        }
        return i == end;
    }

    /**
     * Read a string field into {@link #ids}.
     *
     * @return the offset after the field, or -1 if it is not a learned text in a form taken here.
     */
    private int string(final int column, final byte[] bytes, final int from, final int end)
    {
        int i = from;
        if (i < end && bytes[i] == '"')
        {
            final int first = ++i;
            int kept = 0;
            boolean doubled = false;
            while (true)
            {
                if (i >= end)
                {
                    return -1;
                }
                if (bytes[i] == '"')
                {
                    if (i + 1 < end && bytes[i + 1] == '"')
                    {
                        if (!doubled)
                        {
                            doubled = true;
                            kept = copy(bytes, first, i, 0);
                        }
                        kept = copy(bytes, i, i + 1, kept);
                        i += 2;
                        continue;
                    }
                    break;
                }
                if (doubled)
                {
                    kept = copy(bytes, i, i + 1, kept);
                }
                i++;
            }
            return learned(column, doubled ? unquoted : bytes, doubled ? 0 : first, doubled ? kept : i) ? i + 1 : -1;
        }
        return unquotedString(column, bytes, from, end);
    }

    /**
     * Read an unquoted string field into {@link #ids}: up to the next comma, without a quote.
     *
     * @return the offset after the field, or -1 if it is not a learned text or holds a quote.
     */
    private int unquotedString(final int column, final byte[] bytes, final int from, final int end)
    {
        int i = from;
        while (i < end && bytes[i] != ',')
        {
            if (bytes[i] == '"')
            {
                return -1;
            }
            i++;
        }
        return learned(column, bytes, from, i) ? i : -1;
    }

    private boolean learned(final int column, final byte[] bytes, final int start, final int end)
    {
        final int id = strings[column].get(bytes, start, end);
        ids[column] = id;
        return id != ByteKeys.MISSING;
    }

    private int copy(final byte[] bytes, final int from, final int to, final int kept)
    {
        final int n = to - from;
        if (kept + n > unquoted.length)
        {
            unquoted = Arrays.copyOf(unquoted, Math.max(unquoted.length * 2, kept + n));
        }
        System.arraycopy(bytes, from, unquoted, kept, n);
        return kept + n;
    }

    /**
     * Append the event last {@link #read}, as an ingested line.
     *
     * @param journal            the journal: of these columns, or of more columns with defaults, which the event gets
     *                           ({@link OlderWriter}).
     * @param line               the line's number.
     * @param unterminatedLength the line's length if it had no terminator, else -1.
     * @return the offset of the last event written to the journal (this one may wait in its batch).
     */
    long append(final EventJournal journal, final long line, final long unterminatedLength)
    {
        if (journal.schema().isDefault())
        {
            journal.batch().appendIngested(line, eventId, eventTime, ids[0], longs[1], unterminatedLength);
            return journal.batch().lastOffset();
        }
        journal.batch().appendIngested(row(journal), line, unterminatedLength);
        return journal.batch().lastOffset();
    }

    /**
     * Add the event last {@link #read} to the journal's batch, as an event that is no line of a file (a Kafka record's).
     *
     * @param journal the journal, of these columns or of more columns with defaults.
     * @return the event's slot in the batch's pending document.
     */
    int appendEvent(final EventJournal journal)
    {
        if (journal.schema().isDefault())
        {
            return journal.batch().append(eventId, eventTime, ids[0], longs[1]);
        }
        return journal.batch().append(row(journal));
    }

    /** @return the journal's row holding the event last {@link #read}, with the defaults of the columns it lacks. */
    private EventRow row(final EventJournal journal)
    {
        final EventRow row = journal.row();
        row.eventId(eventId).eventTime(eventTime);
        for (int c = 0; c < types.length; c++)
        {
            if (types[c] == ColumnType.STRING)
            {
                row.setString(c, ids[c]);
            }
            else
            {
                row.setLong(c, longs[c]);
            }
        }
        OlderWriter.fillDefaults(journal, journal.schema(), row, types.length);
        return row;
    }

    /**
     * @param column a string, long or decimal column.
     * @param text   holds bytes of UTF-8 text.
     * @param start  the text's first byte.
     * @param end    one past its last byte.
     * @return true if they are the column's text in the event last {@link #read}: its string, its long in decimal
     *         digits without a plus sign or leading zeros, or its decimal as {@code BigDecimal.toPlainString()}
     *         writes it at the column's scale ({@code 12.50}, {@code -0.05}). Allocates nothing.
     */
    boolean fieldIs(final int column, final byte[] text, final int start, final int end)
    {
        if (types[column] == ColumnType.STRING)
        {
            return strings[column].get(text, start, end) == ids[column];
        }
        final long value = longs[column];
        final int scale = types[column] == ColumnType.DECIMAL ? scales[column] : 0;
        int i = end;
        long rest = value;
        for (int d = 0; d < scale; d++)
        {
            final int digit = (int)Math.abs(rest % 10);
            if (--i < start || text[i] != '0' + digit)
            {
                return false;
            }
            rest /= 10;
        }
        if (scale > 0 && (--i < start || text[i] != '.'))
        {
            return false;
        }
        do
        {
            final int digit = (int)Math.abs(rest % 10);
            if (--i < start || text[i] != '0' + digit)
            {
                return false;
            }
            rest /= 10;
        }
        while (rest != 0);
        return value < 0 ? i == start + 1 && text[start] == '-' : i == start;
    }

    /**
     * Learn a string of a valid line appended, so that lines with the same string can be read here.
     * Allocates for a string not learned yet.
     *
     * @param column the string column.
     * @param text   its text in the line.
     * @param id     the id the journal's dictionary gave it (its key id in the default columns).
     */
    void learn(final int column, final String text, final int id)
    {
        strings[column].put(text.getBytes(StandardCharsets.UTF_8), id);
    }
}
