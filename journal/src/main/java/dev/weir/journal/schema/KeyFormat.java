package dev.weir.journal.schema;

/**
 * The rule for event keys: 1 to {@value #MAX_LENGTH} characters from {@code [A-Za-z0-9_-]}.
 * Stateless and thread-safe; checks allocate nothing.
 */
public final class KeyFormat
{
    /** The longest key accepted. */
    public static final int MAX_LENGTH = 64;

    private KeyFormat()
    {
    }

    /**
     * @param key a candidate key.
     * @return true if {@code key} is a valid key.
     */
    public static boolean isValid(final CharSequence key)
    {
        final int length = key.length();
        if (length < 1 || length > MAX_LENGTH)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            final char c = key.charAt(i);
            final boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
            if (!ok)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @param key a candidate key.
     * @return null if valid, else why not, in a few words.
     */
    public static String whyInvalid(final CharSequence key)
    {
        if (key.length() == 0)
        {
            return "empty key";
        }
        if (key.length() > MAX_LENGTH)
        {
            return "key longer than " + MAX_LENGTH + " characters";
        }
        return isValid(key) ? null : "key has characters outside [A-Za-z0-9_-]";
    }
}
