package dev.weir.kafka;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.KeyDictionary;
import dev.weir.journal.codec.LateEventDecoder;
import dev.weir.journal.codec.OutputDecoder;
import dev.weir.journal.codec.ResultDecoder;

/** Rows of the tests: {@code start,end,key,count,sum,min,max,version} and late {@code id,time,key,value}. Not thread-safe. */
final class LineRows implements OutputRows
{
    private final KeyDictionary keys;

    LineRows(final JournalDirectory directory)
    {
        this.keys = KeyDictionary.open(directory);
    }

    @Override
    public String key(final OutputDecoder output)
    {
        return keys.name(output.isResult() ? output.result().keyId() : output.late().keyId());
    }

    @Override
    public String value(final OutputDecoder output)
    {
        if (output.isResult())
        {
            final ResultDecoder r = output.result();
            return r.windowStart() + "," + r.windowEnd() + "," + keys.name(r.keyId()) + "," + r.count() + "," + r.sum() + "," + r.min()
                + "," + r.max() + "," + r.version();
        }
        final LateEventDecoder l = output.late();
        return l.eventId() + "," + l.eventTime() + "," + keys.name(l.keyId()) + "," + l.value();
    }

    @Override
    public void close()
    {
        keys.close();
    }
}
