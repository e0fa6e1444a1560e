package dev.weir.engine.expr;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;

/**
 * Recursive descent over an expression's text, type-checking as it goes and building the nodes;
 * {@link #at} is the 0-based index of the next character. One use, one thread.
 */
final class ExpressionParser
{
    private static final int NUMBER = 0;
    private static final int STRING_COLUMN = 1;
    private static final int STRING_LITERAL = 2;
    private static final int CONDITION = 3;

    /** What a part of the text is, where it starts, and its node. */
    private static final class Term
    {
        final int kind;
        final int start;
        ValueNode value;
        FilterNode condition;
        BigDecimal literal; // a number literal as written (sign included), else null
        int column;
        String text; // a string column's name or a string literal's text

        Term(final int kind, final int start)
        {
            this.kind = kind;
            this.start = start;
        }
    }

    private final String text;
    private final ExpressionColumns columns;
    private final StringIds ids;
    /** Texts of string ids, for comparing two string columns; null: such a comparison is an error. */
    private final StringTexts texts;
    /** The flag every operation of the expression raises when it wraps (and folding, at parse time). */
    private final WrapFlag flag = new WrapFlag();
    private int at;

    /**
     * @param ids   resolves string literals (a value has none to resolve).
     * @param texts texts of string ids, or null if two string columns cannot be compared.
     */
    ExpressionParser(final String text, final ExpressionColumns columns, final StringIds ids, final StringTexts texts)
    {
        this.text = text;
        this.columns = columns;
        this.ids = ids;
        this.texts = texts;
    }

    FilterNode filter()
    {
        final Term term = disjunction();
        skipSpaces();
        if (at < text.length())
        {
            throw error(term.kind == CONDITION ? "expected 'and', 'or' or the end" : "expected an operator, 'in', 'and', 'or' or the end");
        }
        return condition(term);
    }

    EventValue value()
    {
        final Term term = additive();
        skipSpaces();
        if (at < text.length())
        {
            throw error("expected '+', '-', '*' or the end");
        }
        return new CheckedValue(number(term), flag);
    }

    private Term disjunction()
    {
        Term term = conjunction();
        while (keyword("or"))
        {
            final FilterNode left = condition(term);
            term = conditionTerm(new FilterNodes.Or(left, condition(conjunction())), term.start);
        }
        return term;
    }

    private Term conjunction()
    {
        Term term = negation();
        while (keyword("and"))
        {
            final FilterNode left = condition(term);
            term = conditionTerm(new FilterNodes.And(left, condition(negation())), term.start);
        }
        return term;
    }

    private Term negation()
    {
        skipSpaces();
        final int start = at;
        if (keyword("not"))
        {
            return conditionTerm(new FilterNodes.Not(condition(negation())), start);
        }
        return comparison();
    }

    private Term comparison()
    {
        final Term left = additive();
        skipSpaces();
        final int operatorAt = at;
        final int operator = operator();
        if (operator >= 0)
        {
            final Term right = additive();
            return conditionTerm(compare(left, operator, operatorAt, right), left.start);
        }
        final boolean negated = keyword("not");
        if (keyword("in"))
        {
            return conditionTerm(in(left, negated), left.start);
        }
        if (negated)
        {
            at = operatorAt;
            throw error("expected 'in' after 'not'");
        }
        return left;
    }

    private Term additive()
    {
        Term term = multiplicative();
        while (true)
        {
            skipSpaces();
            if (at >= text.length() || (text.charAt(at) != '+' && text.charAt(at) != '-'))
            {
                return term;
            }
            final boolean add = text.charAt(at++) == '+';
            final ValueNode left = number(term);
            final Term rightTerm = multiplicative();
            final ValueNode right = number(rightTerm);
            final int scale = Math.max(left.scale(), right.scale());
            final long leftFactor = rescalable(left, scale, term.start);
            final long rightFactor = rescalable(right, scale, rightTerm.start);
            term = numberTerm(fold(add ? new ValueNodes.Add(flag, left, right, scale, leftFactor, rightFactor)
                : new ValueNodes.Subtract(flag, left, right, scale, leftFactor, rightFactor), term.start), term.start);
        }
    }

