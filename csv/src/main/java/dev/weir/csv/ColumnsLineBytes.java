package dev.weir.csv;

import java.nio.charset.StandardCharsets;

import dev.weir.journal.ColumnType;
import dev.weir.journal.EventJournal;
import dev.weir.journal.EventRow;
import dev.weir.journal.JournalSchema;

/**
 * {@link LineBytes} for columns other than the default ones (read as {@link ColumnsLine} reads them):
 * takes a line of exactly the schema's fields whose event id, event time and number columns are
 * unquoted and {@link PlainNumber plain} (the time without a sign), and whose string columns, quoted as
 * RFC 4180 has it or not, hold a text learned before (so known to be valid, UTF-8 included). Not
 * thread-safe.
 */
final class ColumnsLineBytes implements LineBytes
{
    private final PlainNumber number = new PlainNumber();
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
    ColumnsLineBytes(final JournalSchema schema)
    {
        final int n = schema.size();
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

    @Override
    public boolean parse(final byte[] bytes, final int start, final int end)
    {
        int i = number.integer(bytes, start, end, true);
        if (i < 0 || i == end || bytes[i] != ',')
        {
            return false;
        }
        final long id = number.value();
        i = number.integer(bytes, i + 1, end, false);
        if (i < 0)
        {
            return false;
        }
        final long time = number.value();
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
        if (i != end)
        {
            return false;
        }
        eventId = id;
        eventTime = time;
        return true;
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
            final int id = doubled ? strings[column].get(unquoted, 0, kept) : strings[column].get(bytes, first, i);
            if (id == ByteKeys.MISSING)
            {
                return -1;
            }
            ids[column] = id;
            return i + 1;
        }
        while (i < end && bytes[i] != ',')
        {
            if (bytes[i] == '"')
            {
                return -1;
            }
            i++;
        }
        final int id = strings[column].get(bytes, from, i);
        if (id == ByteKeys.MISSING)
        {
            return -1;
        }
        ids[column] = id;
        return i;
    }

    private int copy(final byte[] bytes, final int from, final int to, final int kept)
    {
        final int n = to - from;
        if (kept + n > unquoted.length)
        {
            unquoted = java.util.Arrays.copyOf(unquoted, Math.max(unquoted.length * 2, kept + n));
        }
        System.arraycopy(bytes, from, unquoted, kept, n);
        return kept + n;
    }

    @Override
    public long append(final EventJournal journal, final long line, final long unterminatedLength)
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
        return journal.appendIngested(row, line, unterminatedLength);
    }

    @Override
    public void learn(final EventJournal journal, final ColumnsLine event)
    {
        for (int c = 0; c < types.length; c++)
        {
            if (types[c] == ColumnType.STRING)
            {
                final String text = event.string(c);
                strings[c].put(text.getBytes(StandardCharsets.UTF_8), journal.stringId(c, text));
            }
        }
    }
}
