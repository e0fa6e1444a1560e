package dev.weir.engine.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import java.util.function.ToLongBiFunction;
import java.util.function.ToLongFunction;

import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;

/**
 * Compiled filters and values against expectations written independently (Java over the row's raw
 * longs, {@link BigDecimal} for exact comparisons across scales) on many seeded rows, extremes included
 * (wrapping arithmetic, comparisons that would overflow if rescaled naively).
 */
class ExpressionsEvaluationTest
{
    private static final JournalSchema SCHEMA = ExpressionsParseTest.SCHEMA;
    private static final int CARD = 0;
    private static final int CHANNEL = 1;
    private static final int COUNTRY = 2;
    private static final int AMOUNT = 3; // decimal(2)
    private static final int FEE = 4; // decimal(3)
    private static final int QTY = 5;
    private static final String[] CHANNELS = {"online", "pos", "atm"};
    private static final String[] COUNTRIES = {"FR", "DE", "US", "GB"};

    private final TestIds ids = new TestIds();

    private List<TestEvent> rows(final long seed, final int count)
    {
        final Random random = new Random(seed);
        final List<TestEvent> rows = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final TestEvent e = new TestEvent(SCHEMA.size());
            e.eventId = i;
            e.eventTime = 1_000L * i + random.nextInt(5_000);
            e.ids[CARD] = ids.intern(CARD, "c" + random.nextInt(10));
            e.ids[CHANNEL] = ids.intern(CHANNEL, CHANNELS[random.nextInt(CHANNELS.length)]);
            e.ids[COUNTRY] = ids.intern(COUNTRY, COUNTRIES[random.nextInt(COUNTRIES.length)]);
            e.longs[AMOUNT] = number(random);
            e.longs[FEE] = random.nextInt(4) == 0 ? e.longs[AMOUNT] * 10 : number(random); // equal amounts now and then
            e.longs[QTY] = random.nextInt(10) - 2;
            rows.add(e);
        }
        return rows;
    }

    private static long number(final Random random)
    {
        return switch (random.nextInt(20))
        {
            case 0 -> Long.MAX_VALUE;
            case 1 -> Long.MIN_VALUE;
            case 2 -> random.nextLong();
            case 3 -> Long.MAX_VALUE / 10 + random.nextInt(3) - 1;
            default -> random.nextInt(200_001) - 100_000;
        };
    }

    private String text(final int column, final TestEvent e)
    {
        return ids.text(column, e.ids[column]);
    }

    private static int compare(final long a, final int aScale, final long b, final int bScale)
    {
        return BigDecimal.valueOf(a, aScale).compareTo(BigDecimal.valueOf(b, bScale));
    }

    private void assertFilter(final String text, final Predicate<TestEvent> expected)
    {
        final EventFilter filter = Expressions.filter(text, SCHEMA, ids);
        int kept = 0;
        for (final TestEvent e : rows(text.hashCode(), 20_000))
        {
            final boolean want = expected.test(e);
            assertEquals(want, filter.test(e), () -> text + " on id " + e.eventId + " amount " + e.longs[AMOUNT] + " fee " + e.longs[FEE]);
            kept += want ? 1 : 0;
        }
        assertEquals(true, kept > 0 || text.contains("XX"), text + " kept nothing: a weak test");
    }

    private void assertValue(final String text, final int scale, final ToLongFunction<TestEvent> expected)
    {
        final EventValue value = Expressions.value(text, SCHEMA);
        assertEquals(scale, value.scale(), text);
        for (final TestEvent e : rows(text.hashCode(), 20_000))
        {
            assertEquals(expected.applyAsLong(e), value.value(e), () -> text + " on id " + e.eventId);
        }
    }

    @Test
    void filtersAgreeWithIndependentExpectations()
    {
        rows(0, 10); // define every string
        assertFilter("channel = 'online' and country in ('FR', 'DE') and amount > 10.00",
            e -> text(CHANNEL, e).equals("online") && (text(COUNTRY, e).equals("FR") || text(COUNTRY, e).equals("DE"))
                && e.longs[AMOUNT] > 1000);
        assertFilter("amount - fee > 100", e -> e.longs[AMOUNT] * 10 - e.longs[FEE] > 100_000);
        assertFilter("not (channel != 'pos' or qty <= 3)", e -> text(CHANNEL, e).equals("pos") && e.longs[QTY] > 3);
        assertFilter("amount = fee", e -> compare(e.longs[AMOUNT], 2, e.longs[FEE], 3) == 0);
        assertFilter("amount < fee or qty in (1, 2, 3)",
            e -> compare(e.longs[AMOUNT], 2, e.longs[FEE], 3) < 0 || (e.longs[QTY] >= 1 && e.longs[QTY] <= 3));
        assertFilter("fee >= amount", e -> compare(e.longs[FEE], 3, e.longs[AMOUNT], 2) >= 0);
        assertFilter("amount != fee", e -> compare(e.longs[AMOUNT], 2, e.longs[FEE], 3) != 0);
        assertFilter("card not in ('c1', 'c2') and amount * qty >= fee",
            e -> !text(CARD, e).equals("c1") && !text(CARD, e).equals("c2")
                && compare(e.longs[AMOUNT] * e.longs[QTY], 2, e.longs[FEE], 3) >= 0);
        assertFilter("-amount >= -5.5", e -> -e.longs[AMOUNT] >= -550);
        assertFilter("50 > amount", e -> e.longs[AMOUNT] < 5000);
        assertFilter("amount in (-1, 0.5, 9223372036854775.80)",
            e -> e.longs[AMOUNT] == -100 || e.longs[AMOUNT] == 50 || e.longs[AMOUNT] == 922337203685477580L);
        assertFilter("event_time - event_id > 1000 * event_id", e -> e.eventTime - e.eventId > 1000 * e.eventId);
        assertFilter("qty * 2 = qty + qty and amount >= 0", e -> e.longs[AMOUNT] >= 0);
        assertFilter("country != 'XX'", e -> true);
        assertFilter("country = 'XX' or country in ('XX', 'YY')", e -> false);
        assertFilter("country not in ('XX', 'US')", e -> !text(COUNTRY, e).equals("US"));
        assertFilter("1 < 2 and qty = 0", e -> e.longs[QTY] == 0);
    }

    @Test
    void valuesAgreeWithIndependentExpectations()
    {
        assertValue("qty", 0, e -> e.longs[QTY]);
        assertValue("amount", 2, e -> e.longs[AMOUNT]);
        assertValue("amount - fee", 3, e -> e.longs[AMOUNT] * 10 - e.longs[FEE]);
        assertValue("(amount - fee) * qty", 3, e -> (e.longs[AMOUNT] * 10 - e.longs[FEE]) * e.longs[QTY]);
        assertValue("amount * 2 + 1.5", 2, e -> e.longs[AMOUNT] * 2 + 150);
        assertValue("-(amount + qty)", 2, e -> -(e.longs[AMOUNT] + e.longs[QTY] * 100));
        assertValue("fee * amount - qty", 5, e -> e.longs[FEE] * e.longs[AMOUNT] - e.longs[QTY] * 100_000);
        assertValue("amount - 2 * 3", 2, e -> e.longs[AMOUNT] - 600);
        assertValue("event_time - event_id", 0, e -> e.eventTime - e.eventId);
    }

    /** The exact arithmetic: each step in {@link BigInteger}; a step out of the long range is a wrap, and its low 64 bits go on. */
    private static final class Steps
    {
        private static final BigInteger MIN = BigInteger.valueOf(Long.MIN_VALUE);
        private static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);
        boolean wrapped;

        long add(final long a, final long b)
        {
            return step(BigInteger.valueOf(a).add(BigInteger.valueOf(b)));
        }

        long subtract(final long a, final long b)
        {
            return step(BigInteger.valueOf(a).subtract(BigInteger.valueOf(b)));
        }

        long multiply(final long a, final long b)
        {
            return step(BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)));
        }

        long negate(final long a)
        {
            return step(BigInteger.valueOf(a).negate());
        }

        private long step(final BigInteger exact)
        {
            wrapped |= exact.compareTo(MIN) < 0 || exact.compareTo(MAX) > 0;
            return exact.longValue();
        }
    }

    private void assertWrapped(final String text, final ToLongBiFunction<Steps, TestEvent> exact)
    {
        final EventValue value = Expressions.value(text, SCHEMA);
        int wrapped = 0;
        final List<TestEvent> rows = rows(text.hashCode(), 20_000);
        for (final TestEvent e : rows)
        {
            final Steps steps = new Steps();
            final long expected = exact.applyAsLong(steps, e);
            assertEquals(expected, value.value(e), () -> text + " on id " + e.eventId);
            assertEquals(steps.wrapped, value.wrapped(), () -> text + " on id " + e.eventId + ": amount " + e.longs[AMOUNT] + " fee "
                + e.longs[FEE] + " qty " + e.longs[QTY]);
            wrapped += steps.wrapped ? 1 : 0;
        }
        assertTrue(wrapped > 0 && wrapped < rows.size(), text + " wrapped on " + wrapped + " rows of " + rows.size() + ": a weak test");
    }

    @Test
    void wrappedTellsExactlyWhenAStepLeftTheLongRange()
    {
        assertWrapped("(amount - fee) * qty", (s, e) -> s.multiply(s.subtract(s.multiply(e.longs[AMOUNT], 10), e.longs[FEE]), e.longs[QTY]));
        assertWrapped("fee * amount - qty", (s, e) -> s.subtract(s.multiply(e.longs[FEE], e.longs[AMOUNT]), s.multiply(e.longs[QTY], 100_000)));
        assertWrapped("-(amount + fee)", (s, e) -> s.negate(s.add(s.multiply(e.longs[AMOUNT], 10), e.longs[FEE])));
        assertWrapped("amount * 1000000000000", (s, e) -> s.multiply(e.longs[AMOUNT], 1_000_000_000_000L));
        assertWrapped("-amount + qty", (s, e) -> s.add(s.negate(e.longs[AMOUNT]), s.multiply(e.longs[QTY], 100)));
    }

    @Test
    void arithmeticWrapsAsSumDoes()
    {
        final TestEvent e = new TestEvent(SCHEMA.size());
        e.longs[QTY] = Long.MAX_VALUE;
        assertEquals(Long.MIN_VALUE, Expressions.value("qty + 1", SCHEMA).value(e));
        assertEquals(-2, Expressions.value("qty * 2", SCHEMA).value(e));
        e.longs[QTY] = Long.MIN_VALUE;
        assertEquals(Long.MIN_VALUE, Expressions.value("-qty", SCHEMA).value(e));
        assertEquals(Long.MAX_VALUE, Expressions.value("qty - 1", SCHEMA).value(e));
    }
}
