package dev.weir.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import dev.weir.engine.check.PartitionProfile;

/**
 * The partition checks of {@code weir check} ({@code rows}, {@code unique}, {@code gaps}) on a results
 * table the sink fills, as on partition files: the rows per UTC date of {@code window_start}, and the
 * rows that repeat a {@code (key, window_start, window_end, version)}. Reads only. Stateless.
 */
public final class ResultsTableProfile
{
    private ResultsTableProfile()
    {
    }

    /**
     * @param jdbcUrl the database.
     * @param table   the results table.
     * @return its profile.
     * @throws SinkRefusedException if the name is not allowed or there is no such table.
     * @throws SQLException         if the database cannot be reached or fails.
     */
    public static PartitionProfile of(final String jdbcUrl, final String table) throws SQLException
    {
        SinkSchema.checkName(table);
        final String quoted = SinkSchema.quoted(table);
        try (Connection connection = DriverManager.getConnection(jdbcUrl); Statement statement = connection.createStatement())
        {
            connection.setReadOnly(true);
            try (ResultSet exists = statement.executeQuery("SELECT to_regclass('" + quoted.replace("'", "''") + "') IS NOT NULL"))
            {
                exists.next();
                if (!exists.getBoolean(1))
                {
                    throw new SinkRefusedException("no table " + table + " in the database");
                }
            }
            final Map<LocalDate, Long> rows = new TreeMap<>();
            try (ResultSet byDate = statement.executeQuery("SELECT (timestamp 'epoch' + window_start * interval '1 millisecond')::date, count(*) "
                + "FROM " + quoted + " GROUP BY 1"))
            {
                while (byDate.next())
                {
                    rows.put(byDate.getObject(1, LocalDate.class), byDate.getLong(2));
                }
            }
            final long duplicates;
            try (ResultSet repeated = statement.executeQuery(
                "SELECT count(*) - count(DISTINCT (key, window_start, window_end, version)) FROM " + quoted))
            {
                repeated.next();
                duplicates = repeated.getLong(1);
            }
            return new PartitionProfile(Collections.unmodifiableMap(rows), duplicates);
        }
    }
}
