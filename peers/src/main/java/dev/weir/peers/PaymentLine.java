package dev.weir.peers;

/**
 * The validity rules of one {@code event_id,event_time,key,value} line as {@code weir ingest} and {@code weir run}
 * apply them (four fields, 64-bit integers, a non-negative time, a key of 1 to 64 characters from
 * {@code [A-Za-z0-9_-]}, fields trimmed, a time up to 2^62 ms), so that the Kafka Streams job drops exactly the lines Weir rejects: a line Weir rejects
 * must not move a Streams task's stream time (the demo payments hold a line with a valid time a day ahead and a bad
 * key). Stateless; every method is thread-safe.
 */
final class PaymentLine
{
    /** What {@link #eventTime(String)} returns for a line Weir would reject. */
    static final long INVALID = -1;

    /** The latest event time Weir accepts (its journal's {@code MAX_EVENT_TIME}, 2^62 ms). */
    static final long MAX_EVENT_TIME = 1L << 62;

    private PaymentLine()
    {
    }

    /**
     * @param line a CSV line without its terminator, or null.
     * @return its event time, or {@link #INVALID} if Weir would reject the line.
     */
    static long eventTime(final String line)
    {
        if (line == null)
        {
            return INVALID;
        }
        final int c1 = line.indexOf(',');
        final int c2 = c1 < 0 ? -1 : line.indexOf(',', c1 + 1);
        final int c3 = c2 < 0 ? -1 : line.indexOf(',', c2 + 1);
        if (c3 < 0 || line.indexOf(',', c3 + 1) >= 0)
        {
            return INVALID;
        }
        final long time = parse(line, c1 + 1, c2);
        if (parse(line, 0, c1) == Long.MIN_VALUE || time == Long.MIN_VALUE || time < 0 || time > MAX_EVENT_TIME
            || parse(line, c3 + 1, line.length()) == Long.MIN_VALUE || !validKey(line, c2 + 1, c3))
        {
            return INVALID;
        }
        return time;
    }

    /**
     * @param line a line for which {@link #eventTime(String)} is not {@link #INVALID}.
     * @return its key.
     */
    static String key(final String line)
    {
        final int c2 = line.indexOf(',', line.indexOf(',') + 1);
        return line.substring(c2 + 1, line.indexOf(',', c2 + 1)).trim();
    }

    /**
     * @param line a line for which {@link #eventTime(String)} is not {@link #INVALID}.
     * @return its value.
     */
    static long value(final String line)
    {
        return parse(line, line.lastIndexOf(',') + 1, line.length());
    }

    private static boolean validKey(final String line, final int from, final int to)
    {
        int start = from;
        int end = to;
        while (start < end && line.charAt(start) == ' ')
        {
            start++;
        }
        while (end > start && line.charAt(end - 1) == ' ')
        {
            end--;
        }
        if (end - start < 1 || end - start > 64)
        {
            return false;
        }
        for (int i = start; i < end; i++)
        {
            final char c = line.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'))
            {
                return false;
            }
        }
        return true;
    }

    /** A trimmed 64-bit integer field, or {@link Long#MIN_VALUE} if it is not one. */
    private static long parse(final String line, final int from, final int to)
    {
        try
        {
            return Long.parseLong(line.substring(from, to).trim());
        }
        catch (final NumberFormatException ex)
        {
            return Long.MIN_VALUE;
        }
    }
}
