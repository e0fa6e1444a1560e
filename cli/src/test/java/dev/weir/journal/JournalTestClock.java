package dev.weir.journal;

import net.openhft.chronicle.core.time.TimeProvider;

/** Sets the clock of the journal queues a cli test opens in this JVM (through JournalClock's test hook). */
public final class JournalTestClock
{
    private JournalTestClock()
    {
    }

    /** @param clock the clock of the queues opened from now on, or null for the system clock. */
    public static void set(final TimeProvider clock)
    {
        JournalClock.useForTests(clock == null ? null : JournalClock.of(clock::currentTimeMillis));
    }
}
