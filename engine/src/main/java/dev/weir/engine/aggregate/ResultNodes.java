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
    static final class CallResult implements ResultNode
    {
        private final Aggregation call;
        private final int start;
        private final int scale;
        private final AggregationState part = new AggregationState();
        private long value;

        /**
         * @param call  the call's state machine.
         * @param start where its part of the state starts.
         * @param scale the scale of its results.
         */
        CallResult(final Aggregation call, final int start, final int scale)
        {
            this.call = call;
            this.start = start;
            this.scale = scale;
        }

        @Override
        public boolean evaluate(final AggregationState state)
        {
            part.within(state, start, call.stateLongs());
            if (!call.hasValue(part))
            {
                return false;
            }
            value = call.result(part);
            return true;
        }

        @Override
        public long value()
        {
            return value;
        }

        @Override
        public int scale()
        {
            return scale;
        }
    }

    /** A number literal: always this value. */
    static final class Constant implements ResultNode
    {
        private final long value;
        private final int scale;

        Constant(final long value, final int scale)
        {
            this.value = value;
            this.scale = scale;
        }

        @Override
        public boolean evaluate(final AggregationState state)
        {
            return true;
        }

        @Override
        public long value()
        {
            return value;
        }

        @Override
        public int scale()
        {
            return scale;
        }
    }

    /** {@code -operand}: empty when the operand is, or for the one long whose negation does not fit. */
    static final class Negate implements ResultNode
    {
        private final ResultNode operand;
        private final ScaledArithmetic arithmetic;
        private long value;

        Negate(final ResultNode operand, final ScaledArithmetic arithmetic)
        {
            this.operand = operand;
            this.arithmetic = arithmetic;
        }

        @Override
        public boolean evaluate(final AggregationState state)
        {
            if (!operand.evaluate(state) || !arithmetic.negate(operand.value()))
            {
                return false;
            }
            value = arithmetic.value();
            return true;
        }

        @Override
        public long value()
        {
            return value;
        }

        @Override
        public int scale()
        {
            return operand.scale();
        }
    }

    /**
     * {@code left OPERATOR right} at the scale the operator gives ({@link #scaleOf}): empty when an operand is, when
     * dividing by zero, or when the exact (for a quotient, rounded half-even) result does not fit a long.
     */
    static final class Operation implements ResultNode
    {
        private final char operator;
        private final ResultNode left;
        private final ResultNode right;
        private final int scale;
        private final ScaledArithmetic arithmetic;
        private long value;

        /**
         * @param operator   {@code + - * /}.
         * @param arithmetic the expression's arithmetic (scratch shared by its nodes).
         */
        Operation(final char operator, final ResultNode left, final ResultNode right, final ScaledArithmetic arithmetic)
        {
            this.operator = operator;
            this.left = left;
            this.right = right;
            this.scale = scaleOf(operator, left.scale(), right.scale());
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
        public boolean evaluate(final AggregationState state)
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
                default -> arithmetic.divide(a, left.scale(), b, right.scale(), scale);
            };
            value = arithmetic.value();
            return fits;
        }

        @Override
        public long value()
        {
            return value;
        }

        @Override
        public int scale()
        {
            return scale;
        }
    }
}
