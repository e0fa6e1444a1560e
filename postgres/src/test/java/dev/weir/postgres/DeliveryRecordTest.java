package dev.weir.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.Weir;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.DeliveryPositions;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sink's local delivery record ({@link DeliveryPositions}), which retention reads without reaching the
 * database: registered as needing every output before the sink first reads the output journal (a sink
 * stopped there leaves it so), advanced after each commit, lowered durably before the sink reads again
 * from a lower position the database holds, and written again when it cannot be read.
 */
@Tag("slow")
class DeliveryRecordTest
{
    @TempDir
    Path dir;

    @RegisterExtension
    final TestTables tables = new TestTables("record_test");

    private Connection db;
    private String table;

    @BeforeEach
    void tables()
    {
        db = tables.db();
        table = tables.name();
    }

    @Test
    void registeredBeforeTheFirstReadThenAdvancedAfterEachCommit() throws Exception
    {
        final Path path = dir.resolve("j");
        final JournalDirectory journal = journal(path, 0, 6_000);
        final Path record = DeliveryPositions.file(journal.pipelineRoot(), table, DeliveryPositions.target(TestDatabase.URL));
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 300); Connection locker = TestDatabase.connect())
        {
            assertFalse(Files.exists(record), "nothing registered before a delivery");
            // another first delivery into the table holds its claim: this one stops before it reads any output
            locker.setAutoCommit(false);
            TestDatabase.execute(locker, "SELECT pg_advisory_xact_lock(hashtext('weir-results-table:" + table + "'))");
            final CompletableFuture<Delivery> delivering = CompletableFuture.supplyAsync(() -> deliver(sink, journal));
            final DeliveryPositions.DeliveryPosition stopped = awaitRecord(record);
            assertNull(stopped.problem());
            assertEquals(DeliveryPositions.EVERYTHING, stopped.position(), "stopped before its first read: it needs everything");
            assertEquals(table, stopped.table());
            assertFalse(stopped.target().contains("password") || stopped.target().contains("?"), stopped.target());
            assertEquals(java.util.List.of("0"), TestDatabase.rows(db, "SELECT count(*) FROM " + table), "nothing delivered yet");
            locker.rollback();

            final Delivery first = delivering.get(60, TimeUnit.SECONDS);
            assertTrue(first.transactions() > 1, first.toString());
            assertEquals(first.position(), DeliveryPositions.readFile(record).position(), "advanced to the last commit");

            journal(path, 6_000, 9_000);
            final Delivery second = sink.deliver(journal);
            assertTrue(second.position() > first.position());
            assertEquals(second.position(), DeliveryPositions.readFile(record).position(), "advanced by the next delivery");
        }
    }

    @Test
    void aLowerPositionInTheDatabaseIsRecordedBeforeTheSinkReadsFromIt() throws Exception
    {
        final JournalDirectory journal = journal(dir.resolve("j"), 0, 6_000);
        final Path record = DeliveryPositions.file(journal.pipelineRoot(), table, DeliveryPositions.target(TestDatabase.URL));
        final long delivered;
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 300))
        {
            delivered = sink.deliver(journal).position();
        }
        assertEquals(delivered, DeliveryPositions.readFile(record).position());

        TestDatabase.execute(db, "UPDATE weir_offsets SET output_position = -1, source_offset = -1 WHERE journal_id = '" + journal.id() + "'");
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 300); Connection locker = TestDatabase.connect())
        {
            // the table is locked: the sink reads the outputs from the start, and waits at its first upsert
            locker.setAutoCommit(false);
            TestDatabase.execute(locker, "LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE");
            final CompletableFuture<Delivery> delivering = CompletableFuture.supplyAsync(() -> deliver(sink, journal));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (DeliveryPositions.readFile(record).position() != DeliveryPositions.EVERYTHING && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
            assertEquals(DeliveryPositions.EVERYTHING, DeliveryPositions.readFile(record).position(), "lowered before the read");
            assertFalse(delivering.isDone());
            locker.rollback();
            assertEquals(delivered, delivering.get(60, TimeUnit.SECONDS).position());
        }
        assertEquals(delivered, DeliveryPositions.readFile(record).position());
    }

    @Test
    void aRecordThatCannotBeReadIsRegisteredAgain() throws Exception
    {
        final JournalDirectory journal = journal(dir.resolve("j"), 0, 3_000);
        final Path record = DeliveryPositions.file(journal.pipelineRoot(), table, DeliveryPositions.target(TestDatabase.URL));
        Files.createDirectories(record.getParent());
        Files.writeString(record, "garbage");
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 300))
        {
            final Delivery delivery = sink.deliver(journal);
            final DeliveryPositions.DeliveryPosition read = DeliveryPositions.readFile(record);
            assertNull(read.problem());
            assertEquals(delivery.position(), read.position());
        }
    }

    private static Delivery deliver(final PostgresSink sink, final JournalDirectory journal)
    {
        try
        {
            return sink.deliver(journal);
        }
        catch (final SQLException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static DeliveryPositions.DeliveryPosition awaitRecord(final Path record) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.exists(record) && System.nanoTime() < deadline)
        {
            Thread.sleep(5);
        }
        return DeliveryPositions.readFile(record);
    }

    private static JournalDirectory journal(final Path path, final int from, final int to)
    {
        final SplittableRandom random = new SplittableRandom(11);
        try (EventJournal writer = EventJournal.openOrCreate(path))
        {
            for (int i = 0; i < to; i++)
            {
                final long late = random.nextInt(50) == 0 ? 1_000 + random.nextInt(1_500) : random.nextInt(100);
                final String key = "k" + random.nextInt(40);
                final int value = random.nextInt(1_000);
                if (i >= from)
                {
                    writer.append(i, Math.max(0, i * 2L - late), key, value);
                }
            }
        }
        // a second call appends after the first bounded run's end: its events are late (side outputs), as meant here
        Weir.pipeline().journal(path).window(TumblingWindows.of(1_000)).outOfOrderness(100).allowedLateness(3_000)
            .latePolicy(LatePolicy.SIDE).checkpointEvery(5_000).resumeAfterEnd(true).build().runToEnd();
        return JournalDirectory.open(path);
    }
}
