package dev.weir.engine.expr;

import dev.weir.journal.schema.EventView;

/**
 * The value nodes: a column, {@code event_id}, {@code event_time}, a constant, {@code + - *} and unary
 * {@code -}. Arithmetic wraps as 64-bit two's complement (like {@code sum}); rescaling an operand to the
 * larger scale multiplies it by a power of ten, which wraps too. Each operation that wraps raises its
 * expression's {@link WrapFlag}. Immutable but for that flag; evaluating allocates nothing.
 */
final class ValueNodes
{
    /** 10^0 .. 10^18. */
    static final long[] POWERS_OF_TEN = new long[19];

    static
    {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++)
        {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private ValueNodes()
    {
    }

    /** A long or decimal column. */
    /** @return the node's column if it is a plain {@link Column}, else -1. */
    static int columnOf(final ValueNode node)
    {
        return node instanceof Column ? ((Column)node).column : -1;
    }

    static final class Column extends ValueNode
    {
        private final int column;
        private final String name;

        Column(final int column, final String name, final int scale)
        {
            super(scale);
            this.column = column;
            this.name = name;
        }

        @Override
        public long value(final EventView event)
        {
            return event.longColumn(column);
        }

        @Override
        int precedence()
        {
            return ATOM;
        }

        @Override
        void render(final StringBuilder out)
        {
            out.append(name);
        }
    }

    /** The event's id. */
    static final class EventId extends ValueNode
    {
        EventId()
        {
            super(0);
        }

        @Override
        public long value(final EventView event)
        {
            return event.eventId();
        }

        @Override
        int precedence()
        {
            return ATOM;
        }

        @Override
        void render(final StringBuilder out)
        {
            out.append("event_id");
        }
    }

    /** The event's time, epoch ms. */
    static final class EventTime extends ValueNode
    {
        EventTime()
        {
            super(0);
        }

        @Override
        public long value(final EventView event)
        {
            return event.eventTime();
        }

        @Override
        int precedence()
        {
            return ATOM;
        }

        @Override
        void render(final StringBuilder out)
        {
            out.append("event_time");
        }
    }

    /** A literal, or a folded subtree of literals (which keeps its text). */
    static final class Constant extends ValueNode
    {
        private final long value;
        private final String text;
        private final int precedence;

        Constant(final long value, final int scale, final String text, final int precedence)
        {
            super(scale);
            this.value = value;
            this.text = text;
            this.precedence = precedence;
        }

        @Override
        public long value(final EventView event)
        {
            return value;
        }

        @Override
        boolean isConstant()
        {
            return true;
        }

        @Override
        int precedence()
        {
            return precedence;
        }

        @Override
        void render(final StringBuilder out)
        {
            out.append(text);
        }
    }

    /** {@code left + right}, {@code left - right} or {@code left * right}; operands rescaled by their factors. */
    abstract static class Binary extends ValueNode
    {
        final WrapFlag flag;
        final ValueNode left;
        final ValueNode right;
        final long leftFactor;
        final long rightFactor;
        /** The left operand's column if it is a plain column (read directly, not through a call), else -1. */
        final int leftColumn;
        /** The right operand's column if it is a plain column, else -1. */
        final int rightColumn;

        Binary(final WrapFlag flag, final ValueNode left, final ValueNode right, final int scale, final long leftFactor, final long rightFactor)
        {
            super(scale);
            this.flag = flag;
            this.left = left;
            this.right = right;
            this.leftFactor = leftFactor;
            this.rightFactor = rightFactor;
            this.leftColumn = columnOf(left);
            this.rightColumn = columnOf(right);
        }

        /**
         * The left operand's value: a plain column is read from the event here, so the common
         * {@code column op column} costs no call through a call site that sees many node classes.
         */
        final long leftValue(final EventView event)
        {
            return leftColumn >= 0 ? event.longColumn(leftColumn) : left.value(event);
        }

        /** The right operand's value, as {@link #leftValue}. */
        final long rightValue(final EventView event)
        {
            return rightColumn >= 0 ? event.longColumn(rightColumn) : right.value(event);
        }

        /** The left operand's value at this node's scale (rescaling raises the flag if it wraps). */
        final long leftScaled(final EventView event)
        {
            final long value = leftValue(event);
            return leftFactor == 1 ? value : flag.multiply(value, leftFactor);
        }

        /** The right operand's value at this node's scale, as {@link #leftScaled}. */
        final long rightScaled(final EventView event)
        {
            final long value = rightValue(event);
            return rightFactor == 1 ? value : flag.multiply(value, rightFactor);
        }

        @Override
        boolean isConstant()
        {
            return left.isConstant() && right.isConstant();
        }

        abstract String operator();

        /** @return true if {@code a op (b op' c)} equals {@code a op b op' c} for every op' of the same precedence. */
        abstract boolean associative();

        @Override
        final void render(final StringBuilder out)
        {
            left.render(out, left.precedence() < precedence());
            out.append(' ').append(operator()).append(' ');
            right.render(out, right.precedence() < precedence() || (right.precedence() == precedence() && !associative()));
        }
    }

    static final class Add extends Binary
    {
        Add(final WrapFlag flag, final ValueNode left, final ValueNode right, final int scale, final long leftFactor, final long rightFactor)
        {
            super(flag, left, right, scale, leftFactor, rightFactor);
        }

        @Override
        public long value(final EventView event)
        {
            return flag.add(leftScaled(event), rightScaled(event));
        }

        @Override
        int precedence()
        {
            return ADDITIVE;
        }

        @Override
        String operator()
        {
            return "+";
        }

        @Override
        boolean associative()
        {
            return true;
        }
    }

    static final class Subtract extends Binary
    {
        Subtract(final WrapFlag flag, final ValueNode left, final ValueNode right, final int scale, final long leftFactor, final long rightFactor)
        {
            super(flag, left, right, scale, leftFactor, rightFactor);
        }

        @Override
        public long value(final EventView event)
        {
            return flag.subtract(leftScaled(event), rightScaled(event));
        }

        @Override
        int precedence()
        {
            return ADDITIVE;
        }

        @Override
        String operator()
        {
            return "-";
        }

        @Override
        boolean associative()
        {
            return false;
        }
    }

    /** {@code left * right} at the sum of the scales (factors are 1). */
    static final class Multiply extends Binary
    {
        Multiply(final WrapFlag flag, final ValueNode left, final ValueNode right, final int scale)
        {
            super(flag, left, right, scale, 1, 1);
            assert scale == left.scale() + right.scale();
        }

        @Override
        public long value(final EventView event)
        {
            return flag.multiply(leftValue(event), rightValue(event));
        }

        @Override
        int precedence()
        {
            return MULTIPLICATIVE;
        }

        @Override
        String operator()
        {
            return "*";
        }

        @Override
        boolean associative()
        {
            return true;
        }
    }

    /** {@code -operand}, wrapping ({@code -Long.MIN_VALUE} is itself). */
    static final class Negate extends ValueNode
    {
        private final WrapFlag flag;
        private final ValueNode operand;

        Negate(final WrapFlag flag, final ValueNode operand)
        {
            super(operand.scale());
            this.flag = flag;
            this.operand = operand;
        }

        @Override
        public long value(final EventView event)
        {
            return flag.negate(operand.value(event));
        }

        @Override
        boolean isConstant()
        {
            return operand.isConstant();
        }

        @Override
        int precedence()
        {
            return UNARY;
        }

        @Override
        void render(final StringBuilder out)
        {
            out.append('-');
            operand.render(out, operand.precedence() < UNARY);
        }
    }
}
