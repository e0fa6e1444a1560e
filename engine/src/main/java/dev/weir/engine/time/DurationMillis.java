package dev.weir.engine.time;

import java.time.Duration;
import java.util.Objects;

/**
 * A time span of the Java API ({@link Duration}) as the engine keeps it: whole milliseconds. A span that is not
 * a whole number of milliseconds, or does not fit a long in milliseconds, is refused, naming the setting; the
 * setting checks its own range (a negative span included) as it does for milliseconds. Stateless and thread-safe.
 */
public final class DurationMillis
{
    private DurationMillis()
    {
    }

    /**
     * @param setting  the setting's name, for the message, e.g. {@code window size}.
     * @param duration the span.
     * @return it in milliseconds.
     * @throws IllegalArgumentException if it is not a whole number of milliseconds, or too long.
     * @throws NullPointerException     if it is null.
     */
    public static long of(final String setting, final Duration duration)
    {
        Objects.requireNonNull(duration, setting);
        if (duration.getNano() % 1_000_000 != 0)
        {
            throw new IllegalArgumentException(setting + " must be a whole number of milliseconds: " + duration);
        }
        try
        {
            return duration.toMillis();
        }
        catch (final ArithmeticException ex)
        {
            throw new IllegalArgumentException(setting + " is too long: " + duration, ex);
        }
    }
}
