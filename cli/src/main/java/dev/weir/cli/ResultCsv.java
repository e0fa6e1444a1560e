package dev.weir.cli;

import dev.weir.engine.emit.LateEvent;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.emit.WindowResult;
import dev.weir.journal.KeyDictionary;

/**
 * Writes results ({@code window_start,window_end,key,count,sum,min,max,version}, then {@code aggregate} with a
 * user aggregation) and late events
 * ({@code event_id,event_time,key,value}) as CSV rows in the engine's order, mapping key ids back to
 * strings. Called on the engine thread only; the files are committed by the command after the run.
 */
final class ResultCsv implements ResultListener
{
    static final String LATE_HEADER = OutputExport.LATE_HEADER;

    private final AtomicTextFile out;
    private final KeyDictionary keys;
    private final boolean withAggregate;
    private final StringBuilder row = new StringBuilder(128);

    ResultCsv(final AtomicTextFile out, final KeyDictionary keys, final boolean withAggregate)
    {
        this.out = out;
        this.keys = keys;
        this.withAggregate = withAggregate;
        out.line(ResultRow.header(withAggregate));
    }

    @Override
    public void onResult(final WindowResult r)
    {
        row.setLength(0);
        out.line(ResultRow.csv(row, r, keys.name(r.keyId()), withAggregate).toString());
    }

    /**
     * The late events as CSV.
     */
    static final class Late implements LateListener
    {
        private final AtomicTextFile out;
        private final KeyDictionary keys;

        Late(final AtomicTextFile out, final KeyDictionary keys)
        {
            this.out = out;
            this.keys = keys;
            out.line(LATE_HEADER);
        }

        @Override
        public void onLate(final LateEvent e)
        {
            out.line(e.eventId() + "," + e.eventTime() + "," + keys.name(e.keyId()) + "," + e.value());
        }
    }
}
