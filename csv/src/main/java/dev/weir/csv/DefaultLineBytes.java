package dev.weir.csv;

import java.nio.charset.StandardCharsets;

import dev.weir.journal.EventJournal;

/**
 * {@link LineBytes} for the default columns ({@code event_id,event_time,key,value}, read as
 * {@link EventLine} reads them): takes a line of exactly four fields, without spaces, whose numbers are
 * {@link PlainNumber plain} (the time without a sign) and whose key, valid under
 * {@link dev.weir.journal.KeyFormat}, was learned. Not thread-safe.
 */
final class DefaultLineBytes implements LineBytes
{
    private static final int MAX_KEY = dev.weir.journal.KeyFormat.MAX_LENGTH;
    private static final boolean[] KEY_BYTE = new boolean[256];

    static
    {
        for (int c = 0; c < 256; c++)
        {
            KEY_BYTE[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        }
    }

    private final PlainNumber number = new PlainNumber();
    private final ByteKeys keys = new ByteKeys();
    private long eventId;
    private long eventTime;
    private int keyId;
    private long value;

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
        if (i < 0 || i == end || bytes[i] != ',')
        {
            return false;
        }
        final long time = number.value();
        final int keyStart = i + 1;
        i = keyStart;
        while (i < end && KEY_BYTE[bytes[i] & 0xFF])
        {
            i++;
        }
        if (i == keyStart || i - keyStart > MAX_KEY || i == end || bytes[i] != ',')
        {
            return false;
        }
        final int key = keys.get(bytes, keyStart, i);
        if (key == ByteKeys.MISSING)
        {
            return false;
        }
        i = number.integer(bytes, i + 1, end, true);
        if (i != end)
        {
            return false;
        }
        eventId = id;
        eventTime = time;
        keyId = key;
        value = number.value();
        return true;
    }

    @Override
    public long append(final EventJournal journal, final long line, final long unterminatedLength)
    {
        return journal.appendIngested(line, eventId, eventTime, keyId, value, unterminatedLength);
    }

    @Override
    public void learn(final EventJournal journal, final ColumnsLine event)
    {
        final String key = event.string(0);
        keys.put(key.getBytes(StandardCharsets.UTF_8), journal.keyId(key));
    }
}
