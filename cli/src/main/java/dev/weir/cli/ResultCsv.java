package dev.weir.cli;

import dev.weir.engine.emit.LateEvent;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.emit.WindowResult;

/**
 * Writes results and late events as CSV rows in the engine's order, in the shape of a {@link ResultRow}
 * (which maps key ids back to their text). Called on the engine thread only; the files are committed by
 * the command after the run.
 */
final class ResultCsv implements ResultListener
{
    private final AtomicTextFile out;
    private final ResultRow format;
    private final StringBuilder row = new StringBuilder(128);

    ResultCsv(final AtomicTextFile out, final ResultRow format)
    {
        this.out = out;
        this.format = format;
        out.line(format.header());
    }

    @Override
    public void onResult(final WindowResult r)
    {
        row.setLength(0);
        out.line(format.csv(row, r).toString());
    }

    /**
     * The late events as CSV.
     */
    static final class Late implements LateListener
    {
        private final AtomicTextFile out;
        private final ResultRow format;

        Late(final AtomicTextFile out, final ResultRow format)
        {
            this.out = out;
            this.format = format;
            out.line(format.lateHeader());
        }

        @Override
        public void onLate(final LateEvent e)
        {
            out.line(format.late(e));
        }
    }
}
