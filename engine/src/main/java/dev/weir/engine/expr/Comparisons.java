package dev.weir.engine.expr;

/**
 * The six comparison operators that filters and early conditions share, and the exact comparison of two longs at
 * different decimal scales. Stateless; thread-safe; allocation-free.
 */
public final class Comparisons
{
    public static final int LT = 0;
    public static final int LE = 1;
    public static final int GT = 2;
    public static final int GE = 3;
    public static final int EQ = 4;
    public static final int NE = 5;

    private Comparisons()
    {
    }

    /**
     * @param operator {@link #LT} to {@link #NE}.
     * @param comparison the sign of {@code a - b} (as {@link Long#compare} gives it).
     * @return {@code a op b}.
     */
    public static boolean holds(final int operator, final int comparison)
    {
        return switch (operator)
        {
            case LT -> comparison < 0;
            case LE -> comparison <= 0;
            case GT -> comparison > 0;
            case GE -> comparison >= 0;
            case EQ -> comparison == 0;
            default -> comparison != 0;
        };
    }

    /**
     * @param a      a value at the smaller scale.
     * @param factor the power of ten between the scales, at least 1.
     * @param b      a value at the larger scale.
     * @return the sign of {@code a * factor - b}, exactly (no overflow).
     */
    public static int compareScaled(final long a, final long factor, final long b)
    {
        if (a > Long.MAX_VALUE / factor)
        {
            return 1;
        }
        if (a < Long.MIN_VALUE / factor)
        {
            return -1;
        }
        return Long.compare(a * factor, b);
    }
}
