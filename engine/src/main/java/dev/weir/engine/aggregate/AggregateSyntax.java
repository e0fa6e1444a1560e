package dev.weir.engine.aggregate;

/**
 * The syntax tree of one named aggregate's result, as {@link NamedAggregates#parse} reads it (no schema yet): calls,
 * number literals, references to earlier aggregates, arithmetic. {@link #render} writes the normalised text:
 * no spaces, parentheses only where needed. Immutable; thread-safe.
 */
sealed interface AggregateSyntax
{
    /** Binds tighter than any operator: a call, a positive literal, a reference. */
    int ATOM = 3;
    /** A negation or a negative literal. */
    int UNARY = 2;
    /** {@code *} and {@code /}. */
    int PRODUCT = 1;
    /** {@code +} and {@code -}. */
    int SUM = 0;

    /** @return the 0-based index of its first character in the whole list. */
    int position();

    /** @return how tightly it binds: {@link #ATOM} .. {@link #SUM}. */
    int precedence();

    /** @param out where to write its normalised text. */
    void render(StringBuilder out);

    /**
     * A function call, e.g. {@code sum(amount) filter (where approved = 1)}.
     *
     * @param function  the function's name: count, sum, min, max, first, last, avg or approx_distinct.
     * @param position  where the function's name starts.
     * @param value     the value (or approx_distinct's column) as written, null for {@code count()}.
     * @param valueAt   where the value starts.
     * @param filter    the filter as written, or null.
     * @param filterAt  where the filter starts.
     */
    record Call(String function, int position, String value, int valueAt, String filter, int filterAt) implements AggregateSyntax
    {
        @Override
        public int precedence()
        {
            return ATOM;
        }

        @Override
        public void render(final StringBuilder out)
        {
            out.append(function).append('(').append(value == null ? "" : ExpressionText.normalise(value)).append(')');
            if (filter != null)
            {
                out.append(" filter(where ").append(ExpressionText.normalise(filter)).append(')');
            }
        }
    }

    /**
     * A number literal.
     *
     * @param unscaled its unscaled value.
     * @param scale    its scale, as written.
     * @param text     its plain text, sign included.
     * @param position where it (its sign) starts.
     */
    record Literal(long unscaled, int scale, String text, int position) implements AggregateSyntax
    {
        @Override
        public int precedence()
        {
            return unscaled < 0 ? UNARY : ATOM;
        }

        @Override
        public void render(final StringBuilder out)
        {
            out.append(text);
        }
    }

    /**
     * An earlier aggregate, by name: its definition is inlined.
     *
     * @param name       its name.
     * @param definition its result.
     * @param position   where the name is.
     */
    record Reference(String name, AggregateSyntax definition, int position) implements AggregateSyntax
    {
        @Override
        public int precedence()
        {
            return ATOM;
        }

        @Override
        public void render(final StringBuilder out)
        {
            out.append(name);
        }
    }

    /**
     * {@code -operand}.
     *
     * @param operand  the operand.
     * @param position where the minus sign is.
     */
    record Negation(AggregateSyntax operand, int position) implements AggregateSyntax
    {
        @Override
        public int precedence()
        {
            return UNARY;
        }

        @Override
        public void render(final StringBuilder out)
        {
            out.append('-');
            renderOperand(out, operand, ATOM);
        }
    }

    /**
     * {@code left OPERATOR right}.
     *
     * @param operator {@code + - * /}.
     * @param left     the left operand.
     * @param right    the right operand.
     * @param position where the operator is.
     */
    record Arithmetic(char operator, AggregateSyntax left, AggregateSyntax right, int position) implements AggregateSyntax
    {
        @Override
        public int precedence()
        {
            return operator == '+' || operator == '-' ? SUM : PRODUCT;
        }

        @Override
        public void render(final StringBuilder out)
        {
            renderOperand(out, left, precedence());
            out.append(operator);
            renderOperand(out, right, precedence() + 1); // a right operand of the same precedence keeps its parentheses
        }
    }

    /** Write {@code operand}, in parentheses if it binds less tightly than {@code least}. */
    private static void renderOperand(final StringBuilder out, final AggregateSyntax operand, final int least)
    {
        if (operand.precedence() < least)
        {
            out.append('(');
            operand.render(out);
            out.append(')');
        }
        else
        {
            operand.render(out);
        }
    }
}