    private Term multiplicative()
    {
        Term term = unary();
        while (true)
        {
            skipSpaces();
            if (at >= text.length() || text.charAt(at) != '*')
            {
                return term;
            }
            final int operatorAt = at++;
            final ValueNode left = number(term);
            final ValueNode right = number(unary());
            final int scale = left.scale() + right.scale();
            if (scale > JournalSchema.MAX_SCALE)
            {
                at = operatorAt;
                throw error("the product has " + scale + " decimals, more than " + JournalSchema.MAX_SCALE);
            }
            term = numberTerm(fold(new ValueNodes.Multiply(flag, left, right, scale), term.start), term.start);
        }
    }

    private Term unary()
    {
        skipSpaces();
        if (at < text.length() && text.charAt(at) == '-')
        {
            final int start = at++;
            skipSpaces();
            if (at < text.length() && isDigit(text.charAt(at)))
            {
                return numberLiteral(start, true);
            }
            return numberTerm(fold(new ValueNodes.Negate(flag, number(unary())), start), start);
        }
        return primary();
    }

    private Term primary()
    {
        skipSpaces();
        if (at >= text.length())
        {
            throw error("expected a column, a number, a string or '('");
        }
        final char c = text.charAt(at);
        if (c == '(')
        {
            at++;
            final Term inner = disjunction();
            skipSpaces();
            if (at >= text.length() || text.charAt(at) != ')')
            {
                throw error(inner.kind == CONDITION ? "expected ')', 'and' or 'or'" : "expected ')' or an operator");
            }
            at++;
            return inner;
        }
        if (isDigit(c))
        {
            return numberLiteral(at, false);
        }
        if (c == '\'')
        {
            return stringLiteral();
        }
        if (isWordStart(c))
        {
            return column();
        }
        throw error("expected a column, a number, a string or '('");
    }

    private Term column()
    {
        final int start = at;
        while (at < text.length() && isWordPart(text.charAt(at)))
        {
            at++;
        }
        if (at + 1 < text.length() && text.charAt(at) == '.' && isWordStart(text.charAt(at + 1)))
        {
            at++; // TABLE.COLUMN
            while (at < text.length() && isWordPart(text.charAt(at)))
            {
                at++;
            }
        }
        final String name = text.substring(start, at);
        if (name.equals("event_id"))
        {
            return numberTerm(new ValueNodes.EventId(), start);
        }
        if (name.equals("event_time"))
        {
            return numberTerm(new ValueNodes.EventTime(), start);
        }
        final int column = columns.indexOf(name);
        if (column < 0)
        {
            at = start;
            throw error("unknown column '" + name + "': expected one of event_id, event_time, " + names());
        }
        final JournalSchema.Column c = columns.column(column);
        if (c.type() == ColumnType.STRING)
        {
            final Term term = new Term(STRING_COLUMN, start);
            term.column = column;
            term.text = name;
            return term;
        }
        return numberTerm(new ValueNodes.Column(column, name, c.scale()), start);
    }

    private String names()
    {
        final StringBuilder b = new StringBuilder();
        for (int i = 0; i < columns.size(); i++)
        {
            b.append(i == 0 ? "" : ", ").append(columns.name(i));
        }
        return b.toString();
    }

