package dev.weir.engine.expr;

import dev.weir.journal.schema.EventView;

/**
 * The filter nodes. Numbers compare exactly: a number compared with a literal compares with the literal at
 * the number's scale; two numbers of different scales compare as if the smaller scale were rescaled
 * without overflow. A string column compares by dictionary id with a {@link StringLiteral}.
 * One owner thread; testing allocates nothing.
 */
final class FilterNodes
{
    static final int LT = Comparisons.LT;
    static final int LE = Comparisons.LE;
    static final int GT = Comparisons.GT;
    static final int GE = Comparisons.GE;
    static final int EQ = Comparisons.EQ;
    static final int NE = Comparisons.NE;
    static final String[] OPERATORS = {"<", "<=", ">", ">=", "=", "!="};

    private FilterNodes()
    {
    }

    /** @return the operator that gives the same result with its operands swapped ({@code <} for {@code >}). */
    static int swapped(final int operator)
    {
        return switch (operator)
        {
            case LT -> GT;
            case LE -> GE;
            case GT -> LT;
            case GE -> LE;
            default -> operator;
        };
    }

    /** {@code left KEYWORD right}: the shape {@link Or} and {@link And} share; each evaluates itself. */
    abstract static class Junction extends FilterNode
    {
        final FilterNode left;
        final FilterNode right;
        private final int precedence;
        private final String keyword;

        Junction(final FilterNode left, final FilterNode right, final int precedence, final String keyword)
        {
            this.left = left;
            this.right = right;
            this.precedence = precedence;
            this.keyword = keyword;
        }

        @Override
        final int precedence()
        {
            return precedence;
        }

        @Override
        final void render(final StringBuilder out)
        {
            left.render(out, left.precedence() < precedence);
            out.append(' ').append(keyword).append(' ');
            right.render(out, right.precedence() < precedence);
        }
    }

    static final class Or extends Junction
    {
        Or(final FilterNode left, final FilterNode right)
        {
            super(left, right, OR, "or");
        }

        @Override
        public boolean test(final EventView event)
        {
            return left.test(event) || right.test(event);
        }
    }

    static final class And extends Junction
    {
        And(final FilterNode left, final FilterNode right)
        {
            super(left, right, AND, "and");
        }

        @Override
        public boolean test(final EventView event)
        {
            return left.test(event) && right.test(event);
        }
    }

    static final class Not extends FilterNode
    {
        private final FilterNode operand;

        Not(final FilterNode operand)
        {
            this.operand = operand;
        }

        @Override
        public boolean test(final EventView event)
        {
            return !operand.test(event);
        }

        @Override
        int precedence()
        {
            return NOT;
        }

        @Override
        void render(final StringBuilder out)
        {
            out.append("not ");
            operand.render(out, operand.precedence() < NOT);
        }
    }

    /** A comparison of literals only, folded to its result; keeps its text. */
    static final class Constant extends FilterNode
    {
        private final boolean result;
        private final String text;

        Constant(final boolean result, final String text)
        {
            this.result = result;
            this.text = text;
        }

        @Override
        public boolean test(final EventView event)
        {
            return result;
        }

        @Override
        int precedence()
        {
            return COMPARISON;
        }

        @Override
        void render(final StringBuilder out)
        {
            out.append(text);
        }
    }

    /** {@code value op constant}, the constant at the value's scale. */
    static final class CompareConstant extends FilterNode
    {
        private final ValueNode value;
        /** The value's column if it is a plain column (read directly, not through a call), else -1. */
        private final int column;
        private final int operator;
        private final long constant;
        private final String constantText;

        CompareConstant(final ValueNode value, final int operator, final long constant, final String constantText)
        {
            this.value = value;
            this.column = ValueNodes.columnOf(value);
            this.operator = operator;
            this.constant = constant;
            this.constantText = constantText;
        }

        @Override
        public boolean test(final EventView event)
        {
            final long v = column >= 0 ? event.longColumn(column) : value.value(event);
            return switch (operator)
            {
                case LT -> v < constant;
                case LE -> v <= constant;
                case GT -> v > constant;
                case GE -> v >= constant;
                case EQ -> v == constant;
                default -> v != constant;
            };
        }

        @Override
        int precedence()
        {
            return COMPARISON;
        }

        @Override
        void render(final StringBuilder out)
        {
            value.render(out);
            out.append(' ').append(OPERATORS[operator]).append(' ').append(constantText);
        }
    }

    /**
     * {@code left op right} for two values; the one of smaller scale is multiplied by {@code factor}
     * (1 if the scales are equal) without overflow.
     */
    static final class CompareValues extends FilterNode
    {
        private final ValueNode left;
        private final int operator;
        private final ValueNode right;
        private final long factor;
        private final boolean rescaleLeft;

