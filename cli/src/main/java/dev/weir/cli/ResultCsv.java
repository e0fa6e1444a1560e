package dev.weir.cli;

import dev.weir.engine.emit.LateEvent;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.emit.WindowResult;
import dev.weir.journal.files.AtomicTextFile;

/**
 * Writes results and late events as CSV rows in the engine's order, in the shape of a {@link ResultRow}
 * (which maps key ids back to their text), with its {@link RowWriter}. Called on the engine thread only; the files are committed by
 * the command after the run.
 */
final class ResultCsv implements ResultListener
{
    private final AtomicTextFile out;
    private final RowWriter rows;

    ResultCsv(final AtomicTextFile out, final ResultRow format)
    {
        this.out = out;
        this.rows = format.writer();
        out.line(format.header());
    }

    @Override
    public void onResult(final WindowResult r)
    {
        rows.csv(out.row(), r);
    }

    /**
     * The late events as CSV.
     */
    static final class Late implements LateListener
    {
        private final AtomicTextFile out;
        private final RowWriter rows;

        Late(final AtomicTextFile out, final ResultRow format)
        {
            this.out = out;
            this.rows = format.writer();
            out.line(format.lateHeader());
        }

        @Override
        public void onLate(final LateEvent e)
        {
            rows.late(out.row(), e);
        }
    }
}
