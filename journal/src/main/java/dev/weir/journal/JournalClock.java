package dev.weir.journal;

import net.openhft.chronicle.core.time.SystemTimeProvider;
import net.openhft.chronicle.core.time.TimeProvider;

/**
 * The clock of a journal's queues: what decides which cycle (file) an append goes to, and what "now" is for
 * retention. It is the system clock, unless a test changes it.
 * <p>
 * <b>For tests only</b>, two system properties, read once when this class is loaded, make it run faster than
 * the wall clock, so that a test in a child JVM can pass through many cycles in seconds:
 * {@value #ORIGIN_PROPERTY} (epoch milliseconds) and {@value #SCALE_PROPERTY} (a factor, e.g. 60: a minutely
 * cycle lasts one real second). The time is then {@code origin + (wall − origin) × scale}; every JVM given the
 * same origin and scale agrees on it. {@link #useForTests(JournalClock)} replaces the clock in-process. Neither
 * is meant for production: a journal appended under a scaled clock has cycles named for times that have not
 * come yet.
 * <p>
 * Immutable and thread-safe.
 */
public final class JournalClock
{
    /** The system property naming the scaled clock's origin, in epoch milliseconds (tests only). */
    public static final String ORIGIN_PROPERTY = "weir.clock.origin";
    /** The system property naming the scaled clock's factor (tests only). */
    public static final String SCALE_PROPERTY = "weir.clock.scale";

    private static final JournalClock SYSTEM = new JournalClock(SystemTimeProvider.INSTANCE, "system");
    private static final JournalClock CONFIGURED = fromProperties(System.getProperty(ORIGIN_PROPERTY), System.getProperty(SCALE_PROPERTY));
    private static volatile JournalClock current = CONFIGURED;

    private final TimeProvider time;
    private final String description;

    private JournalClock(final TimeProvider time, final String description)
    {
        this.time = time;
        this.description = description;
    }

    /**
     * @return the clock every queue opened from now on uses: the system clock, the scaled one the system
     *         properties configure, or the one a test installed.
     */
    public static JournalClock current()
    {
        return current;
    }

    /**
     * @return the system clock.
     */
    public static JournalClock system()
    {
        return SYSTEM;
    }

    /**
     * A clock running {@code scale} times as fast as the wall clock from {@code origin} on (tests only).
     *
     * @param originMillis the epoch milliseconds at which it agrees with the wall clock.
     * @param scale        how much faster it runs; 1 is the wall clock.
     * @return the clock.
     * @throws IllegalArgumentException if the scale is not positive.
     */
    public static JournalClock scaled(final long originMillis, final double scale)
    {
        if (!(scale > 0) || Double.isInfinite(scale))
        {
            throw new IllegalArgumentException("clock scale " + scale + " is not a positive number");
        }
        return new JournalClock(
            () -> originMillis + (long)((SystemTimeProvider.INSTANCE.currentTimeMillis() - originMillis) * scale),
            "scaled x" + scale + " from " + java.time.Instant.ofEpochMilli(originMillis));
    }

    /**
     * A clock that reads what {@code millis} says (tests only, e.g. a settable one).
     *
     * @param millis gives the time in epoch milliseconds; called from any thread.
     * @return the clock.
     */
    public static JournalClock of(final java.util.function.LongSupplier millis)
    {
        return new JournalClock(millis::getAsLong, "supplied");
    }

    /**
     * Install a clock for the queues opened from now on in this JVM (tests only); queues already open keep theirs.
     *
     * @param clock the clock, or null for the one this JVM started with (the system properties').
     * @return the clock that was installed before, to give back when done.
     */
    public static JournalClock useForTests(final JournalClock clock)
    {
        final JournalClock before = current;
        current = clock == null ? CONFIGURED : clock;
        return before;
    }

    static JournalClock fromProperties(final String origin, final String scale)
    {
        if (scale == null || scale.isBlank())
        {
            return SYSTEM;
        }
        try
        {
            final long originMillis = origin == null || origin.isBlank() ? System.currentTimeMillis() : Long.parseLong(origin.trim());
            return scaled(originMillis, Double.parseDouble(scale.trim()));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(
                "-D" + ORIGIN_PROPERTY + "=" + origin + " -D" + SCALE_PROPERTY + "=" + scale + " is not a valid test clock: " + ex.getMessage(), ex);
        }
    }

    /**
     * @return the time by this clock, in epoch milliseconds.
     */
    public long now()
    {
        return time.currentTimeMillis();
    }

    TimeProvider timeProvider()
    {
        return time;
    }

    @Override
    public String toString()
    {
        return description;
    }
}