        CompareValues(final ValueNode left, final int operator, final ValueNode right)
        {
            this.left = left;
            this.operator = operator;
            this.right = right;
            this.rescaleLeft = left.scale() < right.scale();
            this.factor = ValueNodes.POWERS_OF_TEN[Math.abs(left.scale() - right.scale())];
        }

        @Override
        public boolean test(final EventView event)
        {
            final long l = left.value(event);
            final long r = right.value(event);
            final int comparison = rescaleLeft ? Comparisons.compareScaled(l, factor, r) : -Comparisons.compareScaled(r, factor, l);
            return Comparisons.holds(operator, comparison);
        }

        @Override
        int precedence()
        {
            return COMPARISON;
        }

        @Override
        void render(final StringBuilder out)
        {
            left.render(out);
            out.append(' ').append(OPERATORS[operator]).append(' ');
            right.render(out);
        }
    }

    /** {@code value [not] in (c1, c2, ...)}, the constants at the value's scale. */
    static final class NumberIn extends FilterNode
    {
        private final ValueNode value;
        private final long[] constants;
        private final String[] texts;
        private final boolean negated;

        NumberIn(final ValueNode value, final long[] constants, final String[] texts, final boolean negated)
        {
            assert constants.length > 0 && constants.length == texts.length;
            this.value = value;
            this.constants = constants;
            this.texts = texts;
            this.negated = negated;
        }

        @Override
        public boolean test(final EventView event)
        {
            final long v = value.value(event);
            for (final long c : constants)
            {
                if (v == c)
                {
                    return !negated;
                }
            }
            return negated;
        }

        @Override
        int precedence()
        {
            return COMPARISON;
        }

        @Override
        void render(final StringBuilder out)
        {
            value.render(out);
            out.append(negated ? " not in (" : " in (");
            for (int i = 0; i < texts.length; i++)
            {
                out.append(i == 0 ? "" : ", ").append(texts[i]);
            }
            out.append(')');
        }
    }

    /**
     * A string literal of one column, resolved to its dictionary id when first seen: while unknown it keeps
     * -1 and asks {@link StringIds} again only when an event carries an id at or above every id seen at the
     * last asking (ids are dense and given in order of first use, so a lower one is known not to be it).
     */
    static final class StringLiteral
    {
        private final int column;
        private final String text;
        private final StringIds ids;
        private int id;
        private int askAt;

        StringLiteral(final int column, final String text, final StringIds ids)
        {
            this.column = column;
            this.text = text;
            this.ids = ids;
            this.id = ids.idOf(column, text);
        }

        /** @return true if an event's id of the column is this literal's. */
        boolean matches(final int eventId)
        {
            if (id < 0)
            {
                if (eventId < askAt)
                {
                    return false;
                }
                id = ids.idOf(column, text);
                if (id < 0)
                {
                    askAt = eventId + 1;
                    return false;
                }
            }
            return eventId == id;
        }

        void render(final StringBuilder out)
        {
            out.append('\'');
            for (int i = 0; i < text.length(); i++)
            {
                final char c = text.charAt(i);
                out.append(c == '\'' ? "''" : String.valueOf(c));
            }
            out.append('\'');
        }
    }

    /** {@code column = 'text'} or {@code column != 'text'}. */
    static final class StringEquals extends FilterNode
    {
        private final int column;
        private final String name;
        private final StringLiteral literal;
        private final boolean negated;

        StringEquals(final int column, final String name, final StringLiteral literal, final boolean negated)
        {
            this.column = column;
            this.name = name;
            this.literal = literal;
            this.negated = negated;
        }

        @Override
        public boolean test(final EventView event)
        {
            return literal.matches(event.stringId(column)) != negated;
        }

        @Override
        int precedence()
        {
            return COMPARISON;
        }

        @Override
        void render(final StringBuilder out)
        {
            out.append(name).append(negated ? " != " : " = ");
            literal.render(out);
        }
    }

    /** {@code column [not] in ('a', 'b', ...)}. */
    static final class StringIn extends FilterNode
    {
        private final int column;
        private final String name;
        private final StringLiteral[] literals;
        private final boolean negated;

        StringIn(final int column, final String name, final StringLiteral[] literals, final boolean negated)
        {
            assert literals.length > 0;
            this.column = column;
            this.name = name;
            this.literals = literals;
            this.negated = negated;
        }

        @Override
        public boolean test(final EventView event)
        {
            final int id = event.stringId(column);
            for (final StringLiteral literal : literals)
            {
                if (literal.matches(id))
                {
                    return !negated;
                }
            }
            return negated;
        }

        @Override
        int precedence()
        {
            return COMPARISON;
        }

        @Override
        void render(final StringBuilder out)
        {
            out.append(name).append(negated ? " not in (" : " in (");
            for (int i = 0; i < literals.length; i++)
            {
                out.append(i == 0 ? "" : ", ");
                literals[i].render(out);
            }
            out.append(')');
        }
    }
}
