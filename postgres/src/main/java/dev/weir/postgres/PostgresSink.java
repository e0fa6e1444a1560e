package dev.weir.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.KeyDictionary;
import dev.weir.journal.OutputConsumer;
import dev.weir.journal.OutputJournal;

/**
 * Delivers a journal's results from its output journal into a PostgreSQL table, exactly once and safe to
 * repeat, the way a Kafka Connect JDBC sink delivers a topic.
 * <p>
 * Results are upserted by {@code (key, window_start, window_end)}, keeping the row of the highest
 * version ({@code INSERT … ON CONFLICT … DO UPDATE … WHERE excluded.version > current.version}), in
 * transactions of up to {@code batchSize} outputs. Each transaction also moves the journal's row in
 * {@code weir_offsets}: the output journal position delivered and the highest event journal offset it
 * covers. So the database holds what was read and what was produced atomically: a sink killed at any
 * moment resumes after the position the database holds, and delivering the same outputs again changes
 * nothing. The offsets row is locked ({@code SELECT … FOR UPDATE}) and checked in every transaction, so a
 * second sink delivering the same journal concurrently fails instead of interleaving.
 * <p>
 * Late events in the output journal are passed over (their positions count as delivered); the late
 * side output is a file or the output journal. Offsets are keyed by the journal's {@link JournalDirectory#id()},
 * so a journal created again at the same path starts from its beginning.
 * <p>
 * Not thread-safe: one thread delivers, and owns the connection. {@link #resultsDelivered()} may be read
 * from any thread (for progress).
 */
public final class PostgresSink implements AutoCloseable
{
    /** The default results table. */
    public static final String DEFAULT_TABLE = "weir_results";
    /** The default number of outputs per transaction. */
    public static final int DEFAULT_BATCH = 2_000;

    private final Connection connection;
    private final String table;
    private final int batchSize;
    private final PreparedStatement upsert;
    private final PreparedStatement lockOffsets;
    private final PreparedStatement createOffsets;
    private final PreparedStatement updateOffsets;

    private volatile long resultsDelivered;
    private volatile long sourceOffsetDelivered = -1;

    private PostgresSink(final Connection connection, final String table, final int batchSize) throws SQLException
    {
        this.connection = connection;
        this.table = table;
        this.batchSize = batchSize;
        upsert = connection.prepareStatement("INSERT INTO " + table + " AS current "
            + "(key, window_start, window_end, count, sum, min, max, version, source_offset, aggregate) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            + "ON CONFLICT (key, window_start, window_end) DO UPDATE SET count = excluded.count, sum = excluded.sum, "
            + "min = excluded.min, max = excluded.max, version = excluded.version, source_offset = excluded.source_offset, "
            + "aggregate = excluded.aggregate WHERE excluded.version > current.version");
        lockOffsets = connection.prepareStatement("SELECT output_position, source_offset FROM " + SinkSchema.OFFSETS_TABLE
            + " WHERE journal_id = ? AND results_table = ? FOR UPDATE");
        createOffsets = connection.prepareStatement("INSERT INTO " + SinkSchema.OFFSETS_TABLE
            + " (journal_id, results_table, output_position, source_offset) VALUES (?, ?, -1, -1) ON CONFLICT DO NOTHING");
        updateOffsets = connection.prepareStatement("UPDATE " + SinkSchema.OFFSETS_TABLE
            + " SET output_position = ?, source_offset = ?, updated_at = now() WHERE journal_id = ? AND results_table = ?");
    }

    /**
     * Connect, and create or check the tables.
     *
     * @param jdbcUrl   a PostgreSQL JDBC URL, e.g. {@code jdbc:postgresql://host:5432/db?user=u&password=p}.
     * @param table     the results table (a lower-case identifier).
     * @param batchSize outputs per transaction, at least 1.
     * @return the sink.
     * @throws SinkRefusedException if a table exists but does not match Weir's schema, or the name is not allowed.
     * @throws SQLException         if the database cannot be reached or fails.
     */
    public static PostgresSink connect(final String jdbcUrl, final String table, final int batchSize) throws SQLException
    {
        if (batchSize < 1)
        {
            throw new IllegalArgumentException("batch size must be at least 1: " + batchSize);
        }
        SinkSchema.checkName(table);
        final Connection connection = DriverManager.getConnection(jdbcUrl);
        try
        {
            connection.setAutoCommit(false);
            SinkSchema.ensure(connection, table);
            return new PostgresSink(connection, table, batchSize);
        }
        catch (final SQLException | RuntimeException ex)
        {
            connection.close();
            throw ex;
        }
    }

    /**
     * @param jdbcUrl a JDBC URL.
     * @return it without its parameters (which may hold a password), for messages.
     */
    public static String redacted(final String jdbcUrl)
    {
        final int query = jdbcUrl.indexOf('?');
        return query < 0 ? jdbcUrl : jdbcUrl.substring(0, query) + "?…";
    }

    /**
     * @return the results table.
     */
    public String table()
    {
        return table;
    }

    /**
     * Deliver every output the journal's output journal holds after the position the database holds for it.
     *
     * @param journal the journal.
     * @return what was delivered.
     * @throws SinkRefusedException if the database's position is not in this output journal, or another sink moved it.
     * @throws SQLException         if the database fails; the open transaction is rolled back.
     */
    public Delivery deliver(final JournalDirectory journal) throws SQLException
    {
        try (KeyDictionary keys = KeyDictionary.open(journal);
             OutputJournal output = OutputJournal.open(journal))
        {
            return deliver(journal.id(), keys, output);
        }
        catch (final BatchFailure ex)
        {
            connection.rollback();
            throw ex.getCause();
        }
        catch (final SQLException | RuntimeException ex)
        {
            connection.rollback();
            throw ex;
        }
    }

