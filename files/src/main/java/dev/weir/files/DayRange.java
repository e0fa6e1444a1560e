package dev.weir.files;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/**
 * A range of UTC days, both ends included, as {@code --days} gives it: {@code YYYY-MM-DD} for one day or
 * {@code YYYY-MM-DD..YYYY-MM-DD}, the earlier day first. Days are counted as epoch days (days since
 * 1970-01-01), the unit of the date partitions. Immutable and thread-safe.
 *
 * @param first the first day, in epoch days.
 * @param last  the last day, in epoch days, not before {@code first}.
 */
public record DayRange(long first, long last)
{
    private static final String FORMS = "use YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD, e.g. 2026-11-29..2026-11-30";

    /**
     * @param text the flag's value.
     * @return the range.
     * @throws IllegalArgumentException if it is not a date or an ascending range of dates.
     */
    public static DayRange parse(final String text)
    {
        final int dots = text.indexOf("..");
        final LocalDate from = date(dots < 0 ? text : text.substring(0, dots), text);
        final LocalDate to = dots < 0 ? from : date(text.substring(dots + 2), text);
        if (to.isBefore(from))
        {
            throw new IllegalArgumentException("'" + text + "': " + from + " is after " + to + " (give the earlier day first)");
        }
        return new DayRange(from.toEpochDay(), to.toEpochDay());
    }

    private static LocalDate date(final String text, final String whole)
    {
        try
        {
            return LocalDate.parse(text);
        }
        catch (final DateTimeParseException ex)
        {
            throw new IllegalArgumentException((text.equals(whole) ? "" : "'" + whole + "': ") + "'" + text + "' is not a date (" + FORMS + ")");
        }
    }

    /**
     * @param epochDay a day.
     * @return true if the range holds it.
     */
    public boolean contains(final long epochDay)
    {
        return epochDay >= first && epochDay <= last;
    }

    @Override
    public String toString()
    {
        final String from = LocalDate.ofEpochDay(first).toString();
        return first == last ? from : from + ".." + LocalDate.ofEpochDay(last);
    }
}
