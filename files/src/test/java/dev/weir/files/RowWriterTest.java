package dev.weir.files;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import dev.weir.engine.fired.FiredResult;
import dev.weir.engine.fired.SkippedEvent;
import dev.weir.journal.codec.ResultKind;
import dev.weir.journal.files.TextBytes;
import org.junit.jupiter.api.Test;

/**
 * The byte writer of rows writes exactly the text of {@link ResultRow} (the reference, which the golden
 * files were made with), line end included: on seeded random rows with hostile keys (commas, quotes, line
 * breaks, control characters, backslashes, non-ASCII, an unpaired surrogate), composite keys with number
 * columns, decimal scales, negative numbers, {@link Long#MIN_VALUE}, update and early kinds, several
 * aggregates, named aggregates with empty values, runs of rows of one window, instants as ISO-8601 text, through
 * buffers small enough to drain mid-row.
 * And ISO-8601 instants are the text of {@link Instant#toString()}.
 */
class RowWriterTest
{
    private static final String[] TEXTS = {
        "card-1", "a,b", "say \"hi\"", "line\nbreak", "cr\rlf", "Café \"Le Bon\", Paris", "tab\tand\u0001ctl", "back\\slash",
        "日本語", "emoji \uD83D\uDE00", "lone \uD800 surrogate", "", " ", "\"", ",", "x".repeat(300)};

    private static final long[] EDGES = {0, 1, -1, 9, 10, -10, 99, 100, 1234, -5, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1,
        999_999_999_999_999_999L, 1_000_000_000_000_000_000L, Integer.MIN_VALUE, Integer.MAX_VALUE};

    /** A key of a string column and a decimal column, ids 0 .. TEXTS.length - 1. */
    private static final KeyColumns COMPOSITE = new KeyColumns()
    {
        @Override
        public int arity()
        {
            return 3;
        }

        @Override
        public String name(final int index)
        {
            return new String[] {"merchant", "amount", "terminal"}[index];
        }

        @Override
        public boolean isString(final int index)
        {
            return index != 1;
        }

        @Override
        public String text(final int keyId, final int index)
        {
            return index == 1 ? BigDecimal.valueOf(EDGES[keyId % EDGES.length], 2).toPlainString() : TEXTS[(keyId + index) % TEXTS.length];
        }
    };

    @Test
    void writesTheBytesOfTheTextOnSeededRows()
    {
        for (final int scale : new int[] {0, 1, 2, 6, 18})
        {
            for (final int capacity : new int[] {64, 100, 4096, TextBytes.DEFAULT_CAPACITY})
            {
                check(new ResultRow(KeyColumns.single("key", id -> TEXTS[id % TEXTS.length]), "value", scale, false, 0), scale, capacity);
                check(new ResultRow(KeyColumns.single("k", id -> TEXTS[id % TEXTS.length]), "v", scale, true, scale).withKinds(), scale, capacity);
                check(new ResultRow(COMPOSITE, "amount", scale, new String[] {"mean", "distinct", "p\u00e9"}, new int[] {scale, 0, 3}),
                    scale, capacity);
                check(new ResultRow(COMPOSITE, "amount", scale, new String[] {"mean", "distinct"}, new int[] {scale, 0}).withKinds(),
                    scale, capacity);
                check(new ResultRow(KeyColumns.single("key", id -> TEXTS[id % TEXTS.length]), "value", scale, false, 0).withIsoTimes(), scale,
                    capacity);
                check(new ResultRow(COMPOSITE, "amount", scale, new String[] {"mean"}, new int[] {scale}).withKinds().withIsoTimes(), scale,
                    capacity);
                check(ResultRow.named(COMPOSITE, new String[] {"open", "volume", "vwap", "p\u00e9"}, new int[] {scale, 0, 6, 18}), scale, capacity);
                check(ResultRow.named(KeyColumns.single("k", id -> TEXTS[id % TEXTS.length]), new String[] {"total"}, new int[] {scale})
                    .withKinds().withIsoTimes(), scale, capacity);
            }
        }
    }

    @Test
    void isoTimesAreTheTextOfInstant()
    {
        final long first = Instant.parse("0000-01-01T00:00:00Z").toEpochMilli();
        final long last = Instant.parse("9999-12-31T23:59:59.999Z").toEpochMilli();
        final List<Long> times = new ArrayList<>(List.of(0L, 1L, -1L, 999L, 1_000L, -1_000L, -1_001L, first, first - 1, first + 1, last, last - 1,
            last + 1, Long.MIN_VALUE, Long.MAX_VALUE, Instant.parse("2000-02-29T23:59:59.999Z").toEpochMilli(),
            Instant.parse("2024-02-29T00:00:00Z").toEpochMilli(), Instant.parse("1900-03-01T00:00:00Z").toEpochMilli(),
            Instant.parse("2100-02-28T12:00:00.010Z").toEpochMilli(), Instant.parse("2026-12-02T09:30:00.250Z").toEpochMilli()));
        final Random random = new Random(18);
        for (int i = 0; i < 500_000; i++)
        {
            times.add(i % 2 == 0 ? first + (long)(random.nextDouble() * (last - first)) : 1_700_000_000_000L + random.nextInt() * 1_000L + random.nextInt(3));
        }
        final byte[] into = new byte[3 + IsoTimes.MAX_LENGTH];
        for (final long millis : times)
        {
            final int end = IsoTimes.write(millis, into, 3);
            assertEquals(Instant.ofEpochMilli(millis).toString(), new String(into, 3, end - 3, StandardCharsets.US_ASCII), () -> "" + millis);
        }
    }

