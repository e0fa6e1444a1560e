package dev.weir.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.Weir;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.JvmFlags;
import dev.weir.journal.codec.ResultKind;
import org.junit.jupiter.api.Test;

/**
 * The driver against hand-computed expectations (DESIGN.md's semantics), in a JVM without Chronicle's jars
 * and without its flags (see this module's pom).
 */
class WeirTestDriverTest
{
    private static String row(final TestResult r)
    {
        return r.kind() + " " + r.key() + " [" + r.windowStart() + "," + r.windowEnd() + ") n=" + r.count() + " sum=" + r.sum() + " min=" + r.min()
            + " max=" + r.max() + " v" + r.version() + " @" + r.sourceOffset();
    }

    private static List<String> rows(final List<TestResult> results)
    {
        final List<String> rows = new ArrayList<>();
        for (final TestResult r : results)
        {
            rows.add(row(r));
        }
        return rows;
    }

    /** The snippet of docs/java-api.md, "Testing a rule with weir-test": keep the two the same. */
    @Test
    void approvedSpendReachingTheLimitAlertsEarly()
    {
        final WeirTestDriver driver = WeirTestDriver.create(
            Weir.pipeline().keyColumn("card").valueColumn("amount").where("status = 'approved'")
                .window(SlidingWindows.of(Duration.ofMinutes(1), Duration.ofSeconds(10))).outOfOrderness(Duration.ofSeconds(5))
                .earlyWhen("sum >= 1000.00"),
            "card:string,amount:decimal(2),status:string");

        driver.event(1_000, "c1", "600.00", "approved");
        driver.event(2_000, "c1", "900.00", "declined"); // filtered out
        driver.event(3_000, "c1", "400.00", "approved"); // 1,000.00: the limit

        final List<TestResult> alerts = driver.readResults();
        assertEquals(6, alerts.size(), alerts.toString()); // 60 s windows sliding by 10 s: six hold 1,000 to 3,000
        for (final TestResult alert : alerts)
        {
            assertEquals(ResultKind.EARLY, alert.kind());
            assertEquals("c1", alert.key());
            assertEquals(new BigDecimal("1000.00"), alert.decimalSum());
            assertEquals(2, alert.sourceOffset()); // the third event
        }
    }

    @Test
    void runsWithoutChronicleOrItsFlags()
    {
        assertFalse(JvmFlags.missing().isEmpty(), "this JVM was started without Chronicle's flags");
        assertThrows(ClassNotFoundException.class, () -> Class.forName("net.openhft.chronicle.queue.ChronicleQueue"));
        assertThrows(ClassNotFoundException.class, () -> Class.forName("net.openhft.chronicle.bytes.Bytes"));
        final WeirTestDriver driver = WeirTestDriver.create(Weir.pipeline().window(TumblingWindows.of(10_000)));
        driver.event(1_000, "a", "7").end();
        assertEquals(List.of("FINAL a [0,10000) n=1 sum=7 min=7 max=7 v0 @0"), rows(driver.readResults()));
    }

    /** DESIGN.md's worked example: tumbling 10 s, D = 5 s, A = 0, drop. */
    @Test
    void tumblingWorkedExample()
    {
        final WeirTestDriver driver = WeirTestDriver.create(Weir.pipeline().window(TumblingWindows.of(10_000)).outOfOrderness(5_000));
        driver.eventWithId(1, 5_000, "a", "10").eventWithId(2, 8_000, "b", "20");
        assertEquals(List.of(), driver.readResults());
        assertEquals(3_000, driver.watermark());
        driver.eventWithId(3, 22_000, "a", "5");
        assertEquals(17_000, driver.watermark());
        // event 3 (offset 2) fires [0,10000) for a and b
        assertEquals(List.of("FINAL a [0,10000) n=1 sum=10 min=10 max=10 v0 @2", "FINAL b [0,10000) n=1 sum=20 min=20 max=20 v0 @2"),
            rows(driver.readResults()));
        driver.eventWithId(4, 3_000, "c", "3").eventWithId(5, 1_000, "z", "99"); // late: dropped
        assertEquals(List.of(), driver.readResults());
        assertEquals(List.of(), driver.readLateEvents(), "dropped, not side-output");
        driver.end();
        assertEquals(Long.MAX_VALUE, driver.watermark());
        assertEquals(List.of("FINAL a [20000,30000) n=1 sum=5 min=5 max=5 v0 @4"), rows(driver.readResults()));
        assertThrows(IllegalStateException.class, () -> driver.event(40_000, "a", "1"));
    }

