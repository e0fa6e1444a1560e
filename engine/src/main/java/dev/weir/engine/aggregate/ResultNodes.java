package dev.weir.engine.aggregate;

/**
 * The nodes of a result expression's tree: a call over its part of the state, a constant, a negation and the four
 * operations of {@link ScaledArithmetic}. Allocation-free; one owner thread (each node keeps its last value).
 */
final class ResultNodes
{
    private ResultNodes()
    {
    }

    /** A call's result, read from its part of the expression's state; empty when the call has no value. */
    static final class CallResult extends ResultNode
    {
        private final Aggregation call;
        private final int start;
        private final AggregationState part = new AggregationState();

        /**
         * @param call  the call's state machine.
         * @param start where its part of the state starts.
         * @param scale the scale of its results.
         */
        CallResult(final Aggregation call, final int start, final int scale)
        {
            super(scale);
            this.call = call;
            this.start = start;
        }

        @Override
        boolean evaluate(final AggregationState state)
        {
            part.within(state, start, call.stateLongs());
            if (!call.hasValue(part))
            {
                return false;
            }
            value = call.result(part);
            return true;
        }
    }

    /** A number literal: always this value. */
    static final class Constant extends ResultNode
    {
        Constant(final long value, final int scale)
        {
            super(scale);
            this.value = value;
        }

        @Override
        boolean evaluate(final AggregationState state)
        {
            return true;
        }
    }

    /** {@code -operand}: empty when the operand is, or for the one long whose negation does not fit. */
    static final class Negate extends ResultNode
    {
        private final ResultNode operand;
        private final ScaledArithmetic arithmetic;

        Negate(final ResultNode operand, final ScaledArithmetic arithmetic)
        {
            super(operand.scale());
            this.operand = operand;
            this.arithmetic = arithmetic;
        }

        @Override
        boolean evaluate(final AggregationState state)
        {
            if (!operand.evaluate(state) || !arithmetic.negate(operand.value()))
            {
                return false;
            }
            value = arithmetic.value();
            return true;
        }
    }

    /**
     * {@code left OPERATOR right} at the scale the operator gives ({@link #scaleOf}): empty when an operand is, when
     * dividing by zero, or when the exact (for a quotient, rounded half-even) result does not fit a long.
     */
    static final class Operation extends ResultNode
    {
        private final char operator;
        private final ResultNode left;
        private final ResultNode right;
        private final ScaledArithmetic arithmetic;

        /**
         * @param operator   {@code + - * /}.
         * @param arithmetic the expression's arithmetic (scratch shared by its nodes).
         */
        Operation(final char operator, final ResultNode left, final ResultNode right, final ScaledArithmetic arithmetic)
        {
            super(scaleOf(operator, left.scale(), right.scale()));
            this.operator = operator;
            this.left = left;
            this.right = right;
            this.arithmetic = arithmetic;
        }

        /**
         * @return the scale of {@code a OPERATOR b} for operands at {@code sa} and {@code sb}: the larger for
         *         {@code + -}, the sum for {@code *} (the caller refuses more than 18), {@code max(6, sa, sb)} for {@code /}.
         */
        static int scaleOf(final char operator, final int sa, final int sb)
        {
            return switch (operator)
            {
                case '+', '-' -> Math.max(sa, sb);
                case '*' -> sa + sb;
                case '/' -> Math.max(6, Math.max(sa, sb));
                default -> throw new IllegalArgumentException("operator " + operator);
            };
        }

        @Override
        boolean evaluate(final AggregationState state)
        {
            if (!left.evaluate(state) || !right.evaluate(state))
            {
                return false;
            }
            final long a = left.value();
            final long b = right.value();
            final boolean fits = switch (operator)
            {
                case '+' -> arithmetic.add(a, left.scale(), b, right.scale());
                case '-' -> arithmetic.subtract(a, left.scale(), b, right.scale());
                case '*' -> arithmetic.multiply(a, b);
                default -> arithmetic.divide(a, left.scale(), b, right.scale(), scale());
            };
            value = arithmetic.value();
            return fits;
        }
    }
}
