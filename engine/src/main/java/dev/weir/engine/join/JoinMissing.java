package dev.weir.engine.join;

/**
 * What a pipeline does with an event a join finds no row for (no version of its key valid at its time, a
 * tombstone, or a version dead behind the {@link Horizon}).
 */
public enum JoinMissing
{
    /** Drop the event from the rule (an inner join): it moves the watermark and is counted as unmatched. */
    DROP,
    /** Keep the event: the table's columns read their declared defaults (0, or "" for a string, when none). */
    KEEP;

    /**
     * @param text {@code drop} or {@code keep}, any case.
     * @return the policy.
     * @throws IllegalArgumentException naming the two, for anything else.
     */
    public static JoinMissing parse(final String text)
    {
        switch (text.toLowerCase(java.util.Locale.ROOT))
        {
            case "drop":
                return DROP;
            case "keep":
                return KEEP;
            default:
                throw new IllegalArgumentException("--join-missing is drop or keep: '" + text + "'");
        }
    }
}