    @Test
    void slidingWindowsEachEventInSizeOverSlideWindows()
    {
        final WeirTestDriver driver = WeirTestDriver.create(Weir.pipeline().window(SlidingWindows.of(10_000, 5_000)));
        // 7000 lies in [0,10000) and [5000,15000); 12000 in [5000,15000) and [10000,20000)
        driver.event(7_000, "k", "3").event(12_000, "k", "4");
        // the watermark (D = 0) is 12000: [0,10000) has fired on the second event
        assertEquals(List.of("FINAL k [0,10000) n=1 sum=3 min=3 max=3 v0 @1"), rows(driver.readResults()));
        driver.end();
        assertEquals(List.of("FINAL k [5000,15000) n=2 sum=7 min=3 max=4 v0 @1", "FINAL k [10000,20000) n=1 sum=4 min=4 max=4 v0 @1"),
            rows(driver.readResults()));
    }

    @Test
    void sessionWindowsMergeEventsWithinTheGap()
    {
        final WeirTestDriver driver = WeirTestDriver.create(Weir.pipeline().window(SessionWindows.withGap(10_000)));
        // a: [1000,11000) and [8000,18000) touch: one session [1000,18000); 30000 opens [30000,40000) and fires it
        driver.event(1_000, "a", "1").event(8_000, "a", "2").event(30_000, "a", "4");
        assertEquals(List.of("FINAL a [1000,18000) n=2 sum=3 min=1 max=2 v0 @2"), rows(driver.readResults()));
        driver.end();
        assertEquals(List.of("FINAL a [30000,40000) n=1 sum=4 min=4 max=4 v0 @2"), rows(driver.readResults()));
    }

    @Test
    void lateEventsSideOutputAndAllowedLatenessReFires()
    {
        final WeirTestDriver driver = WeirTestDriver.create(
            Weir.pipeline().window(TumblingWindows.of(10_000)).allowedLateness(5_000).latePolicy(LatePolicy.SIDE));
        driver.event(1_000, "a", "1").event(12_000, "a", "2");
        // wm 12000 >= 10000: [0,10000) fires, version 0
        assertEquals(List.of("FINAL a [0,10000) n=1 sum=1 min=1 max=1 v0 @1"), rows(driver.readResults()));
        // 10000 + A = 15000 > wm 12000: not late, the window fires again at once, version 1
        driver.event(3_000, "a", "5");
        assertEquals(List.of("FINAL a [0,10000) n=2 sum=6 min=1 max=5 v1 @2"), rows(driver.readResults()));
        driver.event(16_000, "a", "1"); // wm 16000: [0,10000) is late now (10000 + 5000 <= 16000)
        driver.event(4_000, "a", "9"); // 4000 + 5000 < 16000: skipped, side-output
        assertEquals(List.of(), driver.readResults());
        final List<TestLateEvent> late = driver.readLateEvents();
        assertEquals(1, late.size());
        assertEquals(4, late.get(0).eventId());
        assertEquals(4_000, late.get(0).eventTime());
        assertEquals("a", late.get(0).key());
        assertEquals(9, late.get(0).value());
        assertEquals(4, late.get(0).offset());
        assertEquals(List.of(), driver.readLateEvents(), "read once");
    }

    @Test
    void emitUpdatesAfterEachEventThenTheFinalRow()
    {
        final WeirTestDriver driver = WeirTestDriver.create(Weir.pipeline().window(TumblingWindows.of(10_000)).emitUpdates(true));
        driver.event(1_000, "a", "4").event(2_000, "a", "6").event(10_000, "b", "1");
        assertEquals(List.of(
            "UPDATE a [0,10000) n=1 sum=4 min=4 max=4 v0 @0",
            "UPDATE a [0,10000) n=2 sum=10 min=4 max=6 v0 @1",
            "UPDATE b [10000,20000) n=1 sum=1 min=1 max=1 v0 @2",
            "FINAL a [0,10000) n=2 sum=10 min=4 max=6 v0 @2"), rows(driver.readResults()));
    }

    @Test
    void earlyRowOnceWhenTheConditionFirstHolds()
    {
        final WeirTestDriver driver = WeirTestDriver.create(Weir.pipeline().window(TumblingWindows.of(60_000)).earlyWhen("sum >= 100"));
        driver.event(1_000, "a", "60").event(2_000, "b", "99").event(3_000, "a", "40").event(4_000, "a", "5");
        assertEquals(List.of("EARLY a [0,60000) n=2 sum=100 min=40 max=60 v0 @2"), rows(driver.readResults()), "a once, b never");
        driver.end();
        assertEquals(List.of("FINAL a [0,60000) n=3 sum=105 min=5 max=60 v0 @3", "FINAL b [0,60000) n=1 sum=99 min=99 max=99 v0 @3"),
            rows(driver.readResults()));
    }

