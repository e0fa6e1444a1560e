package dev.weir.journal.schema;

/**
 * The rule for the values of a string column, except the default schema's {@code key} column (which keeps
 * {@link KeyFormat}): 1 to {@value JournalSchema#MAX_STRING_BYTES} bytes of UTF-8, without a line break.
 * Stateless and thread-safe; checks allocate nothing.
 */
public final class StringFormat
{
    private StringFormat()
    {
    }

    /**
     * @param text a string.
     * @return its length in UTF-8 bytes (a surrogate pair is one 4-byte character).
     */
    public static int utf8Length(final CharSequence text)
    {
        final int n = text.length();
        int bytes = 0;
        for (int i = 0; i < n; i++)
        {
            final char c = text.charAt(i);
            if (c < 0x80)
            {
                bytes++;
            }
            else if (c < 0x800)
            {
                bytes += 2;
            }
            else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1)))
            {
                bytes += 4;
                i++;
            }
            else
            {
                bytes += 3;
            }
        }
        return bytes;
    }

    /**
     * @param text a candidate value.
     * @return null if valid, else why not, in a few words: {@code empty string}, {@code string over 256 bytes},
     *         {@code line break}.
     */
    public static String whyInvalid(final CharSequence text)
    {
        if (text.length() == 0)
        {
            return "empty string";
        }
        if (utf8Length(text) > JournalSchema.MAX_STRING_BYTES)
        {
            return "string over " + JournalSchema.MAX_STRING_BYTES + " bytes";
        }
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c == '\n' || c == '\r')
            {
                return "line break";
            }
        }
        return null;
    }
}
