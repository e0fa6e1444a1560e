package dev.weir.csv;

import java.util.Arrays;

/**
 * Reads one JSON object (RFC 8259) from its UTF-8 bytes, member by member, without allocating once its buffer has
 * grown: each member's name and value are handed to a {@link Members} with their bytes, a string's escapes already
 * resolved. A member whose value is an object or an array is handed over as that kind, its contents checked and
 * skipped. Bytes of strings are copied as they are; whether they are valid UTF-8 is for the receiver to check.
 * <p>
 * Not thread-safe: one per decoding thread.
 */
final class JsonObjectReader
{
    /** A member's value is a string: its bytes are its text, escapes resolved. */
    static final int STRING = 1;
    /** A member's value is a number: its bytes are its text as written. */
    static final int NUMBER = 2;
    /** A member's value is {@code true} or {@code false}. */
    static final int BOOLEAN = 3;
    /** A member's value is {@code null}. */
    static final int NULL = 4;
    /** A member's value is an object. */
    static final int OBJECT = 5;
    /** A member's value is an array. */
    static final int ARRAY = 6;

    private static final int MAX_DEPTH = 64;

    /**
     * Receives the members of an object as they are read.
     */
    interface Members
    {
        /**
         * @param name      holds the member's name, escapes resolved.
         * @param nameStart its first byte.
         * @param nameEnd   one past its last.
         * @param kind      {@link #STRING}, {@link #NUMBER}, {@link #BOOLEAN}, {@link #NULL}, {@link #OBJECT} or {@link #ARRAY}.
         * @param value     holds a string's or number's text (not the other kinds').
         * @param start     its first byte.
         * @param end       one past its last.
         * @return null to go on, or why the object is refused (the reading stops with it).
         */
        String member(byte[] name, int nameStart, int nameEnd, int kind, byte[] value, int start, int end);
    }

    private byte[] text = new byte[256];
    private int length;
    private byte[] bytes;
    private int end;
    private int at;
    private String error;
    private int numberStart;
    private int numberEnd;

    /**
     * Read an object that is the whole of {@code bytes[start, end)}, whitespace around it aside.
     *
     * @return null if it is a valid object and every member was taken, else why not.
     */
    String read(final byte[] input, final int start, final int stop, final Members members)
    {
        bytes = input;
        end = stop;
        at = start;
        error = null;
        skipSpace();
        if (at >= end || bytes[at] != '{')
        {
            return at >= end ? "not a JSON object: empty" : fail("not a JSON object");
        }
        at++;
        skipSpace();
        if (at < end && bytes[at] == '}')
        {
            at++;
            return trailing();
        }
        while (true)
        {
            skipSpace();
            if (at >= end || bytes[at] != '"')
            {
                return fail("expected a member name");
            }
            length = 0;
            if (!string())
            {
                return error;
            }
            final int nameEnd = length;
            skipSpace();
            if (at >= end || bytes[at] != ':')
            {
                return fail("expected ':'");
            }
            at++;
            skipSpace();
            final int valueStart = length;
            final int kind = value();
            if (kind < 0)
            {
                return error;
            }
            final String why = members.member(text, 0, nameEnd, kind, kind == STRING ? text : bytes, kind == STRING ? valueStart : numberStart,
                kind == STRING ? length : numberEnd);
            if (why != null)
            {
                return why;
            }
            skipSpace();
            if (at < end && bytes[at] == ',')
            {
                at++;
                continue;
            }
            if (at < end && bytes[at] == '}')
            {
                at++;
                return trailing();
            }
            return fail("expected ',' or '}'");
        }
    }

    private String trailing()
    {
        skipSpace();
        return at == end ? null : fail("more after the object");
    }

    /** Read a value at {@link #at}; a string's text is appended to {@link #text}. @return its kind, or -1 on an error. */
    private int value()
    {
        if (at >= end)
        {
            fail("expected a value");
            return -1;
        }
        final byte b = bytes[at];
        if (b == '"')
        {
            return string() ? STRING : -1;
        }
        if (b == '-' || (b >= '0' && b <= '9'))
        {
            return number() ? NUMBER : -1;
        }
        if (b == '{' || b == '[')
        {
            final int kind = b == '{' ? OBJECT : ARRAY;
            final int mark = length;
            final boolean valid = nested(1);
            length = mark;
            return valid ? kind : -1;
        }
        if (literal("true") || literal("false"))
        {
            return BOOLEAN;
        }
        if (literal("null"))
        {
            return NULL;
        }
        fail("not a JSON value");
        return -1;
    }

    /** Check and skip an object or array at {@link #at}. */
    private boolean nested(final int depth)
    {
        if (depth > MAX_DEPTH)
        {
            return failed("nested deeper than " + MAX_DEPTH);
        }
        final boolean object = bytes[at] == '{';
        final byte close = object ? (byte)'}' : (byte)']';
        at++;
        skipSpace();
        if (at < end && bytes[at] == close)
        {
            at++;
            return true;
        }
        while (true)
        {
            skipSpace();
            if (object)
            {
                if (at >= end || bytes[at] != '"')
                {
                    return failed("expected a member name");
                }
                if (!string())
                {
                    return false;
                }
                skipSpace();
                if (at >= end || bytes[at] != ':')
                {
                    return failed("expected ':'");
                }
                at++;
                skipSpace();
            }
            if (at < end && (bytes[at] == '{' || bytes[at] == '['))
            {
                if (!nested(depth + 1))
                {
                    return false;
                }
            }
            else if (value() < 0)
            {
                return false;
            }
            skipSpace();
            if (at < end && bytes[at] == ',')
            {
                at++;
                continue;
            }
            if (at < end && bytes[at] == close)
            {
                at++;
                return true;
            }
            return failed("expected ',' or '" + (char)close + "'");
        }
    }

