package dev.weir.files;

import dev.weir.engine.emit.LateEvent;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.emit.WindowResult;
import dev.weir.journal.files.AtomicTextFile;

/**
 * Writes results and late events as CSV rows in the engine's order, in the shape of a {@link ResultRow}
 * (which maps key ids back to their text), with its {@link RowWriter}: a listener of a pipeline that writes its rows
 * as it runs. Called on the engine thread only; the caller commits the file after the run.
 */
public final class ResultCsv implements ResultListener
{
    private final AtomicTextFile out;
    private final RowWriter rows;

    /**
     * @param out    the file, its header written now; committed by the caller once the run ended.
     * @param format the rows' text.
     */
    public ResultCsv(final AtomicTextFile out, final ResultRow format)
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
     * The late events as CSV. Called on the engine thread only.
     */
    public static final class Late implements LateListener
    {
        private final AtomicTextFile out;
        private final RowWriter rows;

        /**
         * @param out    the file, its header written now; committed by the caller once the run ended.
         * @param format the rows' text.
         */
        public Late(final AtomicTextFile out, final ResultRow format)
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
