package dev.weir.journal.files;

/**
 * Quoting for CSV fields (RFC 4180): a field with a comma, quote or line break is wrapped in quotes,
 * quotes doubled. Stateless and thread-safe.
 */
public final class CsvText
{
    private CsvText()
    {
    }

    public static String quote(final String field)
    {
        boolean needs = false;
        for (int i = 0; i < field.length() && !needs; i++)
        {
            final char c = field.charAt(i);
            needs = c == ',' || c == '"' || c == '\n' || c == '\r';
        }
        return needs ? '"' + field.replace("\"", "\"\"") + '"' : field;
    }
}