    private boolean literal(final String word)
    {
        final int n = word.length();
        if (end - at < n)
        {
            return false;
        }
        for (int i = 0; i < n; i++)
        {
            if (bytes[at + i] != word.charAt(i))
            {
                return false;
            }
        }
        at += n;
        return true;
    }

    /** Read a number's text as RFC 8259 has it into {@link #numberStart} and {@link #numberEnd}. */
    private boolean number()
    {
        numberStart = at;
        if (bytes[at] == '-')
        {
            at++;
        }
        if (at < end && bytes[at] == '0')
        {
            at++;
        }
        else if (!digits())
        {
            return failed("not a JSON number");
        }
        if (at < end && bytes[at] == '.')
        {
            at++;
            if (!digits())
            {
                return failed("not a JSON number");
            }
        }
        if (at < end && (bytes[at] == 'e' || bytes[at] == 'E'))
        {
            at++;
            if (at < end && (bytes[at] == '+' || bytes[at] == '-'))
            {
                at++;
            }
            if (!digits())
            {
                return failed("not a JSON number");
            }
        }
        numberEnd = at;
        return true;
    }

    private boolean digits()
    {
        final int from = at;
        while (at < end && bytes[at] >= '0' && bytes[at] <= '9')
        {
            at++;
        }
        return at > from;
    }

    /** Read a string at {@link #at} (its opening quote), appending its text to {@link #text}. */
    private boolean string()
    {
        at++;
        while (at < end)
        {
            final byte b = bytes[at];
            if (b == '"')
            {
                at++;
                return true;
            }
            if (b == '\\')
            {
                if (!escape())
                {
                    return false;
                }
                continue;
            }
            if ((b & 0xFF) < 0x20)
            {
                return failed("a control character in a string");
            }
            put(b);
            at++;
        }
        return failed("a string without its closing quote");
    }

    /** Resolve the escape at {@link #at} (its backslash); an error names the backslash's byte. */
    private boolean escape()
    {
        final int slash = at;
        if (at + 1 >= end)
        {
            return failed("a string without its closing quote");
        }
        final byte e = bytes[at + 1];
        at += 2;
        switch (e)
        {
            case '"', '\\', '/' -> put(e);
            case 'b' -> put((byte)'\b');
            case 'f' -> put((byte)'\f');
            case 'n' -> put((byte)'\n');
            case 'r' -> put((byte)'\r');
            case 't' -> put((byte)'\t');
            case 'u' ->
            {
                int c = hex4();
                if (c < 0)
                {
                    return failedAt(slash, "a bad \\u escape");
                }
                if (c >= 0xD800 && c <= 0xDBFF)
                {
                    if (end - at < 6 || bytes[at] != '\\' || bytes[at + 1] != 'u')
                    {
                        return failedAt(slash, "a lone surrogate escape");
                    }
                    at += 2;
                    final int low = hex4();
                    if (low < 0xDC00 || low > 0xDFFF)
                    {
                        return failedAt(slash, low < 0 ? "a bad \\u escape" : "a lone surrogate escape");
                    }
                    c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
                }
                else if (c >= 0xDC00 && c <= 0xDFFF)
                {
                    return failedAt(slash, "a lone surrogate escape");
                }
                putCodePoint(c);
            }
            default ->
            {
                return failedAt(slash, "a bad escape");
            }
        }
        return true;
    }

    /** @return the four hex digits at {@link #at} as a number (moving past them), or -1 if they are not. */
    private int hex4()
    {
        if (end - at < 4)
        {
            return -1;
        }
        int c = 0;
        for (int i = 0; i < 4; i++)
        {
            final int d = Character.digit(bytes[at + i], 16);
            if (d < 0)
            {
                return -1;
            }
            c = (c << 4) | d;
        }
        at += 4;
        return c;
    }

    private boolean failedAt(final int position, final String what)
    {
        at = position;
        return failed(what);
    }

    private void putCodePoint(final int c)
    {
        if (c < 0x80)
        {
            put((byte)c);
        }
        else if (c < 0x800)
        {
            put((byte)(0xC0 | c >> 6));
            put((byte)(0x80 | c & 0x3F));
        }
        else if (c < 0x10000)
        {
            put((byte)(0xE0 | c >> 12));
            put((byte)(0x80 | c >> 6 & 0x3F));
            put((byte)(0x80 | c & 0x3F));
        }
        else
        {
            put((byte)(0xF0 | c >> 18));
            put((byte)(0x80 | c >> 12 & 0x3F));
            put((byte)(0x80 | c >> 6 & 0x3F));
            put((byte)(0x80 | c & 0x3F));
        }
    }

    private void put(final byte b)
    {
        if (length == text.length)
        {
            text = Arrays.copyOf(text, text.length * 2);
        }
        text[length++] = b;
    }

    private void skipSpace()
    {
        while (at < end && (bytes[at] == ' ' || bytes[at] == '\t' || bytes[at] == '\n' || bytes[at] == '\r'))
        {
            at++;
        }
    }

    /** Record an error at {@link #at}. @return false. */
    private boolean failed(final String what)
    {
        fail(what);
        return false;
    }

    /** Record an error at {@link #at}. @return the error, never null. */
    private String fail(final String what)
    {
        error = what + " at byte " + at;
        return error;
    }
}