    private Delivery deliver(final String journalId, final KeyDictionary keys, final OutputJournal output) throws SQLException
    {
        createOffsets.setString(1, journalId);
        createOffsets.setString(2, table);
        createOffsets.executeUpdate();
        connection.commit();

        final long[] stored = lockOffsets(journalId);
        final long resumedAfter = stored[0];
        try
        {
            output.seekAfter(resumedAfter);
        }
        catch (final IllegalStateException ex)
        {
            throw new SinkRefusedException("the database says journal " + journalId + " was delivered up to output position "
                + resumedAfter + ", but its output journal has no output there: it is not this journal's delivery. Delete that row of "
                + SinkSchema.OFFSETS_TABLE + " to deliver it again from the start (upserts keep the highest version).");
        }
        final Batch batch = new Batch(keys);
        long position = resumedAfter;
        long sourceOffset = stored[1];
        long results = 0;
        long changed = 0;
        long transactions = 0;
        boolean locked = true;
        while (true)
        {
            if (!locked)
            {
                final long[] now = lockOffsets(journalId);
                if (now[0] != position)
                {
                    throw new SinkRefusedException("another sink moved the delivered position of journal " + journalId + " into "
                        + table + " from " + position + " to " + now[0] + ": deliver a journal into a table from one sink at a time");
                }
            }
            batch.outputs = 0;
            batch.results = 0;
            batch.maxSource = sourceOffset;
            while (batch.outputs < batchSize && output.next(batch) != 0)
            {
                batch.outputs++;
            }
            if (batch.outputs == 0)
            {
                connection.rollback(); // nothing new: release the lock
                break;
            }
            if (batch.results > 0)
            {
                for (final int count : upsert.executeBatch())
                {
                    changed += count;
                }
            }
            position = output.lastReadPosition();
            sourceOffset = batch.maxSource;
            updateOffsets.setLong(1, position);
            updateOffsets.setLong(2, sourceOffset);
            updateOffsets.setString(3, journalId);
            updateOffsets.setString(4, table);
            if (updateOffsets.executeUpdate() != 1)
            {
                throw new SinkRefusedException("the " + SinkSchema.OFFSETS_TABLE + " row of journal " + journalId + " disappeared during delivery");
            }
            connection.commit();
            locked = false;
            transactions++;
            results += batch.results;
            resultsDelivered += batch.results;
            sourceOffsetDelivered = sourceOffset;
        }
        return new Delivery(resumedAfter, position, sourceOffset, results, changed, transactions);
    }

    private long[] lockOffsets(final String journalId) throws SQLException
    {
        lockOffsets.setString(1, journalId);
        lockOffsets.setString(2, table);
        try (ResultSet row = lockOffsets.executeQuery())
        {
            if (!row.next())
            {
                throw new SinkRefusedException("the " + SinkSchema.OFFSETS_TABLE + " row of journal " + journalId + " is missing");
            }
            return new long[] {row.getLong(1), row.getLong(2)};
        }
    }

    /**
     * @return results delivered (committed) by this sink so far; any thread.
     */
    public long resultsDelivered()
    {
        return resultsDelivered;
    }

    /**
     * @return the highest event journal offset the committed outputs cover, or -1; any thread.
     */
    public long sourceOffsetDelivered()
    {
        return sourceOffsetDelivered;
    }

    @Override
    public void close() throws SQLException
    {
        connection.close();
    }

    /** Adds each result read to the upsert batch; counts outputs and results. */
    private final class Batch implements OutputConsumer
    {
        private final KeyDictionary keys;
        int outputs;
        int results;
        long maxSource;

        Batch(final KeyDictionary keys)
        {
            this.keys = keys;
        }

        @Override
        public void onResult(
            final long start, final long end, final int key, final long count, final long sum, final long min, final long max,
            final int version, final long sourceOffset)
        {
            onResult(start, end, key, count, sum, min, max, version, sourceOffset, false, 0);
        }

        @Override
        public void onResult(
            final long start, final long end, final int key, final long count, final long sum, final long min, final long max,
            final int version, final long sourceOffset, final boolean hasAggregate, final long aggregate)
        {
            try
            {
                upsert.setString(1, keys.name(key));
                upsert.setLong(2, start);
                upsert.setLong(3, end);
                upsert.setLong(4, count);
                upsert.setLong(5, sum);
                upsert.setLong(6, min);
                upsert.setLong(7, max);
                upsert.setInt(8, version);
                upsert.setLong(9, sourceOffset);
                if (hasAggregate)
                {
                    upsert.setLong(10, aggregate);
                }
                else
                {
                    upsert.setNull(10, java.sql.Types.BIGINT);
                }
                upsert.addBatch();
            }
            catch (final SQLException ex)
            {
                throw new BatchFailure(ex);
            }
            results++;
            maxSource = Math.max(maxSource, sourceOffset);
        }

        @Override
        public void onLate(final long id, final long time, final int key, final long value, final long offset)
        {
            maxSource = Math.max(maxSource, offset);
        }
    }

    /** Carries an {@link SQLException} out of the output journal's consumer callback. */
    private static final class BatchFailure extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        BatchFailure(final SQLException cause)
        {
            super(cause);
        }

        @Override
        public synchronized SQLException getCause()
        {
            return (SQLException)super.getCause();
        }
    }
}
