package dev.weir.cli;

/**
 * The text of one result row, in the results CSV ({@code window_start,window_end,key,count,sum,min,max,version},
 * then {@code aggregate} when the run has a user aggregation) or as one JSON object with the same fields.
 * Keys are {@code [A-Za-z0-9_-]}: nothing to escape. Stateless.
 */
final class ResultRow
{
    /** The results CSV header without a user aggregation (DESIGN.md's format). */
    static final String HEADER = "window_start,window_end,key,count,sum,min,max,version";

    private ResultRow()
    {
    }

    /**
     * @param withAggregate whether rows carry a user aggregation's value.
     * @return the CSV header.
     */
    static String header(final boolean withAggregate)
    {
        return withAggregate ? HEADER + ",aggregate" : HEADER;
    }

    /**
     * Append one CSV row (without the line end).
     *
     * @param row           where to write.
     * @param withAggregate whether to write the aggregate column.
     * @return {@code row}.
     */
    static StringBuilder csv(
        final StringBuilder row, final long start, final long end, final String key, final long count, final long sum, final long min,
        final long max, final int version, final boolean withAggregate, final long aggregate)
    {
        row.append(start).append(',').append(end).append(',').append(key).append(',').append(count).append(',').append(sum).append(',')
            .append(min).append(',').append(max).append(',').append(version);
        if (withAggregate)
        {
            row.append(',').append(aggregate);
        }
        return row;
    }

    /**
     * Append one JSON object (without the line end).
     *
     * @param row           where to write.
     * @param withAggregate whether to write the aggregate field.
     * @return {@code row}.
     */
    static StringBuilder json(
        final StringBuilder row, final long start, final long end, final String key, final long count, final long sum, final long min,
        final long max, final int version, final boolean withAggregate, final long aggregate)
    {
        row.append("{\"window_start\":").append(start).append(",\"window_end\":").append(end).append(",\"key\":\"").append(key)
            .append("\",\"count\":").append(count).append(",\"sum\":").append(sum).append(",\"min\":").append(min).append(",\"max\":")
            .append(max).append(",\"version\":").append(version);
        if (withAggregate)
        {
            row.append(",\"aggregate\":").append(aggregate);
        }
        return row.append('}');
    }
}
