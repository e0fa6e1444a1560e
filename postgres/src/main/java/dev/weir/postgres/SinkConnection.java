package dev.weir.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Properties;

/**
 * One connection of the PostgreSQL sink (not in auto-commit, named {@value #APPLICATION_NAME} in
 * {@code pg_stat_activity}) with its prepared statements, after the tables were created or checked. The
 * upsert takes a whole {@link ResultBatch} as arrays.
 * Not thread-safe: the sink's delivering thread owns it.
 */
final class SinkConnection implements AutoCloseable
{
    /** The {@code application_name} the sink's sessions carry. */
    static final String APPLICATION_NAME = "weir-postgres-sink";

    final Connection connection;
    final PreparedStatement upsert;
    final PreparedStatement lockOffsets;
    final PreparedStatement ownRow;
    final PreparedStatement claimLock;
    final PreparedStatement otherJournals;
    final PreparedStatement createOffsets;
    final PreparedStatement updateOffsets;

    private SinkConnection(final Connection connection, final String table) throws SQLException
    {
        this.connection = connection;
        // a batch may hold several versions of one window (a late event re-fired it): keep the highest, since
        // one INSERT ... ON CONFLICT may not touch a row twice
        upsert = connection.prepareStatement("INSERT INTO " + SinkSchema.quoted(table) + " AS current "
            + "(key, window_start, window_end, count, sum, min, max, version, source_offset, aggregate) "
            + "SELECT DISTINCT ON (key, window_start, window_end) key, window_start, window_end, count, sum, min, max, version, "
            + "source_offset, aggregate FROM unnest(?::text[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], "
            + "?::bigint[], ?::integer[], ?::bigint[], ?::bigint[]) "
            + "AS batch(key, window_start, window_end, count, sum, min, max, version, source_offset, aggregate) "
            + "ORDER BY key, window_start, window_end, version DESC "
            + "ON CONFLICT (key, window_start, window_end) DO UPDATE SET count = excluded.count, sum = excluded.sum, "
            + "min = excluded.min, max = excluded.max, version = excluded.version, source_offset = excluded.source_offset, "
            + "aggregate = excluded.aggregate WHERE excluded.version > current.version");
        lockOffsets = connection.prepareStatement("SELECT output_position, source_offset FROM " + SinkSchema.OFFSETS_TABLE
            + " WHERE journal_id = ? AND results_table = ? FOR UPDATE");
        ownRow = connection.prepareStatement("SELECT 1 FROM " + SinkSchema.OFFSETS_TABLE + " WHERE journal_id = ? AND results_table = ?");
        claimLock = connection.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))");
        otherJournals = connection.prepareStatement("SELECT journal_id FROM " + SinkSchema.OFFSETS_TABLE
            + " WHERE results_table = ? AND journal_id <> ? LIMIT 1");
        createOffsets = connection.prepareStatement("INSERT INTO " + SinkSchema.OFFSETS_TABLE
            + " (journal_id, results_table, output_position, source_offset) VALUES (?, ?, -1, -1) ON CONFLICT DO NOTHING");
        updateOffsets = connection.prepareStatement("UPDATE " + SinkSchema.OFFSETS_TABLE
            + " SET output_position = ?, source_offset = ?, updated_at = now() WHERE journal_id = ? AND results_table = ?");
    }

    /**
     * @param jdbcUrl the database.
     * @param table   the results table (checked by {@link SinkSchema#checkName}).
     * @return a connection whose tables exist and match.
     * @throws SinkRefusedException if a table does not match.
     * @throws SQLException         if the database cannot be reached or fails.
     */
    static SinkConnection open(final String jdbcUrl, final String table) throws SQLException
    {
        final Connection connection = connect(jdbcUrl);
        try
        {
            connection.setAutoCommit(false);
            SinkSchema.ensure(connection, table);
            return new SinkConnection(connection, table);
        }
        catch (final SQLException | RuntimeException ex)
        {
            connection.close();
            throw ex;
        }
    }

    /**
     * @param jdbcUrl the database.
     * @return a connection with the sink's defaults (the URL's parameters win): its application name, and
     *         timeouts so that a server that stops answering fails a call instead of hanging it.
     * @throws SQLException if the database cannot be reached.
     */
    static Connection connect(final String jdbcUrl) throws SQLException
    {
        final Properties properties = new Properties();
        properties.setProperty("ApplicationName", APPLICATION_NAME);
        properties.setProperty("socketTimeout", "300");
        properties.setProperty("connectTimeout", "30");
        properties.setProperty("tcpKeepAlive", "true");
        return DriverManager.getConnection(jdbcUrl, properties);
    }

    /**
     * @return true if the server still answers on this connection.
     */
    boolean isValid()
    {
        try
        {
            return connection.isValid(5);
        }
        catch (final SQLException ex)
        {
            return false;
        }
    }

    @Override
    public void close() throws SQLException
    {
        connection.close();
    }
}