    @Test
    void whereAndValueExpressionOverDecimals()
    {
        final WeirTestDriver driver = WeirTestDriver.create(
            Weir.pipeline().keyColumn("card").value("amount - fee").where("status = 'approved'").window(TumblingWindows.of(60_000)),
            "card:string,amount:decimal(2),fee:decimal(2),status:string");
        driver.event(1_000, "c1", "12.5", "0.25", "approved") // 12.25
            .event(2_000, "c1", "100.00", "1.00", "declined") // filtered out, still moves the watermark
            .event(3_000, "c1", "7", "0", "approved") // 7.00
            .event(4_000, "c2", "-1.05", "0.10", "approved") // -1.15
            .end();
        final List<TestResult> results = driver.readResults();
        assertEquals(List.of("FINAL c1 [0,60000) n=2 sum=1925 min=700 max=1225 v0 @3", "FINAL c2 [0,60000) n=1 sum=-115 min=-115 max=-115 v0 @3"),
            rows(results));
        assertEquals(new BigDecimal("19.25"), results.get(0).decimalSum());
        assertEquals(new BigDecimal("7.00"), results.get(0).decimalMin());
        assertEquals(new BigDecimal("-1.15"), results.get(1).decimalMax());
        assertEquals("FINAL c1 [0, 60000) count=2 sum=19.25 min=7.00 max=12.25 v0 @3", results.get(0).toString());
    }

    @Test
    void filterLiteralSeenOnlyLaterStillMatches()
    {
        final WeirTestDriver driver = WeirTestDriver.create(
            Weir.pipeline().keyColumn("card").valueColumn("amount").where("status = 'approved'").window(TumblingWindows.of(10_000)),
            "card:string,amount:long,status:string");
        driver.event(1_000, "c1", "5", "declined").event(2_000, "c1", "7", "approved").end();
        assertEquals(List.of("FINAL c1 [0,10000) n=1 sum=7 min=7 max=7 v0 @1"), rows(driver.readResults()));
    }

    @Test
    void namedAggregatesSayWhichHaveAValue()
    {
        final WeirTestDriver driver = WeirTestDriver.create(
            Weir.pipeline().keyColumn("card").window(TumblingWindows.of(10_000)).earlyWhen("declines >= 2")
                .aggregates("declines=count() filter (where status = 'declined'),approved=sum(amount) filter (where status='approved'),"
                    + "last=last(amount)"),
            "card:string,amount:decimal(2),status:string");
        driver.event(1_000, "c1", "5.00", "declined").event(2_000, "c1", "7.50", "declined").event(500, "c1", "9.00", "declined");
        final TestResult early = driver.readResults().get(0);
        assertEquals(ResultKind.EARLY, early.kind());
        assertEquals(List.of(2L, 0L, 750L), early.aggregates(), "approved is empty: 0; last is 7.50, unscaled");
        assertTrue(early.hasAggregate(0));
        assertFalse(early.hasAggregate(1), "no event was approved");
        assertEquals("EARLY c1 [0, 10000) count=2 sum=0 min=0 max=0 v0 @1 aggregates=[2, null, 750]", early.toString());
        driver.event(3_000, "c1", "4.00", "approved").end();
        final TestResult last = driver.readResults().get(0);
        assertEquals(List.of(3L, 400L, 400L), last.aggregates(), "the event of t=3,000 is the last by time");
        assertTrue(last.hasAggregate(1));
        assertEquals(4, last.count());
    }

    @Test
    void updateRowsCarryTheNamedAggregatesSoFar()
    {
        final WeirTestDriver driver = WeirTestDriver.create(Weir.pipeline().keyColumn("card").window(TumblingWindows.of(10_000)).emitUpdates(true)
            .aggregates("spent=sum(amount) filter (where status='approved'),tries=count()"), "card:string,amount:decimal(2),status:string");
        driver.event(1_000, "c1", "5.00", "declined").event(2_000, "c1", "7.50", "approved").end();
        final List<String> rows = new ArrayList<>();
        for (final TestResult r : driver.readResults())
        {
            rows.add(r.kind() + " " + r.aggregates() + " " + r.hasAggregate(0));
        }
        assertEquals(List.of("UPDATE [0, 1] false", "UPDATE [750, 2] true", "FINAL [750, 2] true"), rows);
    }

