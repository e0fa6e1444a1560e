package dev.weir.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Properties;

/**
 * One connection of the PostgreSQL sink (not in auto-commit, named {@value #APPLICATION_NAME} in
 * {@code pg_stat_activity}) with its prepared statements, after the tables were created or checked. The
 * upsert ({@link BatchUpsert}) takes a whole {@link ResultBatch} as arrays. The sink's sessions carry timeouts (the URL's
 * parameters win): {@code lock_timeout} {@value #LOCK_TIMEOUT_S} s and {@code statement_timeout}
 * {@value #STATEMENT_TIMEOUT_S} s (the {@code options} parameter), {@code socketTimeout} {@value #SOCKET_TIMEOUT_S} s,
 * {@code loginTimeout} {@value #LOGIN_TIMEOUT_S} s, {@code connectTimeout} {@value #CONNECT_TIMEOUT_S} s.
 * Not thread-safe: the sink's delivering thread owns it; only {@link #abort()} may be called from another.
 */
final class SinkConnection implements AutoCloseable
{
    /** The {@code application_name} the sink's sessions carry. */
    static final String APPLICATION_NAME = "weir-postgres-sink";
    /** A delivery's wait for a lock (server side, {@code lock_timeout}). */
    static final int LOCK_TIMEOUT_S = 10;
    /** A delivery's statement (server side, {@code statement_timeout}). */
    static final int STATEMENT_TIMEOUT_S = 120;
    /** A delivery's wait for the server's answer (client side: a network that went silent). */
    static final int SOCKET_TIMEOUT_S = 150;
    /** Connecting and logging in. */
    static final int LOGIN_TIMEOUT_S = 30;
    /** Opening the TCP connection. */
    static final int CONNECT_TIMEOUT_S = 10;

    final Connection connection;
    final PreparedStatement upsert;
    final PreparedStatement lockOffsets;
    final PreparedStatement ownRow;
    final PreparedStatement claimLock;
    final PreparedStatement otherJournals;
    final PreparedStatement createOffsets;
    final PreparedStatement updateOffsets;
    /** Inserts one late event ({@link LateEventsTable#insert()}), or null without a late-events table. */
    final PreparedStatement insertLate;

    private SinkConnection(
        final Connection connection, final String table, final ResultsTableShape shape, final LateEventsTable late, final boolean tracksIdentity)
        throws SQLException
    {
        this.connection = connection;
        upsert = connection.prepareStatement(BatchUpsert.sql(shape, table));
        insertLate = late == null ? null : connection.prepareStatement(late.insert());
        // the offsets hold for the table they were delivered into: not for one a DBA truncated or created again
        final String regclass = "to_regclass('" + SinkSchema.quoted(table) + "')";
        final String oid = regclass + "::oid::bigint";
        final String filenode = "pg_relation_filenode(" + regclass + ")::bigint";
        lockOffsets = connection.prepareStatement("SELECT output_position, source_offset, "
            + (tracksIdentity ? SinkSchema.TABLE_OID + " IS NULL OR (" + SinkSchema.TABLE_OID + " = " + oid + " AND "
                + SinkSchema.TABLE_FILENODE + " IS NOT DISTINCT FROM " + filenode + ")" : "true")
            + " FROM " + SinkSchema.OFFSETS_TABLE + " WHERE journal_id = ? AND results_table = ? FOR UPDATE");
        ownRow = connection.prepareStatement("SELECT 1 FROM " + SinkSchema.OFFSETS_TABLE + " WHERE journal_id = ? AND results_table = ?");
        claimLock = connection.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))");
        otherJournals = connection.prepareStatement("SELECT journal_id FROM " + SinkSchema.OFFSETS_TABLE
            + " WHERE results_table = ? AND journal_id <> ? LIMIT 1");
        createOffsets = connection.prepareStatement("INSERT INTO " + SinkSchema.OFFSETS_TABLE
            + " (journal_id, results_table, output_position, source_offset) VALUES (?, ?, -1, -1) ON CONFLICT DO NOTHING");
        updateOffsets = connection.prepareStatement("UPDATE " + SinkSchema.OFFSETS_TABLE
            + " SET output_position = ?, source_offset = ?, updated_at = now()"
            + (tracksIdentity ? ", " + SinkSchema.TABLE_OID + " = " + oid + ", " + SinkSchema.TABLE_FILENODE + " = " + filenode : "")
            + " WHERE journal_id = ? AND results_table = ?");
    }

    /**
     * @param jdbcUrl the database.
     * @param table   the results table (checked by {@link SinkSchema#checkName}).
     * @param shape   its columns.
     * @param late    the late-events table, or null without one.
     * @return a connection whose tables exist and match.
     * @throws SinkRefusedException if a table does not match.
     * @throws SQLException         if the database cannot be reached or fails.
     */
    static SinkConnection open(final String jdbcUrl, final String table, final ResultsTableShape shape, final LateEventsTable late)
        throws SQLException
    {
        final Properties delivery = new Properties();
        // a delivery that waits for a lock, or a statement the server does not finish, fails within these
        // instead of holding the delivery (and a stop) for minutes; the URL's own options replace them
        delivery.setProperty("options", "-c lock_timeout=" + LOCK_TIMEOUT_S + "s -c statement_timeout=" + STATEMENT_TIMEOUT_S + "s");
        delivery.setProperty("socketTimeout", String.valueOf(SOCKET_TIMEOUT_S));
        delivery.setProperty("loginTimeout", String.valueOf(LOGIN_TIMEOUT_S));
        delivery.setProperty("connectTimeout", String.valueOf(CONNECT_TIMEOUT_S));
        final Connection connection = connect(jdbcUrl, delivery);
        try
        {
            connection.setAutoCommit(false);
            return new SinkConnection(connection, table, shape, late, SinkSchema.ensure(connection, table, shape, late));
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
        return connect(jdbcUrl, new Properties());
    }

    private static Connection connect(final String jdbcUrl, final Properties overrides) throws SQLException
    {
        final Properties properties = new Properties();
        properties.setProperty("ApplicationName", APPLICATION_NAME);
        properties.setProperty("socketTimeout", "300");
        properties.setProperty("connectTimeout", "30");
        properties.setProperty("tcpKeepAlive", "true");
        properties.putAll(overrides);
        return DriverManager.getConnection(jdbcUrl, properties);
    }

    /**
     * Close the connection at once from another thread, so that a call blocked on it fails now (a stop
     * that will not wait for a database that hangs).
     */
    void abort()
    {
        try
        {
            connection.abort(Runnable::run);
        }
        catch (final SQLException ignored)
        {
            // closed already
        }
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
