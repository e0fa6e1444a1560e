package dev.weir.testsupport;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Assumptions;

/**
 * The real PostgreSQL server the tests use: {@code WEIR_TEST_JDBC_URL}, by default the one
 * {@code scripts/test-postgres.sh} sets up ({@code ./weir test} and {@code .ci/run} run it). When the server
 * cannot be reached the tests are skipped with a message, unless {@code WEIR_REQUIRE_POSTGRES=1} (CI sets
 * it), which makes them fail instead. Stateless; safe from any thread (each connection is the caller's).
 */
public final class TestDatabase
{
    /** The URL of the test database. */
    public static final String URL = System.getenv().getOrDefault(
        "WEIR_TEST_JDBC_URL", "jdbc:postgresql://127.0.0.1:5432/weir_test?user=weir&password=weir");

    private TestDatabase()
    {
    }

    /**
     * @param jdbcUrl a JDBC URL
     * @return the URL without its parameters (user and password), for a message
     */
    private static String redacted(final String jdbcUrl)
    {
        final int query = jdbcUrl.indexOf('?');
        return query < 0 ? jdbcUrl : jdbcUrl.substring(0, query) + "?…";
    }

    /**
     * @param parameter a connection parameter, {@code name=value} (URL-encoded).
     * @return the test database's URL with the parameter added (it wins over the driver's properties).
     */
    public static String url(final String parameter)
    {
        return URL + (URL.contains("?") ? "&" : "?") + parameter;
    }

    /**
     * @return a connection in auto-commit mode; skips (or fails, in CI) the test when there is no server.
     */
    public static Connection connect()
    {
        try
        {
            return DriverManager.getConnection(URL);
        }
        catch (final SQLException ex)
        {
            final String message = "no PostgreSQL server at " + redacted(URL) + " (" + ex.getMessage()
                + "); run scripts/test-postgres.sh, or set WEIR_TEST_JDBC_URL";
            if ("1".equals(System.getenv("WEIR_REQUIRE_POSTGRES")))
            {
                fail(message + " -- WEIR_REQUIRE_POSTGRES=1, so this fails rather than skips");
            }
            System.err.println("SKIPPED (set WEIR_REQUIRE_POSTGRES=1 to fail instead): " + message);
            Assumptions.abort(message);
            throw new AssertionError("unreachable");
        }
    }

    /**
     * @param connection a connection.
     * @param sql        a query.
     * @return its rows, each as its columns joined with commas.
     * @throws SQLException if it fails.
     */
    public static List<String> rows(final Connection connection, final String sql) throws SQLException
    {
        final List<String> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql))
        {
            final int columns = result.getMetaData().getColumnCount();
            while (result.next())
            {
                final StringBuilder row = new StringBuilder();
                for (int c = 1; c <= columns; c++)
                {
                    row.append(c > 1 ? "," : "").append(result.getString(c));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    /**
     * @param connection a connection.
     * @param sql        statements to run.
     * @throws SQLException if one fails.
     */
    public static void execute(final Connection connection, final String sql) throws SQLException
    {
        try (Statement statement = connection.createStatement())
        {
            statement.execute(sql);
        }
    }

    /**
     * Delete rows of {@code weir_offsets}, if the table exists yet (a fresh database has none until a sink
     * connects).
     *
     * @param connection a connection.
     * @param condition  the rows, as a WHERE condition.
     * @throws SQLException if it fails.
     */
    public static void deleteOffsets(final Connection connection, final String condition) throws SQLException
    {
        if ("t".equals(rows(connection, "SELECT to_regclass('weir_offsets') IS NOT NULL").get(0)))
        {
            execute(connection, "DELETE FROM weir_offsets WHERE " + condition);
        }
    }
}
