package com.example.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import dev.weir.engine.delivery.DeliveryListener;
import dev.weir.engine.delivery.DeliveryUnavailableException;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CardAlerts} against the real test database ({@code WEIR_TEST_JDBC_URL}, as Weir's own tests use it;
 * skipped without a server unless {@code WEIR_REQUIRE_POSTGRES=1}), through a {@link TcpProxy} that the test cuts
 * and restores: a database outage that leaves the shared server alone. While the database is down the rule goes
 * on (its processed offset passes the payments ingested during the outage, and the idle heartbeats close the last
 * minute), nothing reaches the table, and the delivery listener sees the retries; once it is back, every alert
 * and minute total reaches the table exactly once.
 */
final class CardAlertsOutageTest
{
    /** Generous bounds for a loaded machine; every wait ends as soon as its condition holds. */
    private static final long BOUND_MS = 120_000;

    private static final String URL = System.getenv().getOrDefault(
        "WEIR_TEST_JDBC_URL", "jdbc:postgresql://127.0.0.1:5432/weir_test?user=weir&password=weir");

    /** The table after the outage: one row per card and minute, the early alert kept on its final row. */
    private static final List<String> EXPECTED = List.of(
        "card-1,0,60000,2,1000.00,t",
        "card-1,60000,120000,2,1000.00,t",
        "card-2,0,60000,1,50.00,f",
        "card-2,60000,120000,1,5.00,f",
        "card-3,60000,120000,1,20.00,f",
        "card-3,120000,180000,1,1.00,f");
    /** The rule's outputs: the two early alerts and the six final rows. */
    private static final long OUTPUTS = 8;

    @TempDir
    Path dir;

    private final String table = "adopter_alerts_" + Long.toHexString(ProcessHandle.current().pid());
    private Connection db;
    private TcpProxy proxy;

    @BeforeEach
    void setUp() throws Exception
    {
        db = connect();
        execute("DROP TABLE IF EXISTS " + table);
        final URI server = URI.create(URL.substring("jdbc:".length()));
        proxy = TcpProxy.to(server.getHost(), server.getPort() < 0 ? 5432 : server.getPort());
    }

    @AfterEach
    void tearDown() throws Exception
    {
        if (proxy != null)
        {
            proxy.close();
        }
        if (db == null)
        {
            return; // skipped: no server
        }
        execute("DROP TABLE IF EXISTS " + table);
        if (!rows("SELECT to_regclass('weir_offsets') IS NOT NULL").equals(List.of("f")))
        {
            execute("DELETE FROM weir_offsets WHERE results_table = '" + table + "'");
        }
        db.close();
    }

