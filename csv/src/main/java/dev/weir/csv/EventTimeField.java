package dev.weir.csv;

import dev.weir.journal.EventJournal;
import dev.weir.journal.schema.FieldParser;

/**
 * The {@code event_time} field of a CSV line, an event's or a table row's: a 64-bit integer of epoch milliseconds
 * or an ISO-8601 instant with an offset ({@link IsoInstant}), neither negative (before 1970) nor later than
 * {@link EventJournal#MAX_EVENT_TIME}, with the one set of reasons a line is rejected for. Reading allocates
 * nothing for a valid field.
 * <p>
 * Not thread-safe: a reusable reader holding the last time read; one owner thread.
 */
final class EventTimeField
{
    private final IsoInstant instant = new IsoInstant();
    private long millis;

    /**
     * @param text  the text holding the field.
     * @param start the field's first character.
     * @param end   one past its last.
     * @return true if it is a time ({@link #millis()} is then its value; {@link #whyOutOfRange()} tells if it is
     *         out of range), false if not ({@link #notATime} is the reason).
     */
    boolean read(final String text, final int start, final int end)
    {
        if (end - start > 4 && text.charAt(start + 4) == '-' && instant.read(text, start, end)) // before throwing for each ISO time
        {
            millis = instant.millis();
            return true;
        }
        try
        {
            millis = Long.parseLong(text, start, end, 10);
            return true;
        }
        catch (final NumberFormatException ex)
        {
            return false;
        }
    }

    /**
     * @param field the text of a field that is not a time.
     * @return the reason its line is rejected.
     */
    static String notATime(final String field)
    {
        return "event_time is neither epoch milliseconds nor an ISO-8601 instant (" + CsvLineParser.ISO_EXAMPLE + "): '"
            + FieldParser.shown(field) + "'";
    }

    /** @return null if the last time read is in range, else the reason its line is rejected. */
    String whyOutOfRange()
    {
        if (millis < 0)
        {
            return "event_time is negative: " + millis;
        }
        if (millis > EventJournal.MAX_EVENT_TIME)
        {
            return "event_time is later than " + EventJournal.MAX_EVENT_TIME + ": " + millis;
        }
        return null;
    }

    /** @return the last valid time read, epoch ms. */
    long millis()
    {
        return millis;
    }
}
