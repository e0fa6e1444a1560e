package dev.weir.postgres;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A test's own tables in the test database: a connection ({@link TestDatabase#connect()}: skips, or fails
 * in CI, without a server) and a unique name prefix; {@link #close()} drops every table whose name starts
 * with it and deletes their {@code weir_offsets} rows, then closes the connection. Not thread-safe: one
 * test thread.
 */
public final class TestTables implements AutoCloseable
{
    private final Connection db;
    private final String name;

    private TestTables(final Connection db, final String name)
    {
        this.db = db;
        this.name = name;
    }

    /**
     * @param prefix what the tables are for, a lower-case identifier.
     * @return the test's tables.
     */
    public static TestTables open(final String prefix)
    {
        return new TestTables(TestDatabase.connect(), prefix + "_" + Long.toHexString(System.nanoTime()));
    }

    /**
     * @return the connection, in auto-commit mode.
     */
    public Connection db()
    {
        return db;
    }

    /**
     * @return a table name no other test uses; names that start with it are the test's too.
     */
    public String name()
    {
        return name;
    }

    @Override
    public void close() throws SQLException
    {
        try
        {
            for (final String table : TestDatabase.rows(db, "SELECT tablename FROM pg_tables WHERE tablename LIKE '" + name.replace("_", "\\_") + "%'"))
            {
                TestDatabase.execute(db, "DROP TABLE \"" + table + "\"");
            }
            TestDatabase.deleteOffsets(db, "results_table LIKE '" + name.replace("_", "\\_") + "%'");
        }
        finally
        {
            db.close();
        }
    }
}
