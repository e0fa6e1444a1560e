package dev.weir.engine.aggregate;

/**
 * The stable spelling of a value or filter inside a list of named aggregates, read without a schema: its tokens
 * (columns, numbers as written, strings as written, operators), keywords ({@code and or not in}) in lower case, one
 * space between two words and on each side of a keyword, none elsewhere. Stateless; thread-safe.
 */
final class ExpressionText
{
    private ExpressionText()
    {
    }

    /**
     * @param text a value or filter, as written.
     * @return its tokens, spelled as above.
     */
    static String normalise(final String text)
    {
        final StringBuilder out = new StringBuilder(text.length());
        boolean lastWasWord = false;
        boolean lastWasKeyword = false;
        int at = 0;
        while (at < text.length())
        {
            final char c = text.charAt(at);
            if (Character.isWhitespace(c))
            {
                at++;
                continue;
            }
            final int start = at;
            final boolean word;
            if (c == '\'')
            {
                at = endOfString(text, at);
                word = true;
            }
            else if (isWordPart(c) || c == '.' && at + 1 < text.length() && Character.isDigit(text.charAt(at + 1)))
            {
                while (at < text.length() && (isWordPart(text.charAt(at)) || text.charAt(at) == '.'))
                {
                    at++;
                }
                word = true;
            }
            else
            {
                at += at + 1 < text.length() && text.charAt(at + 1) == '=' && "<>!=".indexOf(c) >= 0 ? 2 : 1;
                word = false;
            }
            final String token = text.substring(start, at);
            final boolean keyword = isKeyword(token);
            if (out.length() > 0 && (word && lastWasWord || keyword || lastWasKeyword))
            {
                out.append(' ');
            }
            out.append(keyword ? token.toLowerCase(java.util.Locale.ROOT) : token);
            lastWasWord = word;
            lastWasKeyword = keyword;
        }
        return out.toString();
    }

    /**
     * @param text a text.
     * @param quote the index of a string's opening quote.
     * @return the index after its closing quote ({@code ''} is a quote inside), or the text's length if unclosed.
     */
    static int endOfString(final String text, final int quote)
    {
        int at = quote + 1;
        while (at < text.length())
        {
            if (text.charAt(at) == '\'')
            {
                if (at + 1 < text.length() && text.charAt(at + 1) == '\'')
                {
                    at += 2;
                    continue;
                }
                return at + 1;
            }
            at++;
        }
        return at;
    }

    static boolean isWordStart(final char c)
    {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    static boolean isWordPart(final char c)
    {
        return isWordStart(c) || (c >= '0' && c <= '9');
    }

    private static boolean isKeyword(final String token)
    {
        return token.equalsIgnoreCase("and") || token.equalsIgnoreCase("or") || token.equalsIgnoreCase("not") || token.equalsIgnoreCase("in");
    }
}
