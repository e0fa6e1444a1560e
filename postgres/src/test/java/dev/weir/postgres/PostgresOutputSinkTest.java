package dev.weir.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;

import dev.weir.engine.Weir;
import dev.weir.engine.delivery.DeliveryUnavailableException;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.testsupport.TcpForwarder;
import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PostgresOutputSink#connectOrDefer}: a server that answers is connected now (its tables created); one that
 * cannot be reached is deferred, and connected (its tables created) at the first delivery once it is back; one that
 * answers and refuses the login or has no such database is a {@link SinkRefusedException}, not an outage.
 */
@Tag("slow")
class PostgresOutputSinkTest
{
    @TempDir
    Path dir;

    @RegisterExtension
    final TestTables tables = new TestTables("connect_or_defer");

    private String table;

    @BeforeEach
    void table()
    {
        table = tables.name();
    }

    @Test
    void aServerThatAnswersIsConnectedNow() throws SQLException
    {
        final PostgresOutputSink output = PostgresOutputSink.connectOrDefer(TestDatabase.URL, table, null, ResultsTableShape.DEFAULT, 100);
        try (PostgresSink sink = output.sink())
        {
            assertTrue(output.deferral().isEmpty());
            assertTrue(tableExists(), "the results table is created at once");
        }
    }

    @Test
    void aServerThatCannotBeReachedIsDeferredAndConnectedAtTheFirstDeliveryOnceItIsBack() throws Exception
    {
        final JournalDirectory journal = journal(dir.resolve("j"));
        try (TcpForwarder forwarder = TcpForwarder.toTestDatabase())
        {
            forwarder.cut();
            final PostgresOutputSink output = PostgresOutputSink.connectOrDefer(forwarder.url(), table, null,
                ResultsTableShape.DEFAULT, 100);
            try (PostgresSink sink = output.sink())
            {
                assertTrue(output.deferral().isPresent(), "deferred");
                assertEquals(PostgresSink.UNKNOWN, output.heldPosition());
                assertFalse(tableExists(), "nothing was created while the server could not be reached");
                assertThrows(DeliveryUnavailableException.class, () -> output.deliver(journal), "still down: retried later");

                forwarder.restore();
                output.deliver(journal);
                assertTrue(tableExists(), "the tables are created at the first delivery that reaches the server");
                assertTrue(output.delivered().results() > 0, "delivered: " + output.delivered());
                assertEquals(0, output.pendingResults(journal));
            }
        }
    }

    @Test
    void aLoginTheServerRefusesIsARefusal()
    {
        final SinkRefusedException refused = assertThrows(SinkRefusedException.class, () -> PostgresOutputSink.connectOrDefer(
            TestDatabase.url("user=weir_no_such_role"), table, null, ResultsTableShape.DEFAULT, 100));
        assertTrue(refused.getMessage().startsWith("cannot use PostgreSQL at " + PostgresSink.redacted(TestDatabase.URL) + ": ")
            && refused.getMessage().contains("weir_no_such_role"), refused.getMessage());
    }

    @Test
    void aDatabaseTheServerDoesNotHaveIsARefusal()
    {
        final String path = PostgresSink.redacted(TestDatabase.URL).replace("?…", "");
        final String database = path.substring(path.lastIndexOf('/') + 1);
        final String url = TestDatabase.URL.replaceFirst("/" + java.util.regex.Pattern.quote(database), "/weir_no_such_database");
        final SinkRefusedException refused = assertThrows(SinkRefusedException.class,
            () -> PostgresOutputSink.connectOrDefer(url, table, null, ResultsTableShape.DEFAULT, 100));
        assertTrue(refused.getMessage().startsWith("cannot use PostgreSQL at ") && refused.getMessage().contains("weir_no_such_database"),
            refused.getMessage());
    }

    private boolean tableExists() throws SQLException
    {
        return List.of("t").equals(TestDatabase.rows(tables.db(), "SELECT to_regclass('" + table + "') IS NOT NULL"));
    }

    private static JournalDirectory journal(final Path path)
    {
        try (EventJournal writer = EventJournal.openOrCreate(path))
        {
            for (int i = 0; i < 1_000; i++)
            {
                writer.append(i, i * 10L, "k" + i % 7, i);
            }
        }
        Weir.pipeline().journal(path).window(TumblingWindows.of(1_000)).build().runToEnd();
        return JournalDirectory.open(path);
    }
}
