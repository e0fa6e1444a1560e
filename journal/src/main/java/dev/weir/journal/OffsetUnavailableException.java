package dev.weir.journal;

import dev.weir.journal.schema.WeirException;

/**
 * A read asked for an offset (or output position) that is not in the journal any more: it lies before the oldest
 * one available, because the cycle files that held it were deleted (by retention, or by hand), or it never was
 * one of the journal's. Reading on from
 * the oldest available one instead would skip what lay between, so Weir refuses. Immutable once thrown.
 */
public final class OffsetUnavailableException extends WeirException
{
    private static final long serialVersionUID = 1L;

    private final long requested;
    private final long oldestAvailable;

    /**
     * @param what            what was read, e.g. the journal's events queue.
     * @param requested       the offset asked for.
     * @param oldestAvailable the oldest offset still available, or -1 if none is.
     */
    public OffsetUnavailableException(final String what, final long requested, final long oldestAvailable)
    {
        super(what + " no longer holds offset " + requested + ": the oldest offset available is "
            + (oldestAvailable < 0 ? "none" : Long.toString(oldestAvailable))
            + " (the cycle files before it were deleted, or the offset was never in it)");
        this.requested = requested;
        this.oldestAvailable = oldestAvailable;
    }

    /**
     * @return the offset asked for.
     */
    public long requested()
    {
        return requested;
    }

    /**
     * @return the oldest offset still available, or -1 if none is.
     */
    public long oldestAvailable()
    {
        return oldestAvailable;
    }
}
