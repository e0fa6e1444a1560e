package dev.weir.examples.fraud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;

import dev.weir.journal.codec.ResultKind;
import dev.weir.test.TestResult;
import dev.weir.test.WeirTestDriver;
import org.junit.jupiter.api.Test;

/**
 * The fraud detector's rules that join no table, unit-tested with the test kit's driver: the same {@link FraudRules}
 * builders the detector runs over its journal, given payments by hand, with expectations computed by hand. The rules
 * that join the card profiles read a journal's table, which the driver has not: {@link CardProfileRulesTest}.
 */
class FraudRulesTest
{
    /** Give a payment: the columns of {@link Payments#COLUMNS}, in order. */
    private static void pay(final WeirTestDriver driver, final long time, final String card, final String merchant, final String amount,
        final String fee, final String channel, final String status)
    {
        driver.event(time, card, merchant, "FR", amount, fee, channel, status);
    }

    @Test
    void declinesAlertsOnTheThirdDeclineInASlidingMinute()
    {
        final WeirTestDriver driver = WeirTestDriver.create(FraudRules.declines(), Payments.COLUMNS);
        pay(driver, 1_000, "c1", "m1", "10.00", "0.15", "online", "declined"); // offset 0: c1's first
        pay(driver, 2_000, "c1", "m1", "10.00", "0.15", "online", "approved"); // 1: does not count
        pay(driver, 2_500, "c2", "m1", "10.00", "0.15", "online", "declined"); // 2: c2's first
        pay(driver, 3_000, "c1", "m2", "10.00", "0.15", "pos", "declined"); // 3: c1's second
        pay(driver, 3_500, "c2", "m2", "10.00", "0.15", "online", "declined"); // 4: c2's second
        pay(driver, 4_000, "c2", "m2", "10.00", "0.15", "online", "approved"); // 5: does not count
        assertEquals(List.of(), driver.readResults());
        pay(driver, 5_000, "c1", "m3", "10.00", "0.15", "online", "declined"); // 6: c1's third
        final List<TestResult> alerts = driver.readResults();
        // 1,000 to 5,000 lie in the 6 windows [s, s + 60 s) with s = -50 s, ..., 0 (slide 10 s)
        assertEquals(List.of(-50_000L, -40_000L, -30_000L, -20_000L, -10_000L, 0L),
            alerts.stream().map(TestResult::windowStart).collect(Collectors.toList()));
        for (final TestResult r : alerts)
        {
            assertEquals(ResultKind.EARLY, r.kind(), r.toString());
            assertEquals("c1", r.key(), r.toString());
            assertEquals(FraudDetector.DECLINE_LIMIT, r.count(), r.toString());
            assertEquals(6, r.sourceOffset(), r.toString());
        }
    }

    @Test
    void burstsAlertOnASessionOfMoreThanTheLimit()
    {
        final WeirTestDriver driver = WeirTestDriver.create(FraudRules.bursts(), Payments.COLUMNS);
        for (int i = 0; i < 9; i++)
        {
            pay(driver, 1_000 + i * 1_000, "c1", "m" + i, "10.00", "0.15", "online", "approved"); // 9 payments 1 s apart: one session
            if (i < 8)
            {
                pay(driver, 1_500 + i * 1_000, "c2", "m" + i, "10.00", "0.15", "online", "approved"); // 8: at the limit, not above
            }
        }
        driver.end();
        final List<String> alerted = driver.readResults().stream().filter(r -> r.count() > FraudDetector.BURST_LIMIT).map(TestResult::key)
            .collect(Collectors.toList());
        assertEquals(List.of("c1"), alerted);
    }

    @Test
    void merchantsCountsDistinctMerchantsPerCardAndMinute()
    {
        final WeirTestDriver driver = WeirTestDriver.create(FraudRules.merchants(), Payments.COLUMNS);
        for (int i = 0; i < 12; i++)
        {
            pay(driver, 1_000 + i * 1_000, "c1", "m" + i % 6, "10.00", "0.15", "online", "approved"); // six merchants
            pay(driver, 1_000 + i * 1_000, "c2", "m" + i % 2, "10.00", "0.15", "online", "approved"); // two
        }
        driver.end();
        final List<TestResult> results = driver.readResults();
        assertEquals(List.of("c1", "c2"), results.stream().map(TestResult::key).collect(Collectors.toList()));
        assertTrue(results.get(0).aggregate(0) >= FraudDetector.MERCHANT_LIMIT, results.get(0).toString());
        assertTrue(results.get(1).aggregate(0) < FraudDetector.MERCHANT_LIMIT, results.get(1).toString());
    }

    @Test
    void placesSumsSpendPerMerchantAndCountry()
    {
        final WeirTestDriver driver = WeirTestDriver.create(FraudRules.places(), Payments.COLUMNS);
        driver.event(1_000, "c1", "m1", "FR", "10.00", "0.15", "pos", "approved");
        driver.event(2_000, "c2", "m1", "DE", "1.00", "0.02", "online", "declined");
        driver.event(3_000, "c3", "m1", "FR", "5.50", "0.08", "pos", "approved");
        driver.end();
        assertEquals(List.of("FINAL m1,FR [0, 60000) count=2 sum=15.50 min=5.50 max=10.00 v0 @2", "FINAL m1,DE [0, 60000) count=1 sum=1.00 min=1.00 max=1.00 v0 @2"),
            driver.readResults().stream().map(TestResult::toString).collect(Collectors.toList()));
    }
}
