package dev.weir.cli;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import dev.weir.testsupport.TestDatabase;


/**
 * The PostgreSQL side of an upgrade fixture: a schema of its own per writing or test run (the sink's tables are
 * unqualified, so {@code currentSchema} in the JDBC URL puts them there under the names the fixture used), a
 * table dumped as SQL ({@code CREATE TABLE} with its columns, defaults and primary key, then one {@code INSERT}
 * per row, every value a text literal), and a table's rows as text for comparison. Stateless; each call uses the
 * connection it is given.
 */
final class FixtureTables
{
    /** The column left out of compared rows: a journal offset, which differs between two journals of the same events. */
    static final String SOURCE_OFFSET = "source_offset";

    private FixtureTables()
    {
    }

    /**
     * @param db     a connection.
     * @param prefix what the schema is for, a lower-case identifier.
     * @return a new, empty schema's name.
     * @throws SQLException if it cannot be created.
     */
    static String createSchema(final Connection db, final String prefix) throws SQLException
    {
        final String schema = prefix + "_" + Long.toHexString(System.nanoTime());
        TestDatabase.execute(db, "CREATE SCHEMA " + schema);
        return schema;
    }

    /**
     * @param schema a schema.
     * @return the test database's URL with its unqualified names resolved in that schema.
     */
    static String url(final String schema)
    {
        return TestDatabase.url("currentSchema=" + schema);
    }

    /**
     * @param db     a connection.
     * @param schema the schema.
     * @param table  a table in it.
     * @param where  which rows, an SQL condition.
     * @return the SQL that creates the table (unqualified) and inserts those rows.
     * @throws SQLException if the catalog or the table cannot be read.
     */
    static String dump(final Connection db, final String schema, final String table, final String where) throws SQLException
    {
        final String regclass = schema + "." + table;
        final List<String> columns = new ArrayList<>();
        final StringBuilder sql = new StringBuilder("CREATE TABLE ").append(table).append(" (");
        try (PreparedStatement query = db.prepareStatement("SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, "
            + "pg_get_expr(d.adbin, d.adrelid) FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
            + "WHERE a.attrelid = to_regclass(?) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum"))
        {
            query.setString(1, regclass);
            try (ResultSet column = query.executeQuery())
            {
                while (column.next())
                {
                    columns.add(column.getString(1));
                    sql.append(columns.size() > 1 ? ", " : "").append('"').append(column.getString(1)).append("\" ").append(column.getString(2))
                        .append(column.getBoolean(3) ? " NOT NULL" : "").append(column.getString(4) == null ? "" : " DEFAULT " + column.getString(4));
                }
            }
        }
        for (final String key : TestDatabase.rows(db, "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'p' AND conrelid = to_regclass('"
            + regclass + "')"))
        {
            sql.append(", ").append(key);
        }
        sql.append(");\n");
        final String names = '"' + String.join("\", \"", columns) + '"';
        for (final String values : TestDatabase.rows(db, "SELECT concat_ws(', ', " + String.join(", ", columns.stream()
            .map(c -> "quote_nullable(\"" + c + "\"::text)").toList()) + ") FROM " + regclass + " WHERE " + where + " ORDER BY 1"))
        {
            sql.append("INSERT INTO ").append(table).append(" (").append(names).append(") VALUES (").append(values).append(");\n");
        }
        return sql.toString();
    }

    /**
     * @param db     a connection.
     * @param schema the schema.
     * @param table  a results table in it.
     * @return a header (the columns compared, joined with commas: all but {@value #SOURCE_OFFSET}), then the rows,
     *         each as its values joined with commas, sorted by every column.
     * @throws SQLException if it cannot be read.
     */
    static List<String> rows(final Connection db, final String schema, final String table) throws SQLException
    {
        final List<String> columns = TestDatabase.rows(db, "SELECT '\"' || attname || '\"' FROM pg_attribute WHERE attrelid = to_regclass('"
            + schema + "." + table + "') AND attnum > 0 AND NOT attisdropped AND attname <> '" + SOURCE_OFFSET + "' ORDER BY attnum");
        final List<String> rows = new ArrayList<>();
        rows.add(String.join(",", columns).replace("\"", ""));
        final StringBuilder order = new StringBuilder();
        for (int c = 1; c <= columns.size(); c++)
        {
            order.append(c > 1 ? ", " : "").append(c);
        }
        rows.addAll(TestDatabase.rows(db, "SELECT " + String.join(", ", columns) + " FROM " + schema + "." + table + " ORDER BY " + order));
        return rows;
    }

    /**
     * @param db     a connection.
     * @param schema a schema this run created.
     * @throws SQLException if it cannot be dropped.
     */
    static void dropSchema(final Connection db, final String schema) throws SQLException
    {
        TestDatabase.execute(db, "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
}
