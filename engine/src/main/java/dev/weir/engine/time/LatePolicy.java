package dev.weir.engine.time;

/**
 * What happens to an event that is skipped because every window it belongs to is already late.
 */
public enum LatePolicy
{
    /** Count it and drop it. */
    DROP,
    /** Hand it to the late (side) output, in arrival order. */
    SIDE;

    /**
     * @param text {@code drop} or {@code side}, any case.
     * @return the policy.
     * @throws IllegalArgumentException for anything else.
     */
    public static LatePolicy parse(final String text)
    {
        switch (text.toLowerCase(java.util.Locale.ROOT))
        {
            case "drop":
                return DROP;
            case "side":
                return SIDE;
            default:
                throw new IllegalArgumentException("late policy must be 'drop' or 'side': '" + text + "'");
        }
    }
}
