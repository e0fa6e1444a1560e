package com.example.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.weir.engine.PipelineState;
import dev.weir.engine.delivery.DeliveryListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CardAlerts} prints each alert with the card and the amount as the payments wrote them, while the database
 * is unreachable (the delivery retries meanwhile); another thread closes it, as a shutdown hook would, and the
 * thread that waits on it returns.
 */
final class CardAlertsPrintTest
{
    /** Generous bounds for a loaded machine; every wait ends as soon as its condition holds. */
    private static final long BOUND_MS = 120_000;

    @TempDir
    Path dir;

    @Test
    void printsEachAlertWithItsCardAndDecimalSum() throws Exception
    {
        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        final CardAlerts alerts = CardAlerts.start(dir.resolve("payments"), "jdbc:postgresql://127.0.0.1:" + closedPort() + "/none",
            "alerts", new DeliveryListener()
            {
            }, new PrintStream(printed, true, StandardCharsets.UTF_8));
        alerts.ingest(Files.write(dir.resolve("payments.csv"), List.of(SpendRule.COLUMNS.csvHeader(),
            "1,1000,card-1,600.00,approved",
            "2,2000,card-7,1000.50,approved",
            "3,4000,card-1,400.00,approved")));
        final long deadline = System.currentTimeMillis() + BOUND_MS;
        while (printed.toString(StandardCharsets.UTF_8).lines().count() < 2 && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(10); // polled until the condition holds
        }
        assertEquals(List.of(
            "alert: card-7 spent 1000.50 in the minute from 0",
            "alert: card-1 spent 1000.00 in the minute from 0"), printed.toString(StandardCharsets.UTF_8).lines().toList());

        final Thread hook = new Thread(() ->
        {
            try
            {
                alerts.close();
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
        });
        hook.start();
        alerts.awaitTermination(); // ends once the other thread closed it
        hook.join(BOUND_MS);
        assertEquals(PipelineState.STOPPED, alerts.state());
        alerts.close(); // idempotent
        assertFalse(hook.isAlive());
    }

    /** @return a port nothing listens on: the database is down. */
    private static int closedPort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }
}