    @Test
    void decimalsAndNumbersAreTheTextOfLongAndBigDecimal()
    {
        final Random random = new Random(18);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final TextBytes out = new TextBytes("test", 64);
        out.drainTo(Channels.newChannel(bytes));
        final StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 200_000; i++)
        {
            final long value = i < EDGES.length * 20 ? EDGES[i % EDGES.length] : random.nextLong() >> random.nextInt(64);
            final int scale = i % 20;
            out.number(value).put((byte)' ').scaled(value, scale).put((byte)'\n');
            expected.append(value).append(' ').append(BigDecimal.valueOf(value, scale).toPlainString()).append('\n');
        }
        out.flush();
        assertEquals(expected.toString(), bytes.toString(StandardCharsets.US_ASCII));
    }

    private static void check(final ResultRow format, final int scale, final int capacity)
    {
        final Random random = new Random(scale * 31L + capacity);
        final ByteArrayOutputStream csv = new ByteArrayOutputStream();
        final ByteArrayOutputStream json = new ByteArrayOutputStream();
        final ByteArrayOutputStream late = new ByteArrayOutputStream();
        final TextBytes csvOut = new TextBytes("csv", capacity);
        final TextBytes jsonOut = new TextBytes("json", capacity);
        final TextBytes lateOut = new TextBytes("late", capacity);
        csvOut.drainTo(Channels.newChannel(csv));
        jsonOut.drainTo(Channels.newChannel(json));
        lateOut.drainTo(Channels.newChannel(late));
        final StringBuilder csvText = new StringBuilder();
        final StringBuilder jsonText = new StringBuilder();
        final StringBuilder lateText = new StringBuilder();
        final RowWriter writer = format.writer();
        final FiredResult r = new FiredResult();
        final SkippedEvent e = new SkippedEvent();
        final ResultKind[] kinds = ResultKind.values();
        for (int i = 0; i < 3_000; i++)
        {
            final int window = random.nextInt(6); // else the window of the row before, as when a window fires for many keys
            if (i == 0 || window < 2)
            {
                r.window(number(random), number(random));
            }
            else if (window == 2)
            {
                r.window(r.windowStart(), number(random)); // the same start, another end (sessions)
            }
            r.keyId(random.nextInt(TEXTS.length * 3)).count(number(random)).sum(number(random))
                .min(number(random)).max(number(random)).version(random.nextInt(3) == 0 ? random.nextInt() & Integer.MAX_VALUE : random.nextInt(4))
                .kind(kinds[random.nextInt(kinds.length)]).sourceOffset(i);
            if (format.named())
            {
                r.withAggregates(format.storedAggregates());
                for (int a = 0; a < format.aggregates(); a++)
                {
                    r.withAggregate(a, number(random));
                }
                final int pick = random.nextInt(4);
                r.withAggregate(format.aggregates(), pick == 0 ? 0 : pick == 1 ? -1 : random.nextLong()); // the presence mask
            }
            else if (format.aggregates() == 1)
            {
                r.withAggregate(number(random));
            }
            else if (format.aggregates() > 1)
            {
                r.withAggregates(format.aggregates());
                for (int a = 0; a < format.aggregates(); a++)
                {
                    r.withAggregate(a, number(random));
                }
            }
            writer.csv(csvOut, r);
            csvText.append(format.csv(new StringBuilder(), r)).append('\n');
            writer.json(jsonOut, r);
            jsonText.append(format.json(new StringBuilder(), r)).append('\n');
            e.set(number(random), number(random), random.nextInt(TEXTS.length * 3), number(random), i);
            writer.late(lateOut, e);
            lateText.append(format.late(e)).append('\n');
        }
        csvOut.flush();
        jsonOut.flush();
        lateOut.flush();
        final String what = " at scale " + scale + " through a buffer of " + capacity + " bytes";
        assertBytes(csvText, csv, "CSV results" + what);
        assertBytes(jsonText, json, "JSON results" + what);
        assertBytes(lateText, late, "CSV late events" + what);
    }

    private static void assertBytes(final StringBuilder expected, final ByteArrayOutputStream actual, final String what)
    {
        final byte[] want = expected.toString().getBytes(StandardCharsets.UTF_8);
        final byte[] got = actual.toByteArray();
        int differ = 0;
        while (differ < Math.min(want.length, got.length) && want[differ] == got[differ])
        {
            differ++;
        }
        if (differ < want.length || want.length != got.length)
        {
            final int from = Math.max(0, differ - 80);
            assertEquals(new String(want, from, Math.min(want.length, differ + 80) - from, StandardCharsets.UTF_8),
                new String(got, from, Math.min(got.length, differ + 80) - from, StandardCharsets.UTF_8), what + ": bytes differ at " + differ);
        }
    }

    private static long number(final Random random)
    {
        final int pick = random.nextInt(4);
        return pick == 0 ? EDGES[random.nextInt(EDGES.length)] : pick == 1 ? random.nextInt(2_000) - 1_000 : random.nextLong() >> random.nextInt(64);
    }
}
