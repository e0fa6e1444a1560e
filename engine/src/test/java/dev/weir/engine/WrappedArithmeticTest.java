package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.metrics.CounterTypes;
import dev.weir.engine.metrics.MetricsFile;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code --value} whose arithmetic wraps, and window sums that wrap: on a seeded stream of extreme amounts, the
 * pipeline keeps the wrapped values (the result rows' sums are the wrapped sums) and counts exactly the events
 * whose value wrapped and the sum additions that wrapped, as a brute force with {@link BigInteger} counts them,
 * across a stop and a resume from its checkpoint, in the run summary, the in-process metrics and the metrics
 * file.
 */
class WrappedArithmeticTest
{
    private static final JournalSchema SCHEMA = JournalSchema.parse("card:string,amount:decimal(2),qty:long");
    /** At scale 2: {@code amount * qty} (scale 2), {@code qty} rescaled by 100, then the sum. */
    private static final String VALUE = "amount * qty + qty";
    private static final int EVENTS = 20_000;
    private static final long SIZE = 1_000;
    private static final long SLIDE = 250;
    private static final BigInteger MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);

    @TempDir
    Path dir;

    /** The brute force: every step in {@link BigInteger}, a step out of the long range counted, its wrapped long kept. */
    private static final class Exact
    {
        boolean wrapped;

        long step(final BigInteger exact)
        {
            wrapped |= exact.compareTo(MIN) < 0 || exact.compareTo(MAX) > 0;
            return exact.longValue(); // the low 64 bits: two's complement wrapping
        }
    }

    private record Event(long id, long time, String card, long cents, long qty)
    {
    }

    private static Event[] events()
    {
        final Random random = new Random(28);
        final Event[] events = new Event[EVENTS];
        long time = 0;
        for (int i = 0; i < EVENTS; i++)
        {
            time += random.nextInt(4);
            final long cents = switch (random.nextInt(5))
            {
                case 0 -> Long.MAX_VALUE / 100 - random.nextInt(1_000);
                case 1 -> -(Long.MAX_VALUE / 100) + random.nextInt(1_000);
                case 2 -> random.nextLong();
                default -> random.nextInt(2_000_001) - 1_000_000;
            };
            final long qty = switch (random.nextInt(4))
            {
                case 0 -> random.nextLong();
                case 1 -> random.nextInt(2_000_000_000);
                default -> random.nextInt(13) - 2;
            };
            events[i] = new Event(i, time, "c" + random.nextInt(10), cents, qty);
        }
        return events;
    }

    @Test
    void countsExactlyTheWrappedValuesAndSumsAndKeepsTheWrappedValuesAcrossAResume() throws Exception
    {
        final Event[] events = events();
        // brute force: each event's value, whether it wrapped, and each (card, window)'s sum, addition by addition
        final long[] values = new long[EVENTS];
        long valuesWrapped = 0;
        long valuesWrappedFirstHalf = 0;
        long sumsWrapped = 0;
        long sumsWrappedFirstHalf = 0;
        final Map<String, Long> sums = new TreeMap<>();
        for (int i = 0; i < EVENTS; i++)
        {
            final Event e = events[i];
            final Exact exact = new Exact();
            final long product = exact.step(BigInteger.valueOf(e.cents).multiply(BigInteger.valueOf(e.qty)));
            final long rescaled = exact.step(BigInteger.valueOf(e.qty).multiply(BigInteger.valueOf(100)));
            values[i] = exact.step(BigInteger.valueOf(product).add(BigInteger.valueOf(rescaled)));
            valuesWrapped += exact.wrapped ? 1 : 0;
            for (long start = Math.floorDiv(e.time, SLIDE) * SLIDE; start > e.time - SIZE; start -= SLIDE)
            {
                final String window = e.card + "," + start;
                final long before = sums.getOrDefault(window, 0L);
                final BigInteger sum = BigInteger.valueOf(before).add(BigInteger.valueOf(values[i]));
                sumsWrapped += sum.compareTo(MIN) < 0 || sum.compareTo(MAX) > 0 ? 1 : 0;
                sums.put(window, sum.longValue());
            }
            if (i == EVENTS / 2 - 1)
            {
                valuesWrappedFirstHalf = valuesWrapped;
                sumsWrappedFirstHalf = sumsWrapped;
            }
        }
        assertTrue(valuesWrappedFirstHalf > 100 && valuesWrapped - valuesWrappedFirstHalf > 100 && valuesWrapped < EVENTS / 2,
            "a stream where some values wrap and most do not: " + valuesWrapped);
        assertTrue(sumsWrappedFirstHalf > 100 && sumsWrapped - sumsWrappedFirstHalf > 100, "sums that wrap: " + sumsWrapped);

        final Path journal = dir.resolve("journal");
        final Map<String, Long> results = new ConcurrentHashMap<>();
        final Map<String, Integer> cardIds = new TreeMap<>();
        try (EventJournal writer = EventJournal.openOrCreate(journal, SCHEMA))
        {
            long last = -1;
            for (int i = 0; i < EVENTS / 2; i++)
            {
                last = append(writer, events[i], cardIds);
            }
            final RunSummary first;
            try (Pipeline pipeline = pipeline(journal, results).build().start())
            {
                assertTrue(pipeline.awaitOffset(last, 120, TimeUnit.SECONDS), "the first half applied");
                first = pipeline.stop();
            }
            assertEquals(valuesWrappedFirstHalf, first.valuesWrapped(), "values wrapped in the first half");
            assertEquals(sumsWrappedFirstHalf, first.sumsWrapped(), "sum additions wrapped in the first half");
            for (int i = EVENTS / 2; i < EVENTS; i++)
            {
                append(writer, events[i], cardIds);
            }
        }

        final Pipeline resumed = pipeline(journal, results).build();
        final RunSummary summary = resumed.runToEnd();
        assertTrue(summary.resumedAfterOffset() >= 0, "resumed from the first run's checkpoint");
        assertEquals(EVENTS, summary.events());
        assertEquals(valuesWrapped, summary.valuesWrapped(), "values wrapped, the checkpointed count included");
        assertEquals(sumsWrapped, summary.sumsWrapped(), "sum additions wrapped, the checkpointed count included");
        assertEquals(valuesWrapped, resumed.metrics().value(CounterTypes.VALUES_WRAPPED), "Pipeline.metrics()");
        assertEquals(sumsWrapped, resumed.metrics().value(CounterTypes.SUMS_WRAPPED), "Pipeline.metrics()");
        try (MetricsFile file = MetricsFile.open(JournalDirectory.open(journal).metricsFile()))
        {
            assertEquals(valuesWrapped, file.value(CounterTypes.VALUES_WRAPPED), "the metrics file weir stat reads");
            assertEquals(sumsWrapped, file.value(CounterTypes.SUMS_WRAPPED), "the metrics file weir stat reads");
        }
        final Map<String, Long> expected = new TreeMap<>();
        sums.forEach((window, sum) ->
        {
            final String[] cardStart = window.split(",");
            expected.put(cardIds.get(cardStart[0]) + "," + cardStart[1], sum);
        });
        assertEquals(expected, new TreeMap<>(results), "every window's sum is the wrapped sum of the wrapped values");
    }

    private static PipelineBuilder pipeline(final Path journal, final Map<String, Long> results)
    {
        return Weir.pipeline().journal(journal).window(SlidingWindows.of(SIZE, SLIDE)).keyColumn("card").value(VALUE)
            .checkpointEvery(1_000)
            .onResult(r -> results.put(r.keyId() + "," + r.windowStart(), r.sum()));
    }

    private static long append(final EventJournal writer, final Event e, final Map<String, Integer> cardIds)
    {
        final int card = writer.stringId(0, e.card);
        cardIds.put(e.card, card);
        return writer.append(writer.row().eventId(e.id).eventTime(e.time).setString(0, card).setLong(1, e.cents).setLong(2, e.qty));
    }
}
