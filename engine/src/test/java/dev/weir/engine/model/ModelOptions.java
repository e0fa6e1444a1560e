package dev.weir.engine.model;

import java.util.function.Predicate;

/**
 * The output options of the test-only reference model: update rows, and the early condition. The condition
 * is given twice: as the text the engine parses, and as the model's own predicate over a window's
 * {@code {count, sum, min, max}} written by hand in the test, so the parser is checked too. Test-only;
 * shares no code with the engine.
 *
 * @param updates   emit an update row after each event added to a window whose end the watermark has not passed.
 * @param earlyText the engine's early condition, or null for none.
 * @param early     the model's predicate for it over {@code {count, sum, min, max, eventId}} (the event being added), or null for none.
 * @param onceByKey early rows once per key ({@code --early-once key}).
 */
public record ModelOptions(boolean updates, String earlyText, Predicate<long[]> early, boolean onceByKey)
{
    /** Neither option: the model of before. */
    public static final ModelOptions NONE = new ModelOptions(false, null, null);

    /**
     * Every window its own early row.
     *
     * @param updates   emit update rows.
     * @param earlyText the engine's early condition, or null.
     * @param early     the model's predicate for it, or null.
     */
    public ModelOptions(final boolean updates, final String earlyText, final Predicate<long[]> early)
    {
        this(updates, earlyText, early, false);
    }

    /** @return these options with early rows once per key. */
    public ModelOptions withEarlyOnceByKey()
    {
        return new ModelOptions(updates, earlyText, early, true);
    }

    @Override
    public String toString()
    {
        return (updates ? "--emit updates " : "") + (earlyText != null ? "--early-when '" + earlyText + "'" : "")
            + (onceByKey ? " --early-once key" : "");
    }
}
