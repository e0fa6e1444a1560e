package dev.weir.kafka;

import java.nio.charset.StandardCharsets;

import dev.weir.journal.EventJournal;

/** Records of the tests: values {@code id,time,key,value}, the key equal to the line's. Not thread-safe. */
final class LineRecords implements RecordDecoder
{
    private String why;

    @Override
    public long append(final byte[] key, final byte[] value, final EventJournal journal)
    {
        final String[] f = value == null ? new String[0] : new String(value, StandardCharsets.UTF_8).split(",");
        if (f.length != 4)
        {
            why = "not 4 fields";
            return -1;
        }
        try
        {
            if (key == null || !new String(key, StandardCharsets.UTF_8).equals(f[2]))
            {
                why = "key is not " + f[2];
                return -1;
            }
            return journal.append(Long.parseLong(f[0]), Long.parseLong(f[1]), f[2], Long.parseLong(f[3]));
        }
        catch (final NumberFormatException ex)
        {
            why = "bad number";
            return -1;
        }
    }

    @Override
    public String rejection()
    {
        return why;
    }
}
