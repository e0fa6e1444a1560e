package com.example.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.List;

import dev.weir.journal.codec.ResultKind;
import dev.weir.test.TestResult;
import dev.weir.test.WeirTestDriver;
import org.junit.jupiter.api.Test;

/**
 * The rule unit-tested with weir-test: in memory, no journal, no Chronicle.
 */
final class SpendRuleTest
{
    @Test
    void alertsEarlyOnTheLimitAndCountsOnlyApprovedPayments()
    {
        final WeirTestDriver driver = WeirTestDriver.create(SpendRule.define(), SpendRule.COLUMNS_SPEC);
        driver.event(1_000, "card-1", "600.00", "approved");
        driver.event(2_000, "card-1", "900.00", "declined");
        final List<TestResult> none = driver.readResults();
        assertEquals(List.of(), none);

        driver.event(3_000, "card-1", "400.00", "approved");
        final List<TestResult> alerts = driver.readResults();
        assertEquals(1, alerts.size(), alerts.toString());
        assertEquals(ResultKind.EARLY, alerts.get(0).kind());
        assertEquals("card-1", alerts.get(0).key());
        assertEquals(new BigDecimal("1000.00"), alerts.get(0).decimalSum());

        driver.heartbeat(62_000);            // the minute is over (1 s out-of-orderness): the final row
        final List<TestResult> finals = driver.readResults();
        assertEquals(1, finals.size(), finals.toString());
        assertEquals(ResultKind.FINAL, finals.get(0).kind());
        assertEquals(2, finals.get(0).count());
        assertEquals(0, finals.get(0).windowStart());
        assertEquals(60_000, finals.get(0).windowEnd());
    }
}
