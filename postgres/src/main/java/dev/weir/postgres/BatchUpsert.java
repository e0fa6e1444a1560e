package dev.weir.postgres;

import java.util.ArrayList;
import java.util.List;

/**
 * The one statement that writes a {@link ResultBatch} into a results table, so that the table holds one row
 * per window: the batch's columns are bound as arrays in table order, unnested, and
 * <ol>
 *   <li>each window of the batch is kept once, at its highest version (one {@code INSERT ... ON CONFLICT} may
 *   not touch a row twice);</li>
 *   <li>a window whose bounds lie inside another window of its key, in the batch or in the table, is
 *   superseded: a session that grew or merged after the row was written (its early row, or a firing that a
 *   late event extended) covers the rows of its key inside its bounds, as its version counts them. The
 *   table's rows inside a window of the batch are deleted, and a window of the batch inside a row of the
 *   table (delivered again) is not written. Tumbling and sliding windows of one key never lie inside one
 *   another, so only sessions are ever superseded;</li>
 *   <li>the remaining windows are upserted by {@code (key columns..., window_start, window_end)}, a row
 *   replaced only by a higher version.</li>
 * </ol>
 * With the {@code early} column a window is early if it, or a row it supersedes, or the row it replaces is.
 * The statement returns one row: the rows inserted or raised to a higher version, and the rows deleted as
 * superseded. The lookups are by the table's primary key: a range of starts within each window of the batch,
 * and the nearest row of its key starting before it.
 * <p>
 * Stateless; thread-safe.
 */
final class BatchUpsert
{
    private BatchUpsert()
    {
    }

    /**
     * @param shape the table's columns.
     * @param table the results table, checked.
     * @return the statement, with one array parameter per column in table order.
     */
    static String sql(final ResultsTableShape shape, final String table)
    {
        final String target = SinkSchema.quoted(table);
        final List<String> keys = new ArrayList<>(shape.uniqueKey().subList(0, shape.keyArity()));
        final String keyList = list("", keys);
        final String window = list("", shape.uniqueKey());
        final List<String> values = new ArrayList<>(shape.columns().keySet());
        final boolean early = shape.hasEarly();
        values.remove(ResultsTableShape.EARLY);
        final String flag = SinkSchema.quoted(ResultsTableShape.EARLY);
        final StringBuilder arrays = new StringBuilder();
        shape.columns().forEach((name, type) -> arrays.append(arrays.length() == 0 ? "" : ", ").append("?::")
            .append(type.startsWith("numeric") ? "numeric" : type).append("[]"));
        final String byStart = "PARTITION BY " + keyList + " ORDER BY window_start, window_end DESC";

        final StringBuilder sql = new StringBuilder("WITH batch AS (SELECT * FROM unnest(").append(arrays).append(") AS batch(")
            .append(list("", shape.columns().keySet())).append(")), ");
        // each window once, at its highest version; early if any of its rows is
        sql.append("windows AS (SELECT DISTINCT ON (").append(window).append(") ").append(list("", values))
            .append(early ? ", bool_or(" + flag + ") OVER (PARTITION BY " + window + ") AS " + flag : "")
            .append(" FROM batch ORDER BY ").append(window).append(", version DESC), ");
        // by start, the longer first: a window is inside an earlier one of its key if one of them ends at or after its end
        sql.append("ordered AS (SELECT *, coalesce(max(window_end) OVER (").append(byStart)
            .append(" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) >= window_end, false) AS inside FROM windows), ");
        if (early)
        {
            // the windows inside an outer one follow it, before the next outer one: they pass their early flag to it
            sql.append("grouped AS (SELECT *, count(*) FILTER (WHERE NOT inside) OVER (").append(byStart)
                .append(" ROWS UNBOUNDED PRECEDING) AS outer_window FROM ordered), ")
                .append("outermost AS (SELECT * FROM (SELECT ").append(list("", values)).append(", inside, bool_or(").append(flag)
                .append(") OVER (PARTITION BY ").append(keyList).append(", outer_window) AS ").append(flag)
                .append(" FROM grouped) flagged WHERE NOT inside), ");
        }
        else
        {
            sql.append("outermost AS (SELECT * FROM ordered WHERE NOT inside), ");
        }
        // the table's rows inside a window of the batch, with other bounds, are superseded
        sql.append("gone AS (DELETE FROM ").append(target).append(" AS old USING outermost b WHERE ").append(equal("old", "b", keys))
            .append(" AND old.window_start >= b.window_start AND old.window_start < b.window_end AND old.window_end <= b.window_end")
            .append(" AND (old.window_start, old.window_end) <> (b.window_start, b.window_end) RETURNING ").append(list("b.", shape.uniqueKey()))
            .append(early ? ", old." + flag : "").append("), ");
        // a window inside a row of the table (with other bounds) was superseded before: it is delivered again, and not written
        sql.append("fresh AS (SELECT * FROM outermost b WHERE NOT EXISTS (SELECT 1 FROM ").append(target).append(" o WHERE ")
            .append(equal("o", "b", keys)).append(" AND o.window_start = b.window_start AND o.window_end > b.window_end)")
            .append(" AND NOT EXISTS (SELECT 1 FROM (SELECT o.window_end FROM ").append(target).append(" o WHERE ").append(equal("o", "b", keys))
            .append(" AND o.window_start < b.window_start ORDER BY o.window_start DESC LIMIT 1) nearest WHERE nearest.window_end >= b.window_end)), ");
        final StringBuilder updates = new StringBuilder();
        for (final String column : values.subList(shape.uniqueKey().size(), values.size()))
        {
            updates.append(updates.length() == 0 ? "" : ", ").append(SinkSchema.quoted(column)).append(" = excluded.").append(SinkSchema.quoted(column));
        }
        sql.append("written AS (INSERT INTO ").append(target).append(" AS current (").append(list("", shape.columns().keySet())).append(") SELECT ")
            .append(list("f.", values));
        if (early)
        {
            updates.append(", ").append(flag).append(" = current.").append(flag).append(" OR excluded.").append(flag);
            sql.append(", f.").append(flag).append(" OR coalesce(g.").append(flag).append(", false) FROM fresh f LEFT JOIN (SELECT ")
                .append(window).append(", bool_or(").append(flag).append(") AS ").append(flag).append(" FROM gone GROUP BY ").append(window)
                .append(") g USING (").append(window).append(")");
        }
        else
        {
            sql.append(" FROM fresh f");
        }
        return sql.append(" ON CONFLICT (").append(window).append(") DO UPDATE SET ").append(updates)
            .append(" WHERE excluded.version > current.version RETURNING 1) ")
            .append("SELECT (SELECT count(*) FROM written), (SELECT count(*) FROM gone)").toString();
    }

    /** @return {@code a.k1 = b.k1 AND a.k2 = b.k2 ...} over the key columns. */
    private static String equal(final String a, final String b, final List<String> keys)
    {
        final StringBuilder sql = new StringBuilder();
        for (final String key : keys)
        {
            sql.append(sql.length() == 0 ? "" : " AND ").append(a).append('.').append(SinkSchema.quoted(key)).append(" = ").append(b).append('.')
                .append(SinkSchema.quoted(key));
        }
        return sql.toString();
    }

    /** @return the names quoted, each with the prefix, comma-separated. */
    private static String list(final String prefix, final Iterable<String> names)
    {
        final StringBuilder list = new StringBuilder();
        for (final String name : names)
        {
            list.append(list.length() == 0 ? "" : ", ").append(prefix).append(SinkSchema.quoted(name));
        }
        return list.toString();
    }
}
