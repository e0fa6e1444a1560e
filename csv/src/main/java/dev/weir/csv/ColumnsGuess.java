package dev.weir.csv;

import dev.weir.journal.schema.JournalSchema;

/**
 * The {@code --columns} an events CSV probably has, guessed from its header and its first data line, for the message
 * that refuses a header other than the default columns' when no columns were given: each name of the header after
 * {@code event_id,event_time}, typed by its field in the first data line: {@code long} for an integer,
 * {@code decimal(N)} for a number with N decimals, {@code string} for anything else, and
 * {@code <long|decimal(2)|string>}, for the user to fill in, when there is no such field. A guess: the message says so.
 * Stateless and thread-safe.
 */
final class ColumnsGuess
{
    private static final String PREFIX = "event_id,event_time,";
    private static final String UNKNOWN = "<long|decimal(2)|string>";

    private ColumnsGuess()
    {
    }

    /**
     * @param input  the events CSV's name, as a message names it.
     * @param header its first line.
     * @param first  its second line (the first event), or null if it has none or it is not valid UTF-8.
     * @return the message refusing the header, with the columns to pass; or null if the header does not start with
     *         {@code event_id,event_time} and one more name, so there is nothing to guess.
     */
    static String refusal(final String input, final String header, final String first)
    {
        final String trimmed = header.trim();
        if (!trimmed.startsWith(PREFIX) || trimmed.length() == PREFIX.length())
        {
            return null;
        }
        final String[] names = trimmed.substring(PREFIX.length()).split(",", -1);
        final CsvFields fields = new CsvFields();
        final boolean split = first != null && fields.split(first, null) == null;
        final StringBuilder columns = new StringBuilder();
        for (int i = 0; i < names.length; i++)
        {
            columns.append(i == 0 ? "" : ",").append(names[i].strip()).append(':');
            columns.append(split && i + 2 < Math.min(fields.count(), CsvFields.MAX_FIELDS) ? type(fields.text(i + 2).strip()) : UNKNOWN);
        }
        final JournalSchema defaults = JournalSchema.DEFAULT;
        return "the header of " + input + " names " + String.join(",", names) + ", not the default "
            + defaults.column(0).name() + "," + defaults.column(1).name() + ": pass the columns, e.g.\n  --columns '" + columns
            + "'\n(the types are guessed from the first line: check them)";
    }

    /** @return the type a field's text looks like. */
    private static String type(final String text)
    {
        final int point = text.indexOf('.');
        final String digits = text.startsWith("-") ? text.substring(1) : text;
        if (point < 0)
        {
            return isDigits(digits) && digits.length() <= 18 ? "long" : text.isEmpty() ? UNKNOWN : "string";
        }
        final String whole = text.substring(text.startsWith("-") ? 1 : 0, point);
        final String fraction = text.substring(point + 1);
        return isDigits(whole) && isDigits(fraction) && fraction.length() <= 18 ? "decimal(" + fraction.length() + ")" : "string";
    }

    private static boolean isDigits(final String text)
    {
        if (text.isEmpty())
        {
            return false;
        }
        for (int i = 0; i < text.length(); i++)
        {
            if (text.charAt(i) < '0' || text.charAt(i) > '9')
            {
                return false;
            }
        }
        return true;
    }
}
