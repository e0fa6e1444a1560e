package dev.weir.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The tables of the PostgreSQL sink, created on first use and checked on every connection (and the
 * late-events table, {@link LateEventsTable}, when the pipeline routes late events to its side output):
 * <ul>
 *   <li>the results table (default {@code weir_results}): one row per key and window, with the columns of
 *   the pipeline's {@link ResultsTableShape} (one per key column, named after it), unique by
 *   {@code (key columns..., window_start, window_end)}; the default columns' table is
 *   {@code (key text, window_start bigint, ...)}, unique by {@code (key, window_start, window_end)};</li>
 *   <li>{@value #OFFSETS_TABLE}: per journal id and results table, the last output journal position
 *   delivered and the highest source (event journal) offset it covers, and the identity of the results
 *   table they were delivered into ({@value #TABLE_OID} and {@value #TABLE_FILENODE}, nullable: added to an
 *   offsets table made before they existed, if the role may alter it).</li>
 * </ul>
 * A table that exists with a missing column, a column of another type, a required extra column, or
 * without the unique key the upsert needs is refused with {@link SinkRefusedException}, naming the columns
 * expected and found; it is never altered. So is a table another pipeline created keyed or valued
 * differently. Extra columns that are nullable or have a default (an audit timestamp, say) are allowed.
 * Stateless; its methods run on the caller's connection.
 */
final class SinkSchema
{
    static final String OFFSETS_TABLE = "weir_offsets";
    /** The results table's OID when the offsets were written: another after a DROP and CREATE. */
    static final String TABLE_OID = "table_oid";
    /** Its relfilenode then: another after a TRUNCATE (and after a rewrite, VACUUM FULL or CLUSTER). */
    static final String TABLE_FILENODE = "table_filenode";

    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private static final Map<String, String> OFFSET_COLUMNS = columns(
        "journal_id", "text", "results_table", "text", "output_position", "bigint", "source_offset", "bigint",
        "updated_at", "timestamp with time zone");
    private static final List<String> OFFSET_KEY = List.of("journal_id", "results_table");

    private SinkSchema()
    {
    }

    /**
     * @param table a results table name.
     * @return the name, if it is a plain lower-case SQL identifier.
     * @throws SinkRefusedException if it is not.
     */
    static String checkName(final String table)
    {
        if (table == null || !IDENTIFIER.matcher(table).matches() || table.equals(OFFSETS_TABLE))
        {
            throw new SinkRefusedException("results table name '" + table
                + "' is not allowed: use a lower-case identifier ([a-z_][a-z0-9_]*, up to 63 characters) other than " + OFFSETS_TABLE);
        }
        return table;
    }

    /**
     * Create the tables if they are missing, then check both, and add the identity columns to an offsets
     * table that lacks them (if the role may); commits.
     *
     * @param connection a connection, not in auto-commit.
     * @param table      the results table.
     * @param shape      its columns.
     * @param late       the late-events table, or null without one.
     * @return true if the offsets table has the identity columns (false: the role may not add them).
     * @throws SinkRefusedException if a table does not match.
     * @throws SQLException         if the database fails.
     */
    static boolean ensure(final Connection connection, final String table, final ResultsTableShape shape, final LateEventsTable late)
        throws SQLException
    {
        // create only what is missing: CREATE TABLE IF NOT EXISTS needs the CREATE privilege even when the
        // table exists, and a role a DBA gave only row privileges on pre-created tables must still work
        try (Statement statement = connection.createStatement())
        {
            if (!exists(connection, OFFSETS_TABLE))
            {
                statement.execute("CREATE TABLE IF NOT EXISTS " + OFFSETS_TABLE + " ("
                    + "journal_id text NOT NULL, results_table text NOT NULL, output_position bigint NOT NULL, "
                    + "source_offset bigint NOT NULL, updated_at timestamp with time zone NOT NULL DEFAULT now(), "
                    + TABLE_OID + " bigint, " + TABLE_FILENODE + " bigint, PRIMARY KEY (journal_id, results_table))");
                connection.commit();
            }
            if (!exists(connection, table))
            {
                statement.execute(shape.createTable(table));
                // a table dropped and created again is empty: offsets left from the old one would resume after
                // rows it no longer holds, so they go, in the same transaction, and delivery starts over
                try (PreparedStatement forget = connection.prepareStatement("DELETE FROM " + OFFSETS_TABLE + " WHERE results_table = ?"))
                {
                    forget.setString(1, table);
                    forget.executeUpdate();
                }
                if (late != null && exists(connection, late.table()))
                {
                    // and so do the late events delivered beside the old table: its journal's offsets are not the new one's
                    try (PreparedStatement forget = connection.prepareStatement("DELETE FROM " + quoted(late.table()) + " WHERE results_table = ?"))
                    {
                        forget.setString(1, table);
                        forget.executeUpdate();
                    }
                }
            }
            if (late != null && !exists(connection, late.table()))
            {
                statement.execute(late.createTable());
            }
        }
        connection.commit();
        check(connection, table, shape.columns(), shape.nullable(), shape.uniqueKey(), "this pipeline's results (" + shape.describe() + ")");
        if (late != null)
        {
            check(connection, late.table(), late.columns(), late.nullable(), late.uniqueKey(),
                "this pipeline's late events (" + shape.describe() + ")");
        }
        check(connection, OFFSETS_TABLE, OFFSET_COLUMNS, Map.of(), OFFSET_KEY, "Weir's offsets");
        connection.commit();
        return identityColumns(connection);
    }

    /**
     * An offsets table made before the identity columns existed gets them, nullable (a row without them
     * is trusted as before, and records them at its next delivery). A role with row privileges only may
     * not add them: then truncation and re-creation go undetected, as before, until a DBA adds them.
     */
    private static boolean identityColumns(final Connection connection) throws SQLException
    {
        final String both = "SELECT count(*) FROM pg_attribute WHERE attrelid = to_regclass('" + OFFSETS_TABLE + "') AND NOT attisdropped "
            + "AND attname IN ('" + TABLE_OID + "', '" + TABLE_FILENODE + "') AND atttypid = 'bigint'::regtype";
        try (Statement statement = connection.createStatement())
        {
            if (count(statement, both) == 2)
            {
                connection.commit();
                return true;
            }
            statement.execute("ALTER TABLE " + OFFSETS_TABLE + " ADD COLUMN IF NOT EXISTS " + TABLE_OID + " bigint, ADD COLUMN IF NOT EXISTS "
                + TABLE_FILENODE + " bigint");
            if (count(statement, both) != 2)
            {
                throw new SinkRefusedException("table " + OFFSETS_TABLE + " exists but does not match Weir's schema: columns " + TABLE_OID
                    + " and " + TABLE_FILENODE + " must be bigint. Weir does not alter columns: drop them, or the table.");
            }
            connection.commit();
            return true;
        }
        catch (final SQLException ex)
        {
            connection.rollback();
            if ("42501".equals(ex.getSQLState())) // insufficient_privilege: not the table's owner
            {
                return false;
            }
            throw ex;
        }
    }

    /**
     * @param name a lower-case identifier (see {@link #checkName}), a table's or a column's.
     * @return it double-quoted, so that names that are SQL keywords ({@code user}, {@code order}) work too.
     */
    static String quoted(final String name)
    {
        return '"' + name + '"';
    }

    private static int count(final Statement statement, final String query) throws SQLException
    {
        try (ResultSet row = statement.executeQuery(query))
        {
            row.next();
            return row.getInt(1);
        }
    }

    private static boolean exists(final Connection connection, final String table) throws SQLException
    {
        try (PreparedStatement query = connection.prepareStatement("SELECT to_regclass(?) IS NOT NULL"))
        {
            query.setString(1, quoted(table));
            try (ResultSet row = query.executeQuery())
            {
                row.next();
                return row.getBoolean(1);
            }
        }
    }

    private static void check(
        final Connection connection,
        final String table,
        final Map<String, String> expected,
        final Map<String, String> nullable,
        final List<String> key,
        final String what) throws SQLException
    {
        final List<String> problems = new ArrayList<>();
        final Map<String, String> found = new LinkedHashMap<>();
        // the columns of the table the name resolves to on the search path, the one statements will use
        try (PreparedStatement query = connection.prepareStatement(
            "SELECT a.attname, format_type(a.atttypid, a.atttypmod), CASE WHEN a.attnotnull THEN 'NO' ELSE 'YES' END, "
                + "CASE WHEN a.atthasdef THEN 'default' END FROM pg_attribute a "
                + "WHERE a.attrelid = to_regclass(?) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum"))
        {
            query.setString(1, quoted(table));
            try (ResultSet rows = query.executeQuery())
            {
                while (rows.next())
                {
                    final String column = rows.getString(1);
                    found.put(column, rows.getString(2));
                    if (nullable.containsKey(column) && "NO".equals(rows.getString(3)))
                    {
                        problems.add("column " + column + " is NOT NULL, but " + nullable.get(column));
                    }
                    if (!expected.containsKey(column) && "NO".equals(rows.getString(3)) && rows.getString(4) == null)
                    {
                        problems.add("extra column " + column + " is NOT NULL without a default");
                    }
                }
            }
        }
        expected.forEach((column, type) ->
        {
            final String actual = found.get(column);
            if (actual == null)
            {
                problems.add("column " + column + " " + type + " is missing");
            }
            else if (!actual.equals(type))
            {
                problems.add("column " + column + " is " + actual + ", expected " + type);
            }
        });
        if (!hasUniqueKey(connection, table, key))
        {
            problems.add("no primary key or unique index on exactly (" + String.join(", ", key) + ")");
        }
        if (!problems.isEmpty())
        {
            throw new SinkRefusedException("table " + table + " exists but does not match " + what + ": " + String.join("; ", problems)
                + ". Expected columns " + list(expected) + ", unique on (" + String.join(", ", key) + "); found columns " + list(found)
                + ". Weir does not alter tables: drop or rename it, or give another table name (--jdbc-table).");
        }
    }

    private static boolean hasUniqueKey(final Connection connection, final String table, final List<String> key) throws SQLException
    {
        try (PreparedStatement query = connection.prepareStatement(
            // an index ON CONFLICT can use: unique, valid, not deferrable, no predicate, plain columns only
            "SELECT string_agg(a.attname, ',' ORDER BY a.attname) FROM pg_index i "
                + "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) "
                + "WHERE i.indrelid = to_regclass(?) AND i.indisunique AND i.indisvalid AND i.indimmediate AND i.indpred IS NULL "
                + "AND i.indexprs IS NULL AND i.indnkeyatts = i.indnatts AND NOT (0 = ANY(i.indkey)) GROUP BY i.indexrelid"))
        {
            query.setString(1, quoted(table));
            final String wanted = String.join(",", key.stream().sorted().toList());
            try (ResultSet rows = query.executeQuery())
            {
                while (rows.next())
                {
                    if (wanted.equals(rows.getString(1)))
                    {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static String list(final Map<String, String> columns)
    {
        final StringBuilder text = new StringBuilder("(");
        columns.forEach((name, type) -> text.append(text.length() == 1 ? "" : ", ").append(name).append(' ').append(type));
        return text.append(')').toString();
    }

    private static Map<String, String> columns(final String... nameAndType)
    {
        final Map<String, String> columns = new LinkedHashMap<>();
        for (int i = 0; i < nameAndType.length; i += 2)
        {
            columns.put(nameAndType[i], nameAndType[i + 1]);
        }
        return columns;
    }
}
