package dev.weir.journal;

import dev.weir.journal.schema.WeirException;

/**
 * An append that would put more documents into one cycle of a journal's queue than its
 * {@link JournalRollCycle} allows: the rate was above what the roll cycle sustains. The append did not happen.
 * The roll cycle of a journal cannot change; a journal created with a longer one ({@code hourly} or
 * {@code daily}) takes more per cycle. Immutable once thrown.
 */
public final class CycleFullException extends WeirException
{
    private static final long serialVersionUID = 1L;

    private final JournalRollCycle rollCycle;

    CycleFullException(final JournalRollCycle rollCycle, final Object target, final Throwable cause)
    {
        super(message(rollCycle, target), cause);
        this.rollCycle = rollCycle;
    }

    private static String message(final JournalRollCycle rollCycle, final Object target)
    {
        final JournalRollCycle larger = rollCycle.larger();
        return String.format("journal %s is full for this %s: roll cycle %s holds at most %,d documents per cycle (about %,d per second "
            + "sustained)%s", target, rollCycle == JournalRollCycle.DAILY ? "day" : rollCycle == JournalRollCycle.HOURLY ? "hour" : "minute",
            rollCycle.cliName(), rollCycle.capacity(), rollCycle.capacity() * 1000 / rollCycle.lengthMillis(),
            larger == null
                ? ""
                : "; for a higher rate, create the journal with a longer roll cycle (--roll-cycle " + larger.cliName()
                    + (larger == JournalRollCycle.HOURLY ? " or daily" : "") + "): a journal's roll cycle cannot change");
    }

    /**
     * @return the roll cycle whose capacity was reached.
     */
    public JournalRollCycle rollCycle()
    {
        return rollCycle;
    }
}
