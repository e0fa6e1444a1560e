package dev.weir.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import dev.weir.check.PartitionProfile;

/**
 * The partition checks of {@code weir check} ({@code rows} and {@code gaps}) on a results table the sink
 * fills, as on partition files: the rows per UTC date of {@code window_start}. ({@code unique} is skipped:
 * the table's primary key rules out repeated rows.) Reads only. Stateless and thread-safe.
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
        try (Connection connection = SinkConnection.connect(jdbcUrl); Statement statement = connection.createStatement())
        {
            connection.setReadOnly(true);
            try (java.sql.PreparedStatement exists = connection.prepareStatement("SELECT to_regclass(?) IS NOT NULL"))
            {
                exists.setString(1, quoted);
                try (ResultSet found = exists.executeQuery())
                {
                    found.next();
                    if (!found.getBoolean(1))
                    {
                        throw new SinkRefusedException("no table " + table + " in the database");
                    }
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
            // the sink's table has a primary key on (key columns..., window_start, window_end): no row can repeat
            return new PartitionProfile(Collections.unmodifiableMap(rows), PartitionProfile.UNIQUE_BY_KEY);
        }
    }
}
