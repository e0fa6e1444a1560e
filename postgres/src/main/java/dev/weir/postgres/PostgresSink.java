package dev.weir.postgres;

import java.sql.ResultSet;
import java.sql.SQLException;

import dev.weir.journal.DeliveryPositions;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OffsetUnavailableException;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.retention.OutputHistory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers a journal's results from its output journal into a PostgreSQL table, exactly once and safe to
 * repeat, the way a Kafka Connect JDBC sink delivers a topic.
 * <p>
 * The table has the columns of the pipeline's {@link ResultsTableShape}: one per key column, named after it
 * and typed by it, and the value's sum, min and max as exact decimals for a decimal value column (the
 * default columns keep the table of before columns existed), or, with named aggregates, one column per aggregate
 * (NULL where a window has no value for it). A table of another shape is refused, never
 * altered. Results are upserted by {@code (key columns..., window_start, window_end)}, keeping the row of the highest
 * version ({@code INSERT … ON CONFLICT … DO UPDATE … WHERE excluded.version > current.version}), in
 * transactions of up to {@code batchSize} outputs, and a row deletes the rows of its key whose windows lie inside
 * its own (a session that grew or merged supersedes them; see {@link BatchUpsert}), so that the table holds one
 * row per window. Each transaction also moves the journal's row in
 * {@code weir_offsets}: the output journal position delivered and the highest event journal offset it
 * covers. So the database holds what was read and what was produced atomically: a sink killed at any
 * moment resumes after the position the database holds, and delivering the same outputs again changes
 * nothing. The offsets row is locked ({@code SELECT … FOR UPDATE}) and checked in every transaction, so a
 * second sink delivering the same journal concurrently fails instead of interleaving.
 * <p>
 * Late events in the output journal are passed over (their positions count as delivered), unless the sink was
 * given a late-events table ({@link #connect(String, String, String, ResultsTableShape, int)}): then each is
 * inserted there once ({@link LateEventsTable}), in the transaction that delivers the results beside it. Offsets are keyed by the pipeline's {@link JournalDirectory#id()},
 * and a results table takes the results of one journal only: another journal's delivery into it (a
 * journal created again at the same path is another journal) is refused.
 * <p>
 * The offsets hold for the table they were delivered into: they are stored with its identity (its OID,
 * and its relfilenode), and a table a DBA truncated, or dropped and created again, is delivered again
 * from the start. A delivery that fails on the database (down, hanging past the session's timeouts, see
 * {@link SinkConnection}) drops the connection; the next one connects again and checks the tables again.
 * <p>
 * Logs (SLF4J, logger {@code dev.weir.postgres.PostgresSink}) each connection and the position the first
 * delivery on it resumes after at INFO, a failed delivery (the next one connects again) at WARN, and a
 * refused one at ERROR; nothing per result.
 * <p>
 * Not thread-safe: one thread delivers, and owns the connection and the journal's files, which stay open
 * between deliveries (so calling {@link #deliver} again and again, as a following run does, reads only
 * what is new). {@link #resultsDelivered()}, {@link #heldPosition()} and {@link #pendingResults} may be
 * called from any thread (for progress and reports), and {@link #abort()} from any thread to stop a
 * delivery that hangs.
 */
public final class PostgresSink implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(PostgresSink.class);
    /** The default results table. */
    public static final String DEFAULT_TABLE = "weir_results";
    /** The default late-events table ({@link #connect(String, String, String, ResultsTableShape, int)}). */
    public static final String DEFAULT_LATE_TABLE = LateEventsTable.DEFAULT_TABLE;
    /** The default number of outputs per transaction. */
    public static final int DEFAULT_BATCH = 2_000;

    private final String jdbcUrl;
    private final String table;
    private final int batchSize;
    private final ResultsTableShape shape;
    /** The late-events table, or null: late events are passed over. */
    private final LateEventsTable late;
    /** {@link #heldPosition()} before the database was reached. */
    public static final long UNKNOWN = dev.weir.engine.delivery.OutputSink.UNKNOWN;

    private final String target;
    /** The position the pipeline's delivery record holds ({@link DeliveryPositions}), valid while {@link #source} is set. */
    private long recorded = DeliveryPositions.EVERYTHING;

    private volatile SinkConnection db;
    /** True once the position a delivery resumed after has been logged on the current connection. */
    private boolean resumeLogged;

    private JournalDirectory source;
    private KeyFields keys;
    private OutputJournal output;

    private volatile long resultsDelivered;
    private volatile long lateEventsDelivered;
    private volatile long sourceOffsetDelivered = -1;
    private volatile long heldPosition = UNKNOWN;

    private PostgresSink(
        final String jdbcUrl, final String table, final LateEventsTable late, final ResultsTableShape shape, final int batchSize, final SinkConnection db)
    {
        this.jdbcUrl = jdbcUrl;
        this.target = DeliveryPositions.target(jdbcUrl);
        this.table = table;
        this.late = late;
        this.shape = shape;
        this.batchSize = batchSize;
        this.db = db;
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
        return connect(jdbcUrl, table, ResultsTableShape.DEFAULT, batchSize);
    }

    /**
     * Connect, and create or check the tables, for a pipeline of any key and value columns.
     *
     * @param jdbcUrl   a PostgreSQL JDBC URL.
     * @param table     the results table (a lower-case identifier).
     * @param shape     its columns: the pipeline's key and value columns.
     * @param batchSize outputs per transaction, at least 1.
     * @return the sink, which delivers journals of the shape's schema.
     * @throws SinkRefusedException if a table exists but does not have the shape's columns and key, or the name is not allowed.
     * @throws SQLException         if the database cannot be reached or fails.
     */
    public static PostgresSink connect(final String jdbcUrl, final String table, final ResultsTableShape shape, final int batchSize)
        throws SQLException
    {
        return connect(jdbcUrl, table, null, shape, batchSize);
    }

    /**
     * Connect, and create or check the tables, for a pipeline that routes late events to its side output: they
     * are delivered too, into {@code lateTable} (see {@link LateEventsTable}: one row per late event, keyed by its
     * events offset), in the transactions that deliver the results.
     *
     * @param jdbcUrl   a PostgreSQL JDBC URL.
     * @param table     the results table (a lower-case identifier).
     * @param lateTable the late-events table (a lower-case identifier), or null to pass late events over.
     * @param shape     the results table's columns: the pipeline's key and value columns.
     * @param batchSize outputs per transaction, at least 1.
     * @return the sink.
     * @throws SinkRefusedException if a table exists but does not match, or a name is not allowed.
     * @throws SQLException         if the database cannot be reached or fails.
     */
    public static PostgresSink connect(
        final String jdbcUrl, final String table, final String lateTable, final ResultsTableShape shape, final int batchSize) throws SQLException
    {
        final PostgresSink sink = deferred(jdbcUrl, table, lateTable, shape, batchSize);
        sink.db = open(jdbcUrl, table, shape, sink.late);
        return sink;
    }

    /**
     * A sink that connects at its first delivery: for a database that cannot be reached now (its tables are
     * created or checked then).
     *
     * @param jdbcUrl   a PostgreSQL JDBC URL.
     * @param table     the results table (a lower-case identifier).
     * @param batchSize outputs per transaction, at least 1.
     * @return the sink, not connected.
     * @throws SinkRefusedException if the name is not allowed.
     */
    public static PostgresSink deferred(final String jdbcUrl, final String table, final int batchSize)
    {
        return deferred(jdbcUrl, table, ResultsTableShape.DEFAULT, batchSize);
    }

    /**
     * A sink that connects at its first delivery, for a pipeline of any key and value columns.
     *
     * @param jdbcUrl   a PostgreSQL JDBC URL.
     * @param table     the results table (a lower-case identifier).
     * @param shape     its columns.
     * @param batchSize outputs per transaction, at least 1.
     * @return the sink, not connected.
     * @throws SinkRefusedException if the name is not allowed.
     */
    public static PostgresSink deferred(final String jdbcUrl, final String table, final ResultsTableShape shape, final int batchSize)
    {
        return deferred(jdbcUrl, table, null, shape, batchSize);
    }

    /**
     * A sink that connects at its first delivery, delivering late events too (see
     * {@link #connect(String, String, String, ResultsTableShape, int)}).
     *
     * @param jdbcUrl   a PostgreSQL JDBC URL.
     * @param table     the results table (a lower-case identifier).
     * @param lateTable the late-events table, or null to pass late events over.
     * @param shape     the results table's columns.
     * @param batchSize outputs per transaction, at least 1.
     * @return the sink, not connected.
     * @throws SinkRefusedException if a name is not allowed.
     */
    public static PostgresSink deferred(
        final String jdbcUrl, final String table, final String lateTable, final ResultsTableShape shape, final int batchSize)
    {
        if (batchSize < 1)
        {
            throw new IllegalArgumentException("batch size must be at least 1: " + batchSize);
        }
        SinkSchema.checkName(table);
        return new PostgresSink(jdbcUrl, table, lateTable == null ? null : new LateEventsTable(lateTable, table, shape), shape, batchSize, null);
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
     * @throws SinkRefusedException if another journal feeds the table, the database's position is not in this output
     *                              journal, another sink moved it, or the journal's columns are not the shape's.
     * @throws SQLException         if the database fails; the open transaction is rolled back.
     */
    public Delivery deliver(final JournalDirectory journal) throws SQLException
    {
        try
        {
            return deliverOrThrow(journal);
        }
        catch (final SinkRefusedException ex)
        {
            LOG.error("delivery of journal {} into {} refused: {}", journal.id(), table, ex.getMessage());
            throw ex;
        }
        catch (final SQLException ex)
        {
            LOG.warn("delivery of journal {} into {} failed, the next delivery connects again: {}", journal.id(), table, ex.toString());
            throw ex;
        }
    }

    private Delivery deliverOrThrow(final JournalDirectory journal) throws SQLException
    {
        if (!journal.schema().equals(shape.schema()))
        {
            throw new SinkRefusedException("journal " + journal.id() + " has the columns " + journal.schema() + ", but the sink into table "
                + table + " was made for the columns " + shape.schema());
        }
        if (db == null || !db.isValid())
        {
            reconnect();
        }
        try
        {
            if (source == null || !source.root().equals(journal.root()) || !source.id().equals(journal.id()))
            {
                closeJournal();
                register(journal);
                keys = KeyFields.open(journal, shape);
                output = OutputJournal.open(journal);
                source = journal;
            }
            final Delivery delivery = deliverAfterStoredPosition(journal.id());
            keys.releasePassedCycles();
            return delivery;
        }
        catch (final SQLException ex)
        {
            dropConnection(); // down, hanging, or a table dropped under it: the next delivery connects and checks again
            throw ex;
        }
        catch (final RuntimeException ex)
        {
            rollbackQuietly();
            throw ex;
        }
    }

    private Delivery deliverAfterStoredPosition(final String journalId) throws SQLException
    {
        claimTable(journalId);

        final long[] stored = lockOffsets(journalId);
        final long resumedAfter = stored[0];
        heldPosition = resumedAfter;
        record(resumedAfter);
        if (!resumeLogged)
        {
            LOG.info("delivering journal {} into {} after output position {}", journalId, table, resumedAfter);
            resumeLogged = true;
        }
        if (resumedAfter == OutputJournal.NONE)
        {
            refuseFromStartAfterRetention();
        }
        try
        {
            output.seekAfter(resumedAfter);
        }
        catch (final OffsetUnavailableException ex)
        {
            final OutputHistory history = OutputHistory.read(source).orElse(null);
            if (history != null && resumedAfter < history.firstPosition())
            {
                throw new SinkRefusedException(String.format("the database says journal %s was delivered into %s up to output position %d, "
                        + "but retention removed the output journal's outputs before %d (%,d results of pipeline %s; %s): the results after "
                        + "that position cannot be delivered", journalId, table, resumedAfter, history.firstPosition(), history.removedResults(),
                    source.pipelineName(), history.archive() == null ? "deleted, not archived" : "archive " + history.archive()));
            }
            throw new SinkRefusedException("the database says journal " + journalId + " was delivered up to output position "
                + resumedAfter + ", but its output journal has no output there (" + ex.getMessage() + "): it is not this journal's delivery. "
                + "Delete that row of " + SinkSchema.OFFSETS_TABLE + " to deliver it again from the start (upserts keep the highest version).");
        }
        catch (final IllegalStateException ex)
        {
            throw new SinkRefusedException("the database says journal " + journalId + " was delivered up to output position "
                + resumedAfter + ", but its output journal has no output there: it is not this journal's delivery. Delete that row of "
                + SinkSchema.OFFSETS_TABLE + " to deliver it again from the start (upserts keep the highest version).");
        }
        final ResultBatch batch = new ResultBatch(keys, shape, late, batchSize);
        long position = resumedAfter;
        long sourceOffset = stored[1];
        long results = 0;
        long changed = 0;
        long superseded = 0;
        long transactions = 0;
        boolean locked = true;
        while (true)
        {
            if (!locked)
            {
                final long[] now = lockOffsets(journalId);
                if (now[0] == OutputJournal.NONE && now[2] == 1)
                {
                    refuseFromStartAfterRetention();
                    record(OutputJournal.NONE);
                    output.seekAfter(OutputJournal.NONE); // truncated or created again between two transactions
                    position = OutputJournal.NONE;
                    sourceOffset = -1;
                }
                if (now[0] != position)
                {
                    throw new SinkRefusedException("another sink moved the delivered position of journal " + journalId + " into "
                        + table + " from " + position + " to " + now[0] + ": deliver a journal into a table from one sink at a time");
                }
            }
            if (batch.fill(output, batchSize, sourceOffset) == 0)
            {
                db.connection.rollback(); // nothing new: release the lock
                break;
            }
            if (batch.size() > 0)
            {
                final long[] written = batch.upsert(db.connection, db.upsert);
                changed += written[0];
                superseded += written[1];
            }
            if (batch.lateSize() > 0)
            {
                batch.insertLate(db.insertLate); // in the same transaction: a late event regenerated later is there already
            }
            position = output.lastReadPosition();
            sourceOffset = batch.maxSource();
            db.updateOffsets.setLong(1, position);
            db.updateOffsets.setLong(2, sourceOffset);
            db.updateOffsets.setString(3, journalId);
            db.updateOffsets.setString(4, table);
            if (db.updateOffsets.executeUpdate() != 1)
            {
                throw new SinkRefusedException("the " + SinkSchema.OFFSETS_TABLE + " row of journal " + journalId + " disappeared during delivery");
            }
            db.connection.commit();
            heldPosition = position;
            record(position);
            locked = false;
            transactions++;
            results += batch.size();
            resultsDelivered += batch.size();
            lateEventsDelivered += batch.lateSize();
            sourceOffsetDelivered = sourceOffset;
        }
        return new Delivery(resumedAfter, position, sourceOffset, results, changed, superseded, transactions);
    }

    /**
     * A delivery from the start of an output journal whose oldest cycles retention removed would leave the table
     * without the removed results, silently: refuse it, naming what was removed.
     */
    private void refuseFromStartAfterRetention()
    {
        final OutputHistory history = OutputHistory.read(source).orElse(null);
        if (history != null)
        {
            throw new SinkRefusedException(String.format("the database holds no delivery of journal %s into %s, but retention removed the "
                    + "oldest %,d results of pipeline %s's output journal (output positions before %d; %s): a delivery from its start would "
                    + "miss them, so it is refused: deliver into the table that holds them (with its " + SinkSchema.OFFSETS_TABLE + " row)",
                source.id(), table, history.removedResults(), source.pipelineName(), history.firstPosition(),
                history.archive() == null ? "deleted, not archived" : "archive " + history.archive()));
        }
    }

    /**
     * A results table is fed by one journal, so that rows of two never mix and a rerun from another journal
     * (whose versions start again at 0) cannot pass unnoticed beside old rows: create this journal's offsets
     * row unless another journal's is there, under a table lock so two first deliveries cannot both pass.
     */
    private void claimTable(final String journalId) throws SQLException
    {
        db.ownRow.setString(1, journalId);
        db.ownRow.setString(2, table);
        try (ResultSet own = db.ownRow.executeQuery())
        {
            if (own.next())
            {
                db.connection.rollback();
                return; // claimed before: no lock, the usual case for every delivery after the first
            }
        }
        // first delivery of this journal into this table: a transaction-scoped advisory lock per table name
        // serializes only the claims on that table (not other sinks' offset updates), with a bounded wait
        try (java.sql.Statement timeout = db.connection.createStatement())
        {
            timeout.execute("SET LOCAL lock_timeout = '30s'");
        }
        db.claimLock.setString(1, "weir-results-table:" + table);
        db.claimLock.execute();
        db.otherJournals.setString(1, table);
        db.otherJournals.setString(2, journalId);
        try (ResultSet other = db.otherJournals.executeQuery())
        {
            if (other.next())
            {
                final String owner = other.getString(1);
                db.connection.rollback();
                throw new SinkRefusedException("table " + table + " holds the results of journal " + owner + " (see " + SinkSchema.OFFSETS_TABLE
                    + "), and this is journal " + journalId + ": a results table is fed by one journal, and by one pipeline of it (each "
                    + "--pipeline delivers into a table of its own). Deliver into another table (--jdbc-table), or drop " + table + " to rebuild it from this journal (its " + SinkSchema.OFFSETS_TABLE
                    + " rows are deleted when it is created again).");
            }
        }
        db.createOffsets.setString(1, journalId);
        db.createOffsets.setString(2, table);
        db.createOffsets.executeUpdate();
        db.connection.commit();
    }

    /**
     * @return {output position, source offset, 1 if they were of another table of this name (a DBA truncated or
     *         created it again) and are read as none (-1, -1), else 0}.
     */
    private long[] lockOffsets(final String journalId) throws SQLException
    {
        db.lockOffsets.setString(1, journalId);
        db.lockOffsets.setString(2, table);
        try (ResultSet row = db.lockOffsets.executeQuery())
        {
            if (!row.next())
            {
                throw new SinkRefusedException("the " + SinkSchema.OFFSETS_TABLE + " row of journal " + journalId + " is missing");
            }
            if (!row.getBoolean(3))
            {
                return new long[] {OutputJournal.NONE, -1, 1};
            }
            return new long[] {row.getLong(1), row.getLong(2), 0};
        }
    }

    /**
     * Register this delivery in the pipeline's directory before it first reads the pipeline's output journal,
     * durably: a record already there (from an earlier run) is kept, one missing or unreadable is written
     * as needing every output ({@link DeliveryPositions#EVERYTHING}). Retention reads it to keep what this
     * delivery may still read.
     */
    private void register(final JournalDirectory journal)
    {
        final java.nio.file.Path file = DeliveryPositions.file(journal.pipelineRoot(), table, target);
        final DeliveryPositions.DeliveryPosition existing = java.nio.file.Files.exists(file) ? DeliveryPositions.readFile(file) : null;
        if (existing == null || existing.problem() != null)
        {
            if (existing != null)
            {
                LOG.warn("delivery record {} cannot be read ({}): registered again as needing every output", file, existing.problem());
            }
            DeliveryPositions.register(journal.pipelineRoot(), table, target, DeliveryPositions.EVERYTHING, System.currentTimeMillis());
            recorded = DeliveryPositions.EVERYTHING;
        }
        else
        {
            recorded = existing.position();
        }
    }

    /**
     * Keep the delivery record at the position the database holds: a lower one (the table was truncated or
     * created again, or the database restored) is registered durably before the output journal is read from
     * it; a higher one (committed) is written without forcing, since a stale record only holds more.
     */
    private void record(final long position)
    {
        if (position == recorded)
        {
            return;
        }
        final long now = System.currentTimeMillis();
        if (position < recorded)
        {
            DeliveryPositions.register(source.pipelineRoot(), table, target, position, now);
        }
        else
        {
            try
            {
                DeliveryPositions.advance(source.pipelineRoot(), table, target, position, now);
            }
            catch (final java.io.UncheckedIOException ex)
            {
                LOG.warn("delivery record of {} not advanced to output position {} (it keeps holding the outputs after {}): {}",
                    table, position, recorded, ex.toString());
                return;
            }
        }
        recorded = position;
    }

    /**
     * @return results delivered (committed) by this sink so far; any thread.
     */
    public long resultsDelivered()
    {
        return resultsDelivered;
    }

    /**
     * @return late events delivered (committed; a regenerated one counts again, but is inserted once) by this sink so far,
     *         0 without a late-events table; any thread.
     */
    public long lateEventsDelivered()
    {
        return lateEventsDelivered;
    }

    /**
     * @return the output position the database was last seen to hold for the journal (-1: none), or
     *         {@link #UNKNOWN} before it was reached; any thread.
     */
    public long heldPosition()
    {
        return heldPosition;
    }

    /**
     * Count the results a journal's output journal holds after {@link #heldPosition()} (all of them while it
     * is unknown): what is not delivered yet. Reads with its own cursor, so any thread may call it, even
     * while a delivery runs.
     *
     * @param journal the journal.
     * @return results after the position the database holds (late events and update rows are not delivered, and not
     *         counted).
     */
    public long pendingResults(final JournalDirectory journal)
    {
        return dev.weir.engine.delivery.OutputSink.resultsAfter(journal, heldPosition);
    }

    /**
     * Close the connection at once, from any thread: a delivery blocked on a database that hangs fails now
     * (its open transaction is rolled back by the server; what it committed stays).
     */
    public void abort()
    {
        final SinkConnection current = db;
        if (current != null)
        {
            current.abort();
        }
    }

    /**
     * @return the highest event journal offset the committed outputs cover, or -1; any thread.
     */
    public long sourceOffsetDelivered()
    {
        return sourceOffsetDelivered;
    }

    /**
     * Close the connection, and the journal's files the sink keeps open between deliveries.
     *
     * @throws SQLException if closing the connection fails.
     */
    @Override
    public void close() throws SQLException
    {
        closeJournal();
        if (db != null)
        {
            db.close();
        }
    }

    /** A connection the server dropped (a restart, a terminated session) is replaced by a new one before a delivery. */
    private void reconnect() throws SQLException
    {
        dropConnection();
        db = open(jdbcUrl, table, shape, late);
        resumeLogged = false;
    }

    /** Open a connection (and create or check the tables), logged at INFO. */
    private static SinkConnection open(final String jdbcUrl, final String table, final ResultsTableShape shape, final LateEventsTable late)
        throws SQLException
    {
        final SinkConnection connection = SinkConnection.open(jdbcUrl, table, shape, late);
        LOG.info("connected to PostgreSQL at {}, table {}", redacted(jdbcUrl), table);
        return connection;
    }

    private void dropConnection()
    {
        final SinkConnection broken = db;
        db = null;
        if (broken != null)
        {
            try
            {
                broken.close();
            }
            catch (final SQLException ignored)
            {
                // it is broken already
            }
        }
    }

    private void rollbackQuietly()
    {
        if (db == null)
        {
            return; // refused while connecting: no transaction
        }
        try
        {
            db.connection.rollback();
        }
        catch (final SQLException ignored)
        {
            // a broken connection has no transaction left to roll back; the next delivery reconnects
        }
    }

    private void closeJournal()
    {
        if (output != null)
        {
            output.close();
            keys.close();
            output = null;
            keys = null;
            source = null;
        }
    }
}
