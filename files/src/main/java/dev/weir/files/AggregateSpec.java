package dev.weir.files;

import java.util.regex.Pattern;

import dev.weir.engine.aggregate.Aggregation;
import dev.weir.engine.aggregate.ApproxDistinct;
import dev.weir.engine.aggregate.Average;

/**
 * One user aggregation as {@code --aggregate} names it: {@code average} (the mean of the value column,
 * rounded down), {@code distinct} (approximate distinct values of the value column) or
 * {@code distinct:COLUMN} (approximate distinct values of any column: string, long or decimal). It makes a
 * new {@link Aggregation} for each pipeline, names the column a results file gives it when a run has
 * several, and says whether its result is in the value column's unit (a mean), so printed at its scale.
 * <p>
 * Immutable and thread-safe.
 *
 * @param text   the name as given, e.g. {@code distinct:merchant}.
 * @param column the column a {@code distinct:COLUMN} counts, or null for the value column.
 */
public record AggregateSpec(String text, String column)
{
    /** What {@code --aggregate} accepts, for messages. */
    private static final String NAMES = "average, distinct or distinct:COLUMN";

    private static final Pattern COLUMN = Pattern.compile("[a-z_][a-z0-9_]{0,63}");

    /**
     * @param text {@code average}, {@code distinct} or {@code distinct:COLUMN}.
     * @return the aggregation it names.
     * @throws IllegalArgumentException with a one-line reason if it names none.
     */
    public static AggregateSpec parse(final String text)
    {
        if (text.equals("average") || text.equals("distinct"))
        {
            return new AggregateSpec(text, null);
        }
        if (text.startsWith("distinct:") && COLUMN.matcher(text.substring("distinct:".length())).matches())
        {
            return new AggregateSpec(text, text.substring("distinct:".length()));
        }
        throw new IllegalArgumentException("'" + text + "' is not an aggregation: " + NAMES);
    }

    /** @return a new aggregation of this kind (bound to the journal's columns by the pipeline). */
    public Aggregation aggregation()
    {
        if (text.equals("average"))
        {
            return new Average();
        }
        return column == null ? new ApproxDistinct() : ApproxDistinct.of(column);
    }

    /** @return its column in a results file of several aggregations: {@code average}, {@code distinct}, {@code distinct_COLUMN}. */
    public String fileColumn()
    {
        return column == null ? text : "distinct_" + column;
    }

    /** @return true if its result is in the value column's unit (a mean), printed at that column's scale; false for a count. */
    public boolean isAValue()
    {
        return text.equals("average");
    }

    @Override
    public String toString()
    {
        return text;
    }
}