    @Test
    void compositeKeyPrintsItsColumnsAsTheCsvRowDoes()
    {
        final WeirTestDriver driver = WeirTestDriver.create(
            Weir.pipeline().keyColumns("merchant", "country", "tier").valueColumn("amount").window(TumblingWindows.of(10_000)),
            "merchant:string,country:string,tier:decimal(2),amount:long");
        driver.event(1_000, "acme, inc", "FR", "2.5", "3").event(2_000, "bolt", "DE", "1", "4").event(3_000, "acme, inc", "FR", "2.50", "5").end();
        final List<TestResult> results = driver.readResults();
        assertEquals(List.of("FINAL \"acme, inc\",FR,2.50 [0,10000) n=2 sum=8 min=3 max=5 v0 @2", "FINAL bolt,DE,1.00 [0,10000) n=1 sum=4 min=4 max=4 v0 @2"),
            rows(results));
        assertEquals(List.of("acme, inc", "FR", "2.50"), results.get(0).keyValues(), "2.5 and 2.50 are one key");
    }

    @Test
    void heartbeatFiresAQuietStreamsWindow()
    {
        final WeirTestDriver driver = WeirTestDriver.create(Weir.pipeline().window(TumblingWindows.of(10_000)).outOfOrderness(2_000));
        driver.event(1_000, "a", "3");
        driver.heartbeat(11_000); // wm 9000: not yet
        assertEquals(List.of(), driver.readResults());
        driver.heartbeat(12_000); // wm 10000 >= end
        assertEquals(List.of("FINAL a [0,10000) n=1 sum=3 min=3 max=3 v0 @2"), rows(driver.readResults()));
        assertEquals(10_000, driver.watermark());
        assertEquals(3, driver.nextOffset(), "one offset per event or heartbeat");
    }

    @Test
    void endFiresEveryOpenWindowOnce()
    {
        final WeirTestDriver driver = WeirTestDriver.create(Weir.pipeline().window(TumblingWindows.of(10_000)));
        driver.event(1_000, "a", "1").event(5_000, "b", "2");
        assertEquals(List.of(), driver.readResults());
        driver.end();
        assertEquals(List.of("FINAL a [0,10000) n=1 sum=1 min=1 max=1 v0 @1", "FINAL b [0,10000) n=1 sum=2 min=2 max=2 v0 @1"), rows(driver.readResults()));
        assertEquals(List.of(), driver.readResults());
        assertThrows(IllegalStateException.class, driver::end);
    }

    @Test
    void theBuildersOwnListenersAreCalledToo()
    {
        final List<String> seen = new ArrayList<>();
        final WeirTestDriver driver = WeirTestDriver.create(Weir.pipeline().window(TumblingWindows.of(10_000)).latePolicy(LatePolicy.SIDE)
            .onResult(r -> seen.add("result " + r.windowStart())).onLate(e -> seen.add("late " + e.eventId())));
        driver.event(1_000, "a", "1").event(20_000, "a", "1").event(2_000, "a", "1");
        assertEquals(List.of("result 0", "late 2"), seen);
    }

    @Test
    void valuesAreParsedAsAnEventsCsvsFields()
    {
        final WeirTestDriver driver = WeirTestDriver.create(Weir.pipeline().keyColumn("card").valueColumn("amount").window(TumblingWindows.of(10_000)),
            "card:string,amount:decimal(2)");
        assertEquals("bad decimal in column amount: 1.234 (scale 2)",
            assertThrows(IllegalArgumentException.class, () -> driver.event(1_000, "c1", "1.234")).getMessage());
        assertEquals("empty string in column card", assertThrows(IllegalArgumentException.class, () -> driver.event(1_000, "", "1")).getMessage());
        assertEquals("expected 2 values (card:string,amount:decimal(2)), got 1",
            assertThrows(IllegalArgumentException.class, () -> driver.event(1_000, "c1")).getMessage());
        assertEquals("event_time is negative: -1", assertThrows(IllegalArgumentException.class, () -> driver.event(-1, "c1", "1")).getMessage());
        assertEquals(0, driver.nextOffset(), "a refused event takes no offset");
        final WeirTestDriver defaults = WeirTestDriver.create(Weir.pipeline().window(TumblingWindows.of(10_000)));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> defaults.event(1_000, "a b", "1")).getMessage()
            .startsWith("key has characters outside [A-Za-z0-9_-]"));
        assertEquals("bad long in column value: 1.5", assertThrows(IllegalArgumentException.class, () -> defaults.event(1_000, "a", "1.5")).getMessage());
    }

    @Test
    void invalidConfigurationIsRefusedAsConcludeRefusesIt()
    {
        assertThrows(IllegalStateException.class, () -> WeirTestDriver.create(Weir.pipeline()), "a window is required");
        assertThrows(IllegalArgumentException.class, () -> WeirTestDriver.create(Weir.pipeline().window(TumblingWindows.of(10)).keyColumn("card")));
    }
}
