package dev.weir.testsupport;

import java.sql.Connection;
import java.sql.SQLException;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test's own tables in the test database, as a JUnit extension ({@code @RegisterExtension}): before
 * each test, a connection ({@link TestDatabase#connect()}: skips, or fails in CI, without a server) and a
 * unique name prefix; after it, every table whose name starts with the prefix is dropped, their
 * {@code weir_offsets} rows deleted, and the connection closed. Not thread-safe: one test thread.
 */
public final class TestTables implements BeforeEachCallback, AfterEachCallback
{
    private final String prefix;
    private Connection db;
    private String name;

    /**
     * @param prefix what the tables are for, a lower-case identifier.
     */
    public TestTables(final String prefix)
    {
        this.prefix = prefix;
    }

    @Override
    public void beforeEach(final ExtensionContext context)
    {
        db = TestDatabase.connect();
        name = prefix + "_" + Long.toHexString(System.nanoTime());
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
    public void afterEach(final ExtensionContext context) throws SQLException
    {
        if (db == null)
        {
            return; // skipped: no server
        }
        try
        {
            final String like = name.replace("_", "\\_") + "%";
            for (final String table : TestDatabase.rows(db, "SELECT tablename FROM pg_tables WHERE tablename LIKE '" + like + "'"))
            {
                TestDatabase.execute(db, "DROP TABLE \"" + table + "\"");
            }
            TestDatabase.deleteOffsets(db, "results_table LIKE '" + like + "'");
        }
        finally
        {
            db.close();
            db = null;
        }
    }
}
