package dev.weir.cli;

import dev.weir.journal.ResultFields;

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
     * @param r             the result.
     * @param key           its key's string.
     * @param withAggregate whether to write the aggregate column.
     * @return {@code row}.
     */
    static StringBuilder csv(final StringBuilder row, final ResultFields r, final String key, final boolean withAggregate)
    {
        row.append(r.windowStart()).append(',').append(r.windowEnd()).append(',').append(key).append(',').append(r.count()).append(',')
            .append(r.sum()).append(',').append(r.min()).append(',').append(r.max()).append(',').append(r.version());
        if (withAggregate)
        {
            row.append(',').append(r.aggregate());
        }
        return row;
    }

    /**
     * Append one JSON object (without the line end).
     *
     * @param row           where to write.
     * @param r             the result.
     * @param key           its key's string.
     * @param withAggregate whether to write the aggregate field.
     * @return {@code row}.
     */
    static StringBuilder json(final StringBuilder row, final ResultFields r, final String key, final boolean withAggregate)
    {
        row.append("{\"window_start\":").append(r.windowStart()).append(",\"window_end\":").append(r.windowEnd()).append(",\"key\":\"")
            .append(key).append("\",\"count\":").append(r.count()).append(",\"sum\":").append(r.sum()).append(",\"min\":").append(r.min())
            .append(",\"max\":").append(r.max()).append(",\"version\":").append(r.version());
        if (withAggregate)
        {
            row.append(",\"aggregate\":").append(r.aggregate());
        }
        return row.append('}');
    }
}
