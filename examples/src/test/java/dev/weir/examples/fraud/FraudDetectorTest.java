package dev.weir.examples.fraud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fraud detector catches exactly the injected bursts: every injected card by the spend rule, every
 * one whose session has closed by the burst rule, and no ordinary card. Alerts depend only on the
 * payments (event time), not on timing, so this holds on any machine.
 */
class FraudDetectorTest
{
    @TempDir
    Path dir;

    @Test
    void alertsExactlyTheInjectedCards() throws Exception
    {
        final FraudDetector.Summary summary = new FraudDetector(dir, 60_000, 100_000, 50_000, 42).run();
        assertEquals(5, summary.fraudKeys().size(), "a burst every 10,000 payments");
        assertEquals(summary.fraudKeys(), summary.spendCards());
        // the last burst's session is still open when the stream ends (following pipelines fire nothing at stop)
        assertEquals(4, summary.burstCards().size());
        assertTrue(summary.fraudKeys().containsAll(summary.burstCards()), "only injected cards: " + summary.burstCards());
        assertEquals(summary.spendWindows(), summary.spendLatency().getTotalCount(), "every alert's latency is known");
        assertEquals(summary.burstWindows(), summary.burstLatency().getTotalCount());
    }
}
