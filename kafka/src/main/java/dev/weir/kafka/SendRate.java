package dev.weir.kafka;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * Paces sends to a rate given as {@code N/s} (or {@code N}): the n-th send waits until {@code n / N} seconds after
 * the first, so the rate holds on average whatever the pauses; a sender that falls behind catches up without
 * waiting. Waits shorter than a millisecond are skipped (they add up and are taken at once later). Not thread-safe:
 * one sender thread.
 */
public final class SendRate
{
    private static final long MIN_WAIT_NANOS = 1_000_000L;

    private final double nanosPerSend;
    private final LongSupplier nanoClock;
    private final LongConsumer park;
    private long started;
    private long sent;

    /**
     * @param perSecond sends per second, positive and finite.
     * @throws IllegalArgumentException if it is not.
     */
    public SendRate(final double perSecond)
    {
        this(positive(perSecond, Double.toString(perSecond)), System::nanoTime, LockSupport::parkNanos);
    }

    /**
     * @param perSecond sends per second.
     * @param nanoClock the clock, in nanoseconds ({@link System#nanoTime()}).
     * @param park      waits about the given nanoseconds ({@link LockSupport#parkNanos(long)}).
     */
    SendRate(final double perSecond, final LongSupplier nanoClock, final LongConsumer park)
    {
        this.nanosPerSend = 1e9 / perSecond;
        this.nanoClock = nanoClock;
        this.park = park;
    }

    /**
     * @param text a positive number of sends per second, with or without {@code /s} (e.g. {@code 5000/s}).
     * @return its pacing.
     * @throws IllegalArgumentException if it is not such a number; its message starts with the text given.
     */
    public static SendRate parse(final String text)
    {
        final String number = text.trim().endsWith("/s") ? text.trim().substring(0, text.trim().length() - 2) : text.trim();
        final double perSecond;
        try
        {
            perSecond = Double.parseDouble(number.replace("_", ""));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(text + ": not a rate (give records per second, e.g. 5000/s)");
        }
        return new SendRate(positive(perSecond, text), System::nanoTime, LockSupport::parkNanos);
    }

    private static double positive(final double perSecond, final String shown)
    {
        if (!(perSecond > 0) || Double.isInfinite(perSecond))
        {
            throw new IllegalArgumentException(shown + ": the rate must be positive (records per second, e.g. 5000/s)");
        }
        return perSecond;
    }

    /**
     * Wait, if need be, before the next send.
     */
    public void awaitNext()
    {
        final long now = nanoClock.getAsLong();
        if (sent == 0)
        {
            started = now;
        }
        final long due = started + (long)(sent * nanosPerSend);
        sent++;
        long wait = due - now;
        while (wait >= MIN_WAIT_NANOS)
        {
            park.accept(wait);
            wait = due - nanoClock.getAsLong();
        }
    }
}