    @Test
    void everyAlertReachesTheTableOnceAfterAnOutageAndTheRuleKeptGoingDuringIt() throws Exception
    {
        final Path journal = dir.resolve("payments");
        final List<DeliveryUnavailableException> retries = new CopyOnWriteArrayList<>();
        final List<RuntimeException> stopped = new CopyOnWriteArrayList<>();
        final DeliveryListener listener = new DeliveryListener()
        {
            @Override
            public void onRetry(final DeliveryUnavailableException cause, final long backoffMillis)
            {
                retries.add(cause);
            }

            @Override
            public void onStopped(final RuntimeException cause)
            {
                stopped.add(cause);
            }
        };
        try (CardAlerts alerts = CardAlerts.start(journal, viaProxy(), table, listener))
        {
            // before the outage: the first minute's totals reach the table
            alerts.ingest(payments("payments-1.csv",
                "1,1000,card-1,600.00,approved",
                "2,2000,card-2,50.00,approved",
                "3,3000,card-1,900.00,declined",
                "4,4000,card-1,400.00,approved",       // card-1 reaches 1,000.00: the early alert
                "5,70000,card-2,5.00,approved"));      // the first minute closes
            final List<String> firstMinute = EXPECTED.stream().filter(row -> row.contains(",0,60000,")).toList();
            await(() -> tableRows().equals(firstMinute), () -> "the first minute in the table: " + tableRows());
            // its three outputs committed, as the service saw it (so the cut interrupts no commit)
            await(() -> alerts.resultsDelivered() == 3, () -> "committed before the outage: " + alerts.resultsDelivered());

            // the outage: the rule goes on, the table does not move, the delivery retries
            proxy.cut();
            final long retriesBefore = retries.size();
            alerts.ingest(payments("payments-2.csv",
                "6,71000,card-1,700.00,approved",
                "7,72000,card-3,20.00,approved",
                "8,73000,card-1,300.00,approved",      // the second minute's early alert
                "9,178000,card-3,1.00,approved",       // the second minute closes
                "10,179000,card-2,2.00,declined"));    // the third stays open until the heartbeats close it
            final long ingested = alerts.lastIngestedOffset();
            await(() -> alerts.processedOffset() >= ingested, () -> "processed " + alerts.processedOffset() + ", ingested " + ingested);
            await(() -> outputs(journal) == OUTPUTS, () -> "outputs while the database is down: " + outputs(journal));
            await(() -> retries.size() >= retriesBefore + 2, () -> "retries: " + retries);
            assertEquals(firstMinute, tableRows(), "nothing reached the table while the database was down");
            for (final DeliveryUnavailableException retry : retries)
            {
                assertInstanceOf(SQLException.class, retry.getCause(), retry.toString());
            }

            // the database is back: everything, once
            proxy.restore();
            await(() -> tableRows().equals(EXPECTED), () -> "the table after the outage: " + tableRows());
            await(() -> alerts.resultsDelivered() == OUTPUTS, () -> "committed: " + alerts.resultsDelivered());
            assertEquals(List.of(), stopped, "the delivery never stopped");
        }
        assertEquals(EXPECTED, tableRows());
        final JournalDirectory spend = JournalDirectory.open(journal).pipeline("spend");
        try (OutputJournal output = OutputJournal.open(spend))
        {
            assertEquals(List.of(String.valueOf(output.lastPosition())),
                rows("SELECT output_position FROM weir_offsets WHERE results_table = '" + table + "'"),
                "the table holds the output journal's last position");
        }
    }

    /** @return the test database's URL, with its host and port the proxy's. */
    private String viaProxy()
    {
        final URI server = URI.create(URL.substring("jdbc:".length()));
        final String hostPort = server.getHost() + (server.getPort() < 0 ? "" : ":" + server.getPort());
        return URL.replaceFirst(Pattern.quote(hostPort), "127.0.0.1:" + proxy.port());
    }

    private Path payments(final String name, final String... lines) throws IOException
    {
        final List<String> all = new ArrayList<>();
        all.add(SpendRule.COLUMNS.csvHeader());
        all.addAll(List.of(lines));
        return Files.write(dir.resolve(name), all);
    }

    /** @return the rule's outputs in the output journal so far. */
    private static long outputs(final Path journal)
    {
        try (OutputJournal output = OutputJournal.open(JournalDirectory.open(journal).pipeline("spend")))
        {
            return output.readAll(stored ->
            {
            });
        }
    }

    private List<String> tableRows()
    {
        try
        {
            return rows("SELECT card, window_start, window_end, \"count\", sum, early FROM " + table + " ORDER BY card, window_start");
        }
        catch (final SQLException ex)
        {
            return List.of("(" + ex.getMessage() + ")"); // not created yet
        }
    }

    private static void await(final BooleanSupplier condition, final Supplier<String> what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BOUND_MS);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("not within " + BOUND_MS / 1_000 + " s: " + what.get());
            }
            Thread.sleep(50);
        }
    }

    private static Connection connect()
    {
        try
        {
            return DriverManager.getConnection(URL);
        }
        catch (final SQLException ex)
        {
            final String message = "no PostgreSQL server at " + URL.replaceFirst("\\?.*", "") + " (" + ex.getMessage() + ")";
            if ("1".equals(System.getenv("WEIR_REQUIRE_POSTGRES")))
            {
                fail(message + " -- WEIR_REQUIRE_POSTGRES=1, so this fails rather than skips");
            }
            Assumptions.abort(message + "; set WEIR_TEST_JDBC_URL, or WEIR_REQUIRE_POSTGRES=1 to fail instead");
            throw new AssertionError("unreachable");
        }
    }

    private void execute(final String sql) throws SQLException
    {
        try (Statement statement = db.createStatement())
        {
            statement.execute(sql);
        }
    }

    private List<String> rows(final String sql) throws SQLException
    {
        final List<String> rows = new ArrayList<>();
        try (Statement statement = db.createStatement(); ResultSet result = statement.executeQuery(sql))
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
}
