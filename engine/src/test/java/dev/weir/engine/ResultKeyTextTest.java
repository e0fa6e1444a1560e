package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.emit.WindowResult;
import dev.weir.engine.fired.FiredResult;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.EventRow;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A result listener reads the key as text, each key column, and the sum at the value's scale, with no dictionary
 * plumbing; for a key already seen, through the flyweights, without allocating (measured with the thread's
 * allocated-bytes counter around the listener's reading of each result).
 */
class ResultKeyTextTest
{
    private static final JournalSchema PAYMENTS = JournalSchema.parse("card:string,shop:string,till:decimal(1),amount:decimal(2)");

    @TempDir
    Path dir;

    @Test
    void resultsGiveTheKeyAsTextEachKeyColumnAndDecimalSums()
    {
        final Path journal = dir.resolve("payments");
        try (EventJournal writer = EventJournal.openOrCreate(journal, PAYMENTS))
        {
            append(writer, 0, 1_000, "card-1", "Smith, Jones", 25, 1250);
            append(writer, 1, 2_000, "card-1", "Smith, Jones", 25, -5);
            append(writer, 2, 3_000, "card-2", "Kiosk", -5, 700);
            append(writer, 3, 20_000, "card-2", "Kiosk", -5, 1);
            append(writer, 4, 1_500, "card-2", "Kiosk", -5, 99); // late: its window fired at 20,000
        }
        final List<String> rows = new ArrayList<>();
        Weir.pipeline().journal(journal).keyColumns("shop", "till").valueColumn("amount").window(TumblingWindows.of(10_000))
            .latePolicy(LatePolicy.SIDE)
            .onResult(r -> rows.add(r.key() + " | " + r.keyColumn(0) + " | " + r.keyColumn("till") + " | " + r.keyColumnName(1) + " | "
                + r.scale() + " | " + r.sumText() + " | " + r.decimalSum() + " | " + r.decimalMin() + " | " + r.decimalMax()))
            .onLate(e -> rows.add("late " + e.key() + " | " + e.keyColumn(1) + " | " + e.appendValue(new StringBuilder()) + " | " + e.decimalValue()))
            .build()
            .runToEnd();
        assertEquals(List.of(
            "\"Smith, Jones\",2.5 | Smith, Jones | 2.5 | till | 2 | 12.45 | 12.45 | -0.05 | 12.50",
            "Kiosk,-0.5 | Kiosk | -0.5 | till | 2 | 7.00 | 7.00 | 7.00 | 7.00",
            "late Kiosk,-0.5 | -0.5 | 0.99 | 0.99",
            "Kiosk,-0.5 | Kiosk | -0.5 | till | 2 | 0.01 | 0.01 | 0.01 | 0.01"), rows);

        final List<String> cards = new ArrayList<>();
        Weir.pipeline().journal(journal).pipeline("by-card").keyColumn("card").valueColumn("amount").window(TumblingWindows.of(10_000))
            .onResult(r -> cards.add(r.key() + " " + r.appendSum(new StringBuilder())))
            .build()
            .runToEnd();
        assertEquals(List.of("card-1 12.45", "card-2 7.00", "card-2 0.01"), cards);
    }

    @Test
    void aKeyColumnThatIsNotThereIsNamed()
    {
        final Path journal = dir.resolve("payments");
        try (EventJournal writer = EventJournal.openOrCreate(journal, PAYMENTS))
        {
            append(writer, 0, 1_000, "card-1", "Kiosk", 1, 100);
        }
        final List<RuntimeException> thrown = new ArrayList<>();
        Weir.pipeline().journal(journal).keyColumn("card").valueColumn("amount").window(TumblingWindows.of(10_000))
            .onResult(r -> thrown.add(assertThrows(IllegalArgumentException.class, () -> r.keyColumn("shop"))))
            .build()
            .runToEnd();
        assertEquals(1, thrown.size());
        assertEquals("no key column 'shop': the key is card", thrown.get(0).getMessage());
        assertThrows(IllegalStateException.class, () -> new WindowResult(new FiredResult()).key());
    }

    @Test
    void theKeyTextAndSumOfAKnownKeyAllocateNothing()
    {
        final Path journal = dir.resolve("payments");
        final int keys = 200;
        try (EventJournal writer = EventJournal.openOrCreate(journal, PAYMENTS))
        {
            for (int i = 0; i < 40_000; i++)
            {
                append(writer, i, 1_000L * i, "card-" + i % keys, "shop " + i % 7, i % 13 - 6, i * 7L - 1_000);
            }
        }
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        for (final String[] key : new String[][] {{"card"}, {"card", "shop", "till"}})
        {
            final boolean[] seen = new boolean[64 * 1024];
            final StringBuilder line = new StringBuilder(256);
            final long[] measured = new long[3]; // bytes, results measured, results that allocated anything
            Weir.pipeline().journal(journal).pipeline("by-" + key.length).keyColumns(key).valueColumn("amount")
                .window(TumblingWindows.of(10_000))
                .onResult(r ->
                {
                    final boolean known = seen[r.keyId()];
                    seen[r.keyId()] = true; // the first result of a key may read its definition (the first of all, the dictionaries)
                    final long before = threads.getCurrentThreadAllocatedBytes();
                    line.setLength(0);
                    line.append(r.key()).append(',').append(r.keyColumn(0)).append(',').append(r.keyColumn("card")).append(',');
                    r.appendSum(line).append(',').append(r.sumText());
                    if (known)
                    {
                        final long bytes = threads.getCurrentThreadAllocatedBytes() - before;
                        measured[0] += bytes;
                        measured[1]++;
                        measured[2] += bytes == 0 ? 0 : 1;
                    }
                })
                .build()
                .runToEnd();
            assertTrue(measured[1] > 1_000, "results of known keys measured: " + measured[1]);
            // An allocation per result would be 16 bytes or more each. What is not per result can show once or twice:
            // compiled code that deoptimizes puts back on the heap the objects escape analysis had removed.
            assertTrue(measured[0] < measured[1] && measured[2] <= 3, measured[0] + " bytes allocated by the key text and sum of " + measured[1]
                + " results keyed by " + String.join(",", key) + ", by " + measured[2] + " of them");
        }
    }

    private static void append(final EventJournal writer, final long id, final long time, final String card, final String shop,
        final long till, final long amount)
    {
        final EventRow row = writer.row().eventId(id).eventTime(time).setString(0, writer.stringId(0, card))
            .setString(1, writer.stringId(1, shop)).setLong(2, till).setLong(3, amount);
        writer.append(row);
    }

    @Test
    void decimalTextIsBigDecimalsPlainText()
    {
        final List<String> rows = new ArrayList<>();
        final Path journal = dir.resolve("payments");
        final long[] amounts = {0, 1, -1, 9, 10, 99, 100, -100, 123_456, -123_456, Long.MAX_VALUE, Long.MIN_VALUE + 1};
        try (EventJournal writer = EventJournal.openOrCreate(journal, PAYMENTS))
        {
            for (int i = 0; i < amounts.length; i++)
            {
                append(writer, i, 10_000L * i, "card-1", "Kiosk", 1, amounts[i]);
            }
        }
        Weir.pipeline().journal(journal).keyColumn("card").valueColumn("amount").window(TumblingWindows.of(10_000))
            .onResult(r -> rows.add(r.sumText() + "=" + r.decimalSum().toPlainString()))
            .build()
            .runToEnd();
        assertEquals(amounts.length, rows.size());
        for (int i = 0; i < amounts.length; i++)
        {
            assertEquals(BigDecimal.valueOf(amounts[i], 2).toPlainString() + "=" + BigDecimal.valueOf(amounts[i], 2).toPlainString(), rows.get(i));
        }
    }
}
