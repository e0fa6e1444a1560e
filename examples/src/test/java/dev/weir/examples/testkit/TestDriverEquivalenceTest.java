package dev.weir.examples.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;

import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.Weir;
import dev.weir.engine.emit.WindowResult;
import dev.weir.engine.expr.ColumnProjection;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.EventRow;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.KeyTupleReader;
import dev.weir.journal.StringDictionaries;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.test.TestLateEvent;
import dev.weir.test.TestResult;
import dev.weir.test.WeirTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test kit's driver gives exactly the rows of the real engine: a seeded stream (out of order, late events,
 * duplicate ids, heartbeats) is appended to a journal and run through a bounded {@code Pipeline}, and given to a
 * {@link WeirTestDriver}, under several configurations (tumbling, sliding, session, a filter, a value expression,
 * a composite key, updates, an early condition, late side output, dedupe); every result row and late event,
 * its source offset included (journal offsets mapped to the driver's 0, 1, 2, ...), is the same.
 */
class TestDriverEquivalenceTest
{
    private static final String COLUMNS = "card:string,region:string,amount:decimal(2),fee:decimal(2),status:string";
    private static final String[] REGIONS = {"eu", "us", "apac"};
    private static final String[] STATUSES = {"ok", "ok", "ok", "declined"};
    private static final int EVENTS = 4_000;

    @TempDir
    Path dir;

    /** One generated document: an event's values as text, or a heartbeat ({@code values} null). */
    private record Doc(long eventId, long eventTime, String[] values)
    {
    }

    @Test
    void driverRowsEqualThePipelinesRows()
    {
        final List<Doc> docs = stream(17);
        final Path journal = dir.resolve("journal");
        final long[] offsets = append(journal, docs);
        final List<Supplier<PipelineBuilder>> configs = List.of(
            () -> Weir.pipeline().keyColumn("card").valueColumn("amount").window(TumblingWindows.of(10_000)).outOfOrderness(2_000)
                .allowedLateness(1_000).latePolicy(LatePolicy.SIDE).where("status = 'ok'"),
            () -> Weir.pipeline().keyColumn("card").value("amount - fee").window(SlidingWindows.of(30_000, 10_000)).outOfOrderness(1_000)
                .emitUpdates(true),
            () -> Weir.pipeline().keyColumns("card", "region").valueColumn("amount").window(SessionWindows.withGap(5_000)).outOfOrderness(1_500)
                .earlyWhen("count>=3").latePolicy(LatePolicy.SIDE),
            () -> Weir.pipeline().keyColumns("region", "amount").valueColumn("fee").window(TumblingWindows.of(20_000)).dedupe(true)
                .where("region in ('eu', 'apac') and amount > 10.00").earlyWhen("sum >= 5.00"));
        int name = 0;
        for (final Supplier<PipelineBuilder> config : configs)
        {
            final List<String> engineRows = new ArrayList<>();
            final List<String> engineLate = new ArrayList<>();
            final PipelineBuilder builder = config.get();
            final ColumnProjection projection = builder.concludeFor(JournalSchema.parse(COLUMNS)).projection();
            final JournalDirectory directory = JournalDirectory.open(journal);
            try (StringDictionaries events = StringDictionaries.open(directory);
                 KeyTupleReader tuples = projection.keysByTuple() ? KeyTupleReader.open(directory, projection.keyColumns()) : null)
            {
                final KeyNames keys = new KeyNames(events, tuples, projection);
                builder.journal(journal).pipeline("p" + name++).replayRange(-1, Long.MAX_VALUE)
                    .onResult(r -> engineRows.add(row(r, keys.of(r.keyId()), offsets)))
                    .onLate(e -> engineLate.add("LATE " + keys.of(e.keyId()) + " id=" + e.eventId() + " t=" + e.eventTime() + " v=" + e.value()
                        + " @" + Arrays.binarySearch(offsets, e.offset())))
                    .build().runToEnd();
            }
            final WeirTestDriver driver = WeirTestDriver.create(config.get(), COLUMNS);
            for (final Doc d : docs)
            {
                if (d.values == null)
                {
                    driver.heartbeat(d.eventTime);
                }
                else
                {
                    driver.eventWithId(d.eventId, d.eventTime, d.values);
                }
            }
            driver.end();
            final List<String> driverRows = new ArrayList<>();
            for (final TestResult r : driver.readResults())
            {
                driverRows.add(r.kind() + " " + r.key() + " [" + r.windowStart() + "," + r.windowEnd() + ") n=" + r.count() + " sum=" + r.sum()
                    + " min=" + r.min() + " max=" + r.max() + " v" + r.version() + " " + r.aggregates() + " @" + r.sourceOffset());
            }
            final List<String> driverLate = new ArrayList<>();
            for (final TestLateEvent e : driver.readLateEvents())
            {
                driverLate.add("LATE " + e.key() + " id=" + e.eventId() + " t=" + e.eventTime() + " v=" + e.value() + " @" + e.offset());
            }
            assertTrue(engineRows.size() > 100, "configuration " + (name - 1) + " emits rows: " + engineRows.size());
            assertSameRows(engineRows, driverRows, "configuration " + (name - 1) + " results");
            assertSameRows(engineLate, driverLate, "configuration " + (name - 1) + " late events");
            if (name == 1 || name == 3)
            {
                assertTrue(engineLate.size() > 5, "configuration " + (name - 1) + " side-outputs late events: " + engineLate.size());
            }
        }
    }

    /** Equal lists, or a failure naming the first row that differs (the lists are long). */
    private static void assertSameRows(final List<String> engine, final List<String> driver, final String what)
    {
        for (int i = 0; i < Math.min(engine.size(), driver.size()); i++)
        {
            assertEquals(engine.get(i), driver.get(i), what + ": row " + i + " of " + engine.size());
        }
        assertEquals(engine.size(), driver.size(), what + ": rows");
    }

    private static String row(final WindowResult r, final String key, final long[] offsets)
    {
        final List<Long> aggregates = new ArrayList<>();
        for (int i = 0; i < r.aggregateCount(); i++)
        {
            aggregates.add(r.aggregate(i));
        }
        return r.kind() + " " + key + " [" + r.windowStart() + "," + r.windowEnd() + ") n=" + r.count() + " sum=" + r.sum() + " min=" + r.min()
            + " max=" + r.max() + " v" + r.version() + " " + aggregates + " @" + Arrays.binarySearch(offsets, r.sourceOffset());
    }

    /** A key id of the engine's, as text: the key columns' values joined by commas (no value here needs quoting). */
    private static final class KeyNames
    {
        private final StringDictionaries events;
        private final KeyTupleReader tuples;
        private final JournalSchema schema;
        private final int[] columns;

        KeyNames(final StringDictionaries events, final KeyTupleReader tuples, final ColumnProjection projection)
        {
            this.events = events;
            this.tuples = tuples;
            this.schema = projection.schema();
            this.columns = projection.keyColumns();
        }

        String of(final int keyId)
        {
            if (tuples == null)
            {
                return events.dictionary(columns[0]).name(keyId);
            }
            final StringBuilder b = new StringBuilder();
            for (int i = 0; i < columns.length; i++)
            {
                final long c = tuples.component(keyId, i);
                final JournalSchema.Column column = schema.column(columns[i]);
                b.append(i == 0 ? "" : ",").append(column.type() == ColumnType.STRING ? events.dictionary(columns[i]).name((int)c)
                    : column.scale() == 0 ? Long.toString(c) : java.math.BigDecimal.valueOf(c, column.scale()).toPlainString());
            }
            return b.toString();
        }
    }

    /** A seeded stream: time advancing 100 ms an event with jitter up to 4 s back, a few repeated ids, a heartbeat now and then. */
    private static List<Doc> stream(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<Doc> docs = new ArrayList<>();
        long time = 0;
        for (int i = 0; i < EVENTS; i++)
        {
            time += random.nextInt(200);
            if (random.nextInt(40) == 0)
            {
                docs.add(new Doc(-1, time + random.nextInt(20_000), null)); // a heartbeat, possibly far ahead
                continue;
            }
            final long eventTime = Math.max(0, time - (random.nextInt(10) == 0 ? random.nextInt(4_000) : 0));
            final long eventId = random.nextInt(30) == 0 && i > 0 ? i - 1 - random.nextInt(Math.min(i, 50)) : i;
            final String[] values = {
                "c" + random.nextInt(25),
                REGIONS[random.nextInt(REGIONS.length)],
                random.nextInt(5_000) + "." + (random.nextInt(90) + 10),
                "0." + (random.nextInt(90) + 10),
                STATUSES[random.nextInt(STATUSES.length)]};
            docs.add(new Doc(eventId, eventTime, values));
        }
        return docs;
    }

    /** Append the documents; the values' text is parsed here as simply as the generator writes it. @return each one's journal offset. */
    private static long[] append(final Path journal, final List<Doc> docs)
    {
        final long[] offsets = new long[docs.size()];
        try (EventJournal events = EventJournal.openOrCreate(journal, JournalSchema.parse(COLUMNS)))
        {
            final EventRow row = events.row();
            for (int i = 0; i < docs.size(); i++)
            {
                final Doc d = docs.get(i);
                if (d.values == null)
                {
                    offsets[i] = events.appendHeartbeat(d.eventTime);
                    continue;
                }
                row.eventId(d.eventId).eventTime(d.eventTime).setString(0, events.stringId(0, d.values[0])).setString(1, events.stringId(1, d.values[1]))
                    .setLong(2, new java.math.BigDecimal(d.values[2]).movePointRight(2).longValueExact())
                    .setLong(3, new java.math.BigDecimal(d.values[3]).movePointRight(2).longValueExact()).setString(4, events.stringId(4, d.values[4]));
                offsets[i] = events.append(row);
            }
        }
        for (int i = 1; i < offsets.length; i++)
        {
            assertTrue(offsets[i] > offsets[i - 1], "offsets increase");
        }
        return offsets;
    }
}
