package dev.weir.engine.aggregate;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Recursive descent over a list of named aggregates ({@link NamedAggregates} states the grammar): the names, the
 * result trees, each call's value and filter as written (they are read with the schema when the list is bound).
 * {@link #at} is the 0-based index of the next character. One use, one thread.
 */
final class AggregateParser
{
    /** The functions, in the order an error lists them. */
    static final List<String> FUNCTIONS = List.of("count", "sum", "min", "max", "first", "last", "avg", "approx_distinct");
    private static final String EXPECTED_FUNCTIONS = "expected count, sum, min, max, first, last, avg or approx_distinct";
    /** Names a result row gives other columns. */
    static final Set<String> RESERVED = Set.of("window_start", "window_end", "version", "kind", "source_offset", "early", "event_id",
        "event_time");
    private static final int MAX_NAME = 63;

    /** One named aggregate: its name, where the name is, and its result. */
    record Definition(String name, int position, AggregateSyntax result)
    {
    }

    private final String text;
    private final List<Definition> definitions = new ArrayList<>();
    private int at;

    AggregateParser(final String text)
    {
        this.text = text;
    }

    List<Definition> list()
    {
        do
        {
            definitions.add(named());
            skipSpaces();
        }
        while (consume(','));
        if (at < text.length())
        {
            throw error(at, "unexpected '" + text.charAt(at) + "'", "expected ',', an operator or the end");
        }
        return List.copyOf(definitions);
    }

    private Definition named()
    {
        skipSpaces();
        final int start = at;
        final String name = word();
        if (name.isEmpty())
        {
            throw error(at, at < text.length() ? "unexpected '" + text.charAt(at) + "'" : "missing aggregate", "expected NAME=FUNCTION(VALUE)");
        }
        if (!name.matches("[a-z_][a-z0-9_]*") || name.length() > MAX_NAME)
        {
            throw error(start, "bad name '" + name + "'",
                "expected lower-case letters, digits and '_', at most " + MAX_NAME + ", not starting with a digit");
        }
        if (RESERVED.contains(name))
        {
            throw error(start, "reserved name '" + name + "'", "a result row has a column of that name; choose another");
        }
        if (indexOf(name) >= 0)
        {
            throw error(start, "repeated name '" + name + "'", "each aggregate needs its own name");
        }
        if (definitions.size() == NamedAggregates.MAX)
        {
            throw error(start, "more than " + NamedAggregates.MAX + " aggregates", null);
        }
        if (!consume('='))
        {
            throw error(at, "missing '=' after '" + name + "'", "expected NAME=FUNCTION(VALUE)");
        }
        return new Definition(name, start, result());
    }

    private AggregateSyntax result()
    {
        AggregateSyntax left = term();
        while (true)
        {
            skipSpaces();
            final int position = at;
            if (consume('+') || consume('-'))
            {
                left = new AggregateSyntax.Arithmetic(text.charAt(position), left, term(), position);
            }
            else
            {
                return left;
            }
        }
    }

    private AggregateSyntax term()
    {
        AggregateSyntax left = unary();
        while (true)
        {
            skipSpaces();
            final int position = at;
            if (consume('*') || consume('/'))
            {
                left = new AggregateSyntax.Arithmetic(text.charAt(position), left, unary(), position);
            }
            else
            {
                return left;
            }
        }
    }

    private AggregateSyntax unary()
    {
        skipSpaces();
        final int start = at;
        if (consume('-'))
        {
            skipSpaces();
            if (at < text.length() && isDigit(text.charAt(at)))
            {
                return literal(start, true);
            }
            return new AggregateSyntax.Negation(unary(), start);
        }
        if (consume('('))
        {
            final AggregateSyntax inner = result();
            if (!consume(')'))
            {
                throw error(at, at < text.length() ? "unexpected '" + text.charAt(at) + "'" : "missing ')'", "expected ')' or an operator");
            }
            return inner;
        }
        if (at < text.length() && isDigit(text.charAt(at)))
        {
            return literal(start, false);
        }
        final String word = word();
        if (word.isEmpty())
        {
            throw error(at, at < text.length() ? "unexpected '" + text.charAt(at) + "'" : "missing value",
                "expected a function call, an earlier aggregate's name, a number or '('");
        }
        skipSpaces();
        if (at < text.length() && text.charAt(at) == '(')
        {
            return call(word, start);
        }
        final int earlier = indexOf(word);
        if (earlier < 0)
        {
            throw error(start, "unknown aggregate '" + word + "'", FUNCTIONS.contains(word)
                ? "expected '(' after the function's name" : "expected a function call or an earlier aggregate's name" + earlierNames());
        }
        return new AggregateSyntax.Reference(word, definitions.get(earlier).result(), start);
    }

    private AggregateSyntax call(final String function, final int start)
    {
        if (!FUNCTIONS.contains(function))
        {
            throw error(start, "unknown function '" + function + "'", EXPECTED_FUNCTIONS);
        }
        consume('(');
        final int valueAt = at;
        final int close = closing(valueAt);
        final String value = text.substring(valueAt, close);
        at = close + 1;
        final boolean none = value.isBlank();
        if (function.equals("count") && !none)
        {
            throw error(valueAt, "count takes no value", "expected count()");
        }
        if (!function.equals("count") && none)
        {
            throw error(valueAt, function + " needs a value", function.equals("approx_distinct")
                ? "expected a column, e.g. approx_distinct(card)" : "expected e.g. " + function + "(amount)");
        }
        if (function.equals("approx_distinct") && !isColumnName(value.strip()))
        {
            throw error(valueAt + leadingSpaces(value), "approx_distinct takes one column", "expected a column, e.g. approx_distinct(card)");
        }
        if (!keyword("filter"))
        {
            return new AggregateSyntax.Call(function, start, none ? null : value, valueAt, null, -1);
        }
        if (!consume('('))
        {
            throw error(at, "missing '(' after 'filter'", "expected filter (where CONDITION)");
        }
        if (!keyword("where"))
        {
            throw error(at, "missing 'where'", "expected filter (where CONDITION)");
        }
        final int filterAt = at;
        final int end = closing(filterAt);
        final String filter = text.substring(filterAt, end);
        if (filter.isBlank())
        {
            throw error(end, "missing condition", "expected filter (where CONDITION)");
        }
        at = end + 1;
        return new AggregateSyntax.Call(function, start, none ? null : value, valueAt, filter, filterAt);
    }

    /** @return the index of the ')' closing the '(' just before {@code from}: parentheses nest, strings are skipped. */
    private int closing(final int from)
    {
        int depth = 0;
        int i = from;
        while (i < text.length())
        {
            final char c = text.charAt(i);
            if (c == '\'')
            {
                i = ExpressionText.endOfString(text, i);
                continue;
            }
            if (c == '(')
            {
                depth++;
            }
            else if (c == ')')
            {
                if (depth == 0)
                {
                    return i;
                }
                depth--;
            }
            i++;
        }
        throw error(text.length(), "missing ')'", "expected ')' to close the '(' at position " + from);
    }

    private AggregateSyntax literal(final int start, final boolean negative)
    {
        final int digits = at;
        while (at < text.length() && isDigit(text.charAt(at)))
        {
            at++;
        }
        if (at < text.length() && text.charAt(at) == '.')
        {
            at++;
            final int fraction = at;
            while (at < text.length() && isDigit(text.charAt(at)))
            {
                at++;
            }
            if (at == fraction)
            {
                throw error(at, "missing digits after '.'", null);
            }
        }
        if (at < text.length() && ExpressionText.isWordPart(text.charAt(at)))
        {
            throw error(at, "unexpected '" + text.charAt(at) + "' in a number", "expected an operator after the number");
        }
        final BigDecimal literal = new BigDecimal((negative ? "-" : "") + text.substring(digits, at));
        if (literal.scale() > 18)
        {
            throw error(start, "'" + literal.toPlainString() + "' has more than 18 decimals", null);
        }
        try
        {
            return new AggregateSyntax.Literal(literal.unscaledValue().longValueExact(), literal.scale(), literal.toPlainString(), start);
        }
        catch (final ArithmeticException ex)
        {
            throw error(start, "'" + literal.toPlainString() + "' does not fit a long at its scale", null);
        }
    }

    private String earlierNames()
    {
        return definitions.isEmpty() ? "" : " (" + String.join(", ", definitions.stream().map(Definition::name).toList()) + ")";
    }

    private int indexOf(final String name)
    {
        for (int i = 0; i < definitions.size(); i++)
        {
            if (definitions.get(i).name().equals(name))
            {
                return i;
            }
        }
        return -1;
    }

    /** @return the word at {@link #at} (letters, digits, '_'), consumed; empty if none. */
    private String word()
    {
        skipSpaces();
        final int start = at;
        while (at < text.length() && ExpressionText.isWordPart(text.charAt(at)))
        {
            at++;
        }
        return text.substring(start, at);
    }

    /** Consume {@code keyword} (any case) if it is the next word. */
    private boolean keyword(final String keyword)
    {
        skipSpaces();
        final int end = at + keyword.length();
        if (end <= text.length() && text.regionMatches(true, at, keyword, 0, keyword.length())
            && (end == text.length() || !ExpressionText.isWordPart(text.charAt(end))))
        {
            at = end;
            return true;
        }
        return false;
    }

    private boolean consume(final char c)
    {
        skipSpaces();
        if (at < text.length() && text.charAt(at) == c)
        {
            at++;
            return true;
        }
        return false;
    }

    private void skipSpaces()
    {
        while (at < text.length() && Character.isWhitespace(text.charAt(at)))
        {
            at++;
        }
    }

    /** @return true for a column's name or {@code TABLE.COLUMN}. */
    static boolean isColumnName(final String name)
    {
        return name.matches("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");
    }

    static int leadingSpaces(final String text)
    {
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i)))
        {
            i++;
        }
        return i;
    }

    private static boolean isDigit(final char c)
    {
        return c >= '0' && c <= '9';
    }

    private AggregateSyntaxException error(final int position, final String problem, final String expected)
    {
        return new AggregateSyntaxException(text, position, problem, expected);
    }
}
