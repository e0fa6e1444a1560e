package dev.weir.engine.emit;

import dev.weir.journal.ResultJournal;

/**
 * The default result listener for embedded use: appends every result, with the source offset it
 * covers, to the journal's output journal. Allocates nothing per result. Called on the engine thread.
 */
public final class OutputJournalSink implements ResultListener, AutoCloseable
{
    private final ResultJournal output;

    /**
     * @param output the output journal; owned by this sink from now on.
     */
    public OutputJournalSink(final ResultJournal output)
    {
        this.output = output;
    }

    @Override
    public void onResult(final WindowResult r)
    {
        output.append(r.windowStart(), r.windowEnd(), r.keyId(), r.count(), r.sum(), r.min(), r.max(), r.version(), r.sourceOffset());
    }

    @Override
    public void close()
    {
        output.close();
    }
}
