package dev.weir.csv;

import dev.weir.journal.KeyFormat;

/**
 * One line of an events CSV ({@code event_id,event_time,key,value}), parsed and validated.
 * <p>
 * {@link #parse(String)} fills this reusable instance and returns null when the line is a valid event,
 * or returns the reason it is not: wrong field count, an id, time or value that is not a 64-bit
 * integer, a negative time, or a key outside {@code [A-Za-z0-9_-]{1,64}}. A reason quotes the bad field,
 * up to {@value #SHOWN_CHARS} characters of it. Not thread-safe.
 */
public final class EventLine
{
    /** The header every events CSV starts with. */
    public static final String HEADER = "event_id,event_time,key,value";

    /** The most characters of a bad field that a reason quotes. */
    static final int SHOWN_CHARS = 80;

    private long eventId;
    private long eventTime;
    private String key;
    private long value;

    /**
     * @param line a line without its line terminator.
     * @return null if valid (fields are then readable), else the reason.
     */
    public String parse(final String line)
    {
        if (line.isBlank())
        {
            return "empty line";
        }
        final int c1 = line.indexOf(',');
        final int c2 = c1 < 0 ? -1 : line.indexOf(',', c1 + 1);
        final int c3 = c2 < 0 ? -1 : line.indexOf(',', c2 + 1);
        if (c3 < 0 || line.indexOf(',', c3 + 1) >= 0)
        {
            return "expected 4 fields (" + HEADER + "), found " + (count(line, ',') + 1);
        }
        final String id = line.substring(0, c1).trim();
        final String time = line.substring(c1 + 1, c2).trim();
        final String k = line.substring(c2 + 1, c3).trim();
        final String v = line.substring(c3 + 1).trim();
        try
        {
            eventId = Long.parseLong(id);
        }
        catch (final NumberFormatException ex)
        {
            return "event_id is not a 64-bit integer: '" + shown(id) + "'";
        }
        try
        {
            eventTime = Long.parseLong(time);
        }
        catch (final NumberFormatException ex)
        {
            return "event_time is not a 64-bit integer: '" + shown(time) + "'";
        }
        if (eventTime < 0)
        {
            return "event_time is negative: " + eventTime;
        }
        if (eventTime > dev.weir.journal.EventJournal.MAX_EVENT_TIME)
        {
            return "event_time is later than " + dev.weir.journal.EventJournal.MAX_EVENT_TIME + ": " + eventTime;
        }
        final String why = KeyFormat.whyInvalid(k);
        if (why != null)
        {
            return why + ": '" + shown(k) + "'";
        }
        try
        {
            value = Long.parseLong(v);
        }
        catch (final NumberFormatException ex)
        {
            return "value is not a 64-bit integer: '" + shown(v) + "'";
        }
        key = k;
        return null;
    }

    /** @return the event id of the last valid line. */
    public long eventId()
    {
        return eventId;
    }

    /** @return the event time of the last valid line. */
    public long eventTime()
    {
        return eventTime;
    }

    /** @return the key of the last valid line. */
    public String key()
    {
        return key;
    }

    /** @return the value of the last valid line. */
    public long value()
    {
        return value;
    }

    private static String shown(final String field)
    {
        return field.length() <= SHOWN_CHARS ? field : field.substring(0, SHOWN_CHARS) + "...";
    }

    private static int count(final String s, final char c)
    {
        int n = 0;
        for (int i = 0; i < s.length(); i++)
        {
            if (s.charAt(i) == c)
            {
                n++;
            }
        }
        return n;
    }
}
