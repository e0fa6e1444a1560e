package dev.weir.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rows of a results table the sink fills, per UTC date of {@code window_start}: what the partition
 * checks of {@code weir check} ({@code rows} and {@code gaps}) read from a table, as from partition files.
 * The table's primary key on the key columns and the window rules out repeated rows. Reads only. Stateless
 * and thread-safe.
 */
public final class ResultsTableRows
{
    private ResultsTableRows()
    {
    }

    /**
     * @param jdbcUrl the database.
     * @param table   the results table.
     * @return its rows per date, in date order; unmodifiable.
     * @throws SinkRefusedException if the name is not allowed or there is no such table.
     * @throws SQLException         if the database cannot be reached or fails.
     */
    public static Map<LocalDate, Long> byDate(final String jdbcUrl, final String table) throws SQLException
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
            return Collections.unmodifiableMap(rows);
        }
    }
}