    /** A number literal; {@link #at} is at its first digit, {@code start} at its sign if {@code negative}. */
    private Term numberLiteral(final int start, final boolean negative)
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
                throw error("expected digits after '.'");
            }
        }
        if (at < text.length() && isWordPart(text.charAt(at)))
        {
            throw error("expected an operator after the number");
        }
        final BigDecimal literal = new BigDecimal((negative ? "-" : "") + text.substring(digits, at));
        if (literal.scale() > JournalSchema.MAX_SCALE)
        {
            throw errorAt(start, "'" + literal.toPlainString() + "' has more than " + JournalSchema.MAX_SCALE + " decimals");
        }
        final long unscaled = unscaled(literal, literal.scale(), start);
        final Term term = numberTerm(
            new ValueNodes.Constant(unscaled, literal.scale(), literal.toPlainString(), negative ? ValueNode.UNARY : ValueNode.ATOM), start);
        term.literal = literal;
        return term;
    }

    private long unscaled(final BigDecimal literal, final int scale, final int start)
    {
        try
        {
            return literal.setScale(scale).unscaledValue().longValueExact();
        }
        catch (final ArithmeticException ex)
        {
            if (literal.scale() > scale)
            {
                throw errorAt(start, "'" + literal.toPlainString() + "' has more than " + scale + " decimal" + (scale == 1 ? "" : "s")
                    + ", the scale of what it is compared with");
            }
            throw errorAt(start, "'" + literal.toPlainString() + "' is out of range" + (scale == 0 ? "" : " at scale " + scale));
        }
    }

    private Term stringLiteral()
    {
        final int start = at++;
        final StringBuilder b = new StringBuilder();
        while (true)
        {
            if (at >= text.length())
            {
                throw errorAt(start, "the string has no closing quote");
            }
            final char c = text.charAt(at++);
            if (c == '\'')
            {
                if (at < text.length() && text.charAt(at) == '\'')
                {
                    b.append('\'');
                    at++;
                }
                else
                {
                    break;
                }
            }
            else
            {
                b.append(c);
            }
        }
        final Term term = new Term(STRING_LITERAL, start);
        term.text = b.toString();
        return term;
    }

    /** @return the comparison operator at {@link #at}, consumed, or -1 (nothing consumed) if there is none. */
    private int operator()
    {
        if (at >= text.length())
        {
            return -1;
        }
        final char c = text.charAt(at);
        final boolean equals = at + 1 < text.length() && text.charAt(at + 1) == '=';
        switch (c)
        {
            case '<':
                at += equals ? 2 : 1;
                return equals ? FilterNodes.LE : FilterNodes.LT;
            case '>':
                at += equals ? 2 : 1;
                return equals ? FilterNodes.GE : FilterNodes.GT;
            case '=':
                at += equals ? 2 : 1; // '=' or '=='
                return FilterNodes.EQ;
            case '!':
                if (equals)
                {
                    at += 2;
                    return FilterNodes.NE;
                }
                throw error("expected '!='");
            default:
                return -1;
        }
    }

    private FilterNode compare(final Term left, final int operator, final int operatorAt, final Term right)
    {
        if (left.kind == CONDITION || right.kind == CONDITION)
        {
            final Term condition = left.kind == CONDITION ? left : right;
            throw errorAt(condition.start, "expected a value to compare, found a condition");
        }
        if (left.kind == STRING_COLUMN || right.kind == STRING_COLUMN)
        {
            final Term column = left.kind == STRING_COLUMN ? left : right;
            final Term other = column == left ? right : left;
            if (other.kind == STRING_COLUMN && texts == null)
            {
                throw errorAt(right.start, "cannot compare string columns '" + left.text + "' and '" + right.text
                    + "': compare each with a string literal");
            }
            if (other.kind == NUMBER)
            {
                throw errorAt(other.start, "type mismatch: '" + column.text + "' is a string column, compared with a number");
            }
            if (operator != FilterNodes.EQ && operator != FilterNodes.NE)
            {
                throw errorAt(operatorAt, "string column '" + column.text + "' compares only with = and != or in (...), not "
                    + FilterNodes.OPERATORS[operator]);
            }
            if (other.kind == STRING_COLUMN)
            {
                return new StringColumnsEqual(left.column, left.text, right.column, right.text, texts, operator == FilterNodes.NE);
            }
            return new FilterNodes.StringEquals(column.column, column.text, new FilterNodes.StringLiteral(column.column, other.text, ids),
                operator == FilterNodes.NE);
        }
        if (left.kind == STRING_LITERAL || right.kind == STRING_LITERAL)
        {
            final Term string = left.kind == STRING_LITERAL ? left : right;
            final Term other = string == left ? right : left;
            throw errorAt(right.start, other.kind == STRING_LITERAL ? "a string literal compares only with a string column"
                : "type mismatch: a string compared with a number");
        }
        final ValueNode l = left.value;
        final ValueNode r = right.value;
        if (l.isConstant() && r.isConstant())
        {
            final int comparison = l.scale() <= r.scale()
                ? Comparisons.compareScaled(l.value(null), ValueNodes.POWERS_OF_TEN[r.scale() - l.scale()], r.value(null))
                : -Comparisons.compareScaled(r.value(null), ValueNodes.POWERS_OF_TEN[l.scale() - r.scale()], l.value(null));
            return new FilterNodes.Constant(Comparisons.holds(operator, comparison),
                l + " " + FilterNodes.OPERATORS[operator] + " " + r);
        }
        if (right.literal != null)
        {
            final long constant = unscaled(right.literal, l.scale(), right.start);
            return new FilterNodes.CompareConstant(l, operator, constant, BigDecimal.valueOf(constant, l.scale()).toPlainString());
        }
        if (left.literal != null)
        {
            final long constant = unscaled(left.literal, r.scale(), left.start);
            return new FilterNodes.CompareConstant(r, FilterNodes.swapped(operator), constant,
                BigDecimal.valueOf(constant, r.scale()).toPlainString());
        }
        return new FilterNodes.CompareValues(l, operator, r);
    }

    /** The list after {@code in}. */
    private FilterNode in(final Term left, final boolean negated)
    {
        if (left.kind == CONDITION || left.kind == STRING_LITERAL)
        {
            throw errorAt(left.start, "expected a column or a number before 'in'");
        }
        skipSpaces();
        if (at >= text.length() || text.charAt(at) != '(')
        {
            throw error("expected '(' after 'in'");
        }
        at++;
        final List<Term> items = new ArrayList<>();
        do
        {
            skipSpaces();
            final Term item;
            if (at < text.length() && text.charAt(at) == '\'')
            {
                item = stringLiteral();
            }
            else if (at < text.length() && (isDigit(text.charAt(at)) || text.charAt(at) == '-'))
            {
                final int start = at;
                final boolean negative = text.charAt(at) == '-';
                at += negative ? 1 : 0;
                skipSpaces();
                if (at >= text.length() || !isDigit(text.charAt(at)))
                {
                    throw error("expected a digit");
                }
                item = numberLiteral(start, negative);
            }
            else
            {
                throw error(left.kind == STRING_COLUMN ? "expected a string literal" : "expected a number literal");
            }
            if (item.kind == STRING_LITERAL && left.kind != STRING_COLUMN)
            {
                throw errorAt(item.start, "type mismatch: a string in the list of a number");
            }
            if (item.kind == NUMBER && left.kind == STRING_COLUMN)
            {
                throw errorAt(item.start, "type mismatch: a number in the list of string column '" + left.text + "'");
            }
            items.add(item);
            skipSpaces();
        }
        while (consume(','));
        if (!consume(')'))
        {
            throw error("expected ',' or ')'");
        }
        if (left.kind == STRING_COLUMN)
        {
            final FilterNodes.StringLiteral[] literals = new FilterNodes.StringLiteral[items.size()];
            for (int i = 0; i < literals.length; i++)
            {
                literals[i] = new FilterNodes.StringLiteral(left.column, items.get(i).text, ids);
            }
            return new FilterNodes.StringIn(left.column, left.text, literals, negated);
        }
        final int scale = left.value.scale();
        final long[] constants = new long[items.size()];
        final String[] texts = new String[constants.length];
        for (int i = 0; i < constants.length; i++)
        {
            constants[i] = unscaled(items.get(i).literal, scale, items.get(i).start);
            texts[i] = BigDecimal.valueOf(constants[i], scale).toPlainString();
        }
        return new FilterNodes.NumberIn(left.value, constants, texts, negated);
    }

    /**
     * @return the node, or the constant it is if it reads nothing of the event.
     * @throws ExpressionException if it is a constant outside the long range (it would wrap on every event).
     */
    private ValueNode fold(final ValueNode node, final int start)
    {
        if (!node.isConstant())
        {
            return node;
        }
        flag.wrapped = 0;
        final long value = node.value(null);
        if (flag.wrapped != 0)
        {
            throw errorAt(start, "'" + node + "' is out of range" + (node.scale() == 0 ? "" : " at scale " + node.scale()));
        }
        return new ValueNodes.Constant(value, node.scale(), node.toString(), node.precedence());
    }

    /**
     * @return the power of ten that rescales {@code node} to {@code scale}.
     * @throws ExpressionException if it is a constant that rescaling takes outside the long range.
     */
    private long rescalable(final ValueNode node, final int scale, final int start)
    {
        final long factor = ValueNodes.POWERS_OF_TEN[scale - node.scale()];
        if (node.isConstant() && factor != 1)
        {
            flag.wrapped = 0;
            flag.multiply(node.value(null), factor);
            if (flag.wrapped != 0)
            {
                throw errorAt(start, "'" + node + "' is out of range at scale " + scale);
            }
        }
        return factor;
    }

    private ValueNode number(final Term term)
    {
        switch (term.kind)
        {
            case NUMBER:
                return term.value;
            case STRING_COLUMN:
                throw errorAt(term.start, "type mismatch: '" + term.text + "' is a string column, expected a number");
            case STRING_LITERAL:
                throw errorAt(term.start, "type mismatch: a string, expected a number");
            default:
                throw errorAt(term.start, "expected a number, found a condition");
        }
    }

    private FilterNode condition(final Term term)
    {
        if (term.kind != CONDITION)
        {
            throw errorAt(term.start, "expected a condition (a comparison or 'in'), found " + switch (term.kind)
            {
                case NUMBER -> "a number";
                case STRING_COLUMN -> "string column '" + term.text + "'";
                default -> "a string";
            });
        }
        return term.condition;
    }

    private static Term numberTerm(final ValueNode value, final int start)
    {
        final Term term = new Term(NUMBER, start);
        term.value = value;
        return term;
    }

    private static Term conditionTerm(final FilterNode condition, final int start)
    {
        final Term term = new Term(CONDITION, start);
        term.condition = condition;
        return term;
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

    /** Consume {@code keyword} (any case) if it is the next word. */
    private boolean keyword(final String keyword)
    {
        skipSpaces();
        final int end = at + keyword.length();
        if (end <= text.length() && text.regionMatches(true, at, keyword, 0, keyword.length())
            && (end == text.length() || !isWordPart(text.charAt(end))))
        {
            at = end;
            return true;
        }
        return false;
    }

    private static boolean isDigit(final char c)
    {
        return c >= '0' && c <= '9';
    }

    private static boolean isWordStart(final char c)
    {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static boolean isWordPart(final char c)
    {
        return isWordStart(c) || isDigit(c);
    }

    private void skipSpaces()
    {
        while (at < text.length() && Character.isWhitespace(text.charAt(at)))
        {
            at++;
        }
    }

    private ExpressionException error(final String problem)
    {
        return new ExpressionException(text, at, problem);
    }

    private ExpressionException errorAt(final int position, final String problem)
    {
        return new ExpressionException(text, position, problem);
    }
}
