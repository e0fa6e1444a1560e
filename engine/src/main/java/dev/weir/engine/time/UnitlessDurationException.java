package dev.weir.engine.time;

/**
 * A duration written as a bare number other than 0 ({@code 10} for {@code 10ms} or {@code 10s}): refused, so that
 * {@code tumbling:10} cannot mean 10 ms silently. The message quotes the text and names the fix:
 * {@code 'tumbling:10': a duration needs a unit: write 10ms or 10s (units: ms, s, m, h, d)}. Immutable.
 */
public final class UnitlessDurationException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    private final String amount;

    /**
     * @param text   the text as given (a duration, or a window spec holding one).
     * @param amount the bare number in it.
     */
    public UnitlessDurationException(final String text, final String amount)
    {
        super("'" + text + "': " + reason(amount));
        this.amount = amount;
    }

    /**
     * @return the message without the quoted text, for a caller that names the text itself (a command line
     *         naming its flag): {@code a duration needs a unit: write 10ms or 10s (units: ms, s, m, h, d)}.
     */
    public String reason()
    {
        return reason(amount);
    }

    /** @return the bare number, e.g. {@code 10}. */
    public String amount()
    {
        return amount;
    }

    private static String reason(final String amount)
    {
        return "a duration needs a unit: write " + amount + "ms or " + amount + "s (units: ms, s, m, h, d)";
    }
}
