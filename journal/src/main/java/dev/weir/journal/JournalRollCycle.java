package dev.weir.journal;

import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.rollcycles.LargeRollCycles;
import net.openhft.chronicle.queue.rollcycles.LegacyRollCycles;

/**
 * How long one file (cycle) of a journal's queues covers: chosen when the journal is created, recorded in its
 * marker, and fixed for its life, because an offset is {@code (cycle << bits) | sequence} and its layout
 * depends on the roll cycle. Retention removes whole cycles, so a shorter cycle lets it keep less.
 * <p>
 * Each roll cycle bounds the documents one cycle can hold ({@link #capacity()}): {@link #MINUTELY} holds
 * 2<sup>26</sup> = 67,108,864 documents per minute, about 1.1 M per second sustained; a larger rate needs
 * {@link #HOURLY} (2<sup>32</sup> − 1 per hour, about 1.19 M/s) or {@link #DAILY} (2<sup>37</sup> − 1 per day,
 * about 1.59 M/s). An append past the capacity fails with {@link CycleFullException}.
 * <p>
 * Immutable and thread-safe.
 */
public enum JournalRollCycle
{
    /** One file per minute (Chronicle's {@code MINUTELY}): at most 2^26 documents per minute. */
    MINUTELY("minutely", LegacyRollCycles.MINUTELY),
    /** One file per hour (Chronicle's {@code LARGE_HOURLY}): at most 2^32 − 1 documents per hour. */
    HOURLY("hourly", LargeRollCycles.LARGE_HOURLY),
    /** One file per day (Chronicle's {@code LARGE_DAILY}): at most 2^37 − 1 documents per day; the default. */
    DAILY("daily", LargeRollCycles.LARGE_DAILY);

    /** The roll cycle of a journal created without one, and of every journal made before roll cycles were recorded. */
    public static final JournalRollCycle DEFAULT = DAILY;

    private final String cliName;
    private final RollCycle chronicle;

    JournalRollCycle(final String cliName, final RollCycle chronicle)
    {
        this.cliName = cliName;
        this.chronicle = chronicle;
    }

    /**
     * @param name a roll cycle's name as the CLI and the marker write it: {@code minutely}, {@code hourly} or {@code daily}.
     * @return the roll cycle.
     * @throws IllegalArgumentException if the name is none of them.
     */
    public static JournalRollCycle parse(final String name)
    {
        for (final JournalRollCycle cycle : values())
        {
            if (cycle.cliName.equals(name))
            {
                return cycle;
            }
        }
        throw new IllegalArgumentException("roll cycle '" + name + "' is not one of minutely, hourly, daily");
    }

    /**
     * @return the name the CLI and the journal's marker use: {@code minutely}, {@code hourly} or {@code daily}.
     */
    public String cliName()
    {
        return cliName;
    }

    /**
     * @return how long one cycle covers, in milliseconds.
     */
    public long lengthMillis()
    {
        return chronicle.lengthInMillis();
    }

    /**
     * @return the most documents (events, heartbeats, ingest records, outputs) one cycle of one queue can hold.
     */
    public long capacity()
    {
        return chronicle.maxMessagesPerCycle();
    }

    /**
     * @param offset an offset of a queue of a journal with this roll cycle.
     * @return the cycle it lies in.
     */
    public int cycleOf(final long offset)
    {
        return chronicle.toCycle(offset);
    }

    /**
     * @param cycle    a cycle number.
     * @param sequence a document's place in that cycle, from 0.
     * @return its offset.
     */
    public long offsetOf(final int cycle, final long sequence)
    {
        return chronicle.toIndex(cycle, sequence);
    }

    /**
     * @param cycle a cycle number.
     * @return when it starts, in epoch milliseconds UTC.
     */
    public long startMillis(final int cycle)
    {
        return cycle * lengthMillis();
    }

    /**
     * @param cycle a cycle number.
     * @return the name of its file in a queue directory, e.g. {@code 20261201-1822.cq4} for a minutely cycle.
     */
    public String fileName(final int cycle)
    {
        return java.time.format.DateTimeFormatter.ofPattern(chronicle.format()).withZone(java.time.ZoneOffset.UTC)
            .format(java.time.Instant.ofEpochMilli(startMillis(cycle))) + ".cq4";
    }

    /**
     * @return the roll cycle whose {@code capacity} is the next larger, or null for the largest.
     */
    JournalRollCycle larger()
    {
        return this == MINUTELY ? HOURLY : this == HOURLY ? DAILY : null;
    }

    RollCycle chronicle()
    {
        return chronicle;
    }

    /**
     * Whether an exception thrown by a Chronicle append says the current cycle is full, and if so the
     * exception to throw instead.
     *
     * @param ex     what the append threw.
     * @param target the journal or queue appended to, for the message.
     * @return a {@link CycleFullException} naming this roll cycle and what to choose instead, or {@code ex}
     *         itself when it is about something else.
     */
    RuntimeException translateAppendFailure(final RuntimeException ex, final Object target)
    {
        final String message = ex.getMessage();
        if (ex instanceof IllegalStateException && message != null && message.contains("exceeds max number for the current rollcycle"))
        {
            return new CycleFullException(this, target, ex);
        }
        return ex;
    }

    @Override
    public String toString()
    {
        return cliName;
    }
}
