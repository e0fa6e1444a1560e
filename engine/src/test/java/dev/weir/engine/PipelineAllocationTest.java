package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.aggregate.ApproxDistinct;
import dev.weir.engine.aggregate.Average;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.EventRow;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.TableAppender;
import dev.weir.journal.TableRow;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default pipeline's threads (the journal publisher, unless inline, and the fused stage, which also
 * writes the output journal and snapshots checkpoints) allocate nothing per event in steady state:
 * measured with the threads' allocated-bytes counters over a million events (which include the
 * checkpoint at the 2,000,000th event), after a million and a half of warm-up.
 */
@Tag("slow")
class PipelineAllocationTest
{
    private static final int EVENTS = 3_000_000;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = PipelineLayout.class, names = {"FUSED", "INLINE"})
    void pipelineThreadsAllocateNothingPerEvent(final PipelineLayout layout) throws Exception
    {
        final Path journal = dir.resolve("journal");
        final long[] offsets = new long[EVENTS];
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            final SplittableRandom random = new SplittableRandom(1);
            final int[] keys = new int[1_000];
            for (int k = 0; k < keys.length; k++)
            {
                keys[k] = writer.keyId("k" + k);
            }
            for (int i = 0; i < EVENTS; i++)
            {
                offsets[i] = writer.append(i, 1_000_000L + i / 10 - random.nextInt(100), keys[random.nextInt(keys.length)], i);
            }
        }
        assertNoAllocationPerEvent(Weir.pipeline().journal(journal), layout, offsets);
    }

    /** An update row per event, held and written several to a {@code RESULT_BATCH} document (a journal of marker version 5). */
    @ParameterizedTest
    @EnumSource(value = PipelineLayout.class, names = {"FUSED", "INLINE"})
    void aPipelineWritingBatchedOutputDocumentsAllocatesNothingPerEvent(final PipelineLayout layout) throws Exception
    {
        final Path journal = BatchedOutputsPipelineTest.batched(dir.resolve("batched"));
        final long[] offsets = new long[EVENTS];
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            final SplittableRandom random = new SplittableRandom(1);
            final int[] keys = new int[1_000];
            for (int k = 0; k < keys.length; k++)
            {
                keys[k] = writer.keyId("k" + k);
            }
            for (int i = 0; i < EVENTS; i++)
            {
                writer.append(i, 1_000_000L + i / 10 - random.nextInt(100), keys[random.nextInt(keys.length)], i);
            }
        }
        // the offsets as the pipeline's reader reports them
        final int[] read = {0};
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal)))
        {
            while (reader.poll((offset, id, time, key, value) -> offsets[read[0]++] = offset, 65_536) > 0)
            {
                // every event
            }
        }
        assertEquals(EVENTS, read[0]);
        assertNoAllocationPerEvent(Weir.pipeline().journal(journal).emitUpdates(true), layout, offsets);
    }

    @ParameterizedTest
    @EnumSource(value = PipelineLayout.class, names = {"FUSED", "INLINE"})
    void aPipelineWithUpdatesAndEarlyRowsAllocatesNothingPerEvent(final PipelineLayout layout) throws Exception
    {
        final Path journal = dir.resolve("payments");
        final long[] offsets = payments(journal);
        // an update row per event and an early row per window, all through the output journal
        assertNoAllocationPerEvent(Weir.pipeline().journal(journal).keyColumn("merchant").valueColumn("amount")
            .emitUpdates(true).earlyWhen("sum>=15000000.00 or count>2"), layout, offsets);
    }

    @Test
    void aPipelineKeyedByOneOrTwoColumnsOfASixColumnJournalAllocatesNothingPerEvent() throws Exception
    {
        final Path journal = dir.resolve("payments");
        final long[] offsets = payments(journal);
        assertNoAllocationPerEvent(Weir.pipeline().journal(journal).keyColumn("merchant").valueColumn("amount"), PipelineLayout.FUSED, offsets);
        // a composite key: each event's tuple is looked up in the publisher's KeyTuples
        assertNoAllocationPerEvent(Weir.pipeline().journal(journal).pipeline("by-place").keyColumns("merchant", "country").valueColumn("amount"),
            PipelineLayout.FUSED, offsets);
    }

    @ParameterizedTest
    @EnumSource(value = PipelineLayout.class, names = {"FUSED", "INLINE"})
    void twoAggregationsOneReadingTheColumnsOfASixColumnJournalAllocateNothingPerEvent(final PipelineLayout layout) throws Exception
    {
        final Path journal = dir.resolve("payments");
        final long[] offsets = payments(journal);
        assertNoAllocationPerEvent(Weir.pipeline().journal(journal).keyColumn("card").valueColumn("amount")
            .aggregates(new Average(), ApproxDistinct.of("merchant")), layout, offsets);
    }

    @ParameterizedTest
    @EnumSource(value = PipelineLayout.class, names = {"FUSED", "INLINE"})
    void tenNamedAggregatesAllocateNothingPerEvent(final PipelineLayout layout) throws Exception
    {
        final Path journal = dir.resolve("payments");
        final long[] offsets = payments(journal);
        // every function, a filter with a string literal, a result expression: inputs per event, state per window
        assertNoAllocationPerEvent(Weir.pipeline().journal(journal).keyColumn("merchant").aggregates("n=count(),total=sum(amount),"
            + "lo=min(amount),hi=max(amount),open=first(amount),close=last(amount),mean=avg(amount - fee),"
            + "fees=sum(fee) filter (where channel = 'online'),countries=approx_distinct(country),net=total-fees"), layout, offsets);
    }

    @ParameterizedTest
    @EnumSource(value = PipelineLayout.class, names = {"FUSED", "INLINE"})
    void aThreeClauseFilterAndAComputedValueAllocateNothingPerEvent(final PipelineLayout layout) throws Exception
    {
        final Path journal = dir.resolve("payments");
        final long[] offsets = payments(journal);
        // a filter from text, its string literals resolved through the journal's dictionaries ('DE' never appears)
        assertNoAllocationPerEvent(Weir.pipeline().journal(journal).keyColumn("merchant")
            .where("channel = 'online' and country in ('FR', 'DE') and amount > 10.00").value("amount - fee"), layout, offsets);
        // a filter written in Java that rejects a third of the events: they reach the stages as filtered slots
        assertNoAllocationPerEvent(Weir.pipeline().journal(journal).pipeline("thirds").keyColumn("merchant")
            .where(event -> event.longColumn(3) % 3 != 0, "amount%3!=0").value("amount - fee"), layout, offsets);
    }

    @Test
    void aJournalThatGainedAColumnAllocatesNothingPerEvent() throws Exception
    {
        final Path journal = dir.resolve("payments");
        final long[] offsets = payments(journal, true);
        // half the events were appended before the journal gained its channel column: they read its default
        assertNoAllocationPerEvent(Weir.pipeline().journal(journal).keyColumns("merchant", "channel")
            .where("channel = 'online' and amount > 10.00").value("amount - fee"), PipelineLayout.FUSED, offsets);
    }

    @ParameterizedTest
    @EnumSource(value = PipelineLayout.class, names = {"FUSED", "INLINE"})
    void oneAndTwoJoinsAllocateNothingPerEvent(final PipelineLayout layout) throws Exception
    {
        final Path journal = dir.resolve("payments");
        final long[] offsets = paymentsWithTables(journal);
        // each event looked up in the merchants table (a string key, through the id cache), a row of it every 1,000 events
        assertNoAllocationPerEvent(Weir.pipeline().journal(journal).keyColumn("merchant").valueColumn("amount")
            .join("merchants").where("merchants.risk < 5"), layout, offsets);
        // and in the fx table (a second string key), with a table string column compared with a literal
        assertNoAllocationPerEvent(Weir.pipeline().journal(journal).pipeline("two-joins").keyColumn("merchant").valueColumn("amount")
            .join("merchants").join("fx").where("merchants.risk < 5 and (merchants.tier = 'gold' or fx.rate > 1.0000)"), layout, offsets);
    }

    /**
     * The payments journal with two tables, merchants (a row of each of the 1,000 merchants first, then a new version of
     * one every 1,000 events, valid from that event's time) and fx (a rate for FR, renewed every 100,000 events).
     */
    private static long[] paymentsWithTables(final Path journal)
    {
        final long[] offsets = new long[EVENTS];
        final JournalSchema payments = JournalSchema.parse("card:string,merchant:string,country:string,amount:decimal(2),fee:long,channel:string");
        final TableDefinition merchants = TableDefinition.parse("merchants", "merchant", "merchant:string,risk:long,tier:string");
        final TableDefinition fx = TableDefinition.parse("fx", "country", "country:string,rate:decimal(4)");
        JournalDirectory.openOrCreateForTable(journal, merchants, dev.weir.journal.JournalRollCycle.DEFAULT);
        JournalDirectory.openOrCreateForTable(journal, fx, dev.weir.journal.JournalRollCycle.DEFAULT);
        try (EventJournal writer = EventJournal.openOrCreate(journal, payments))
        {
            final SplittableRandom random = new SplittableRandom(1);
            final TableAppender merchantRows = writer.table("merchants");
            final TableAppender fxRows = writer.table("fx");
            final TableRow merchant = merchantRows.row();
            final TableRow rate = fxRows.row();
            final String[] names = new String[1_000];
            final int[] ids = new int[names.length];
            for (int k = 0; k < names.length; k++)
            {
                names[k] = "merchant " + k;
                ids[k] = writer.stringId(1, names[k]);
                merchantRows.upsert(merchant.clear().validFrom(0).setString(0, names[k]).setLong(1, k % 10).setString(2, k % 3 == 0 ? "gold" : "plain"));
            }
            final int card = writer.stringId(0, "card-1");
            final int country = writer.stringId(2, "FR");
            final int channel = writer.stringId(5, "online");
            final EventRow row = writer.row();
            for (int i = 0; i < EVENTS; i++)
            {
                final long time = 1_000_000L + i / 10 - random.nextInt(100);
                if (i % 100_000 == 0)
                {
                    fxRows.upsert(rate.clear().validFrom(time).setString(0, "FR").setLong(1, 10_000 + i / 100_000));
                }
                if (i % 1_000 == 999)
                {
                    final int k = random.nextInt(names.length);
                    merchantRows.upsert(merchant.clear().validFrom(time).setString(0, names[k]).setLong(1, random.nextInt(10))
                        .setString(2, k % 3 == 0 ? "gold" : "plain"));
                }
                row.eventId(i).eventTime(time).setString(0, card).setString(1, ids[random.nextInt(ids.length)]).setString(2, country)
                    .setLong(3, i).setLong(4, 30).setString(5, channel);
                offsets[i] = writer.append(row);
            }
        }
        return offsets;
    }

    private static long[] payments(final Path journal) throws Exception
    {
        return payments(journal, false);
    }

    /**
     * Write the payments journal: six columns, keyed by merchant (1,000) or card (one); return the events' offsets.
     *
     * @param gainsChannel true to create it without its last column, {@code channel}, and add it (default {@code online})
     *                     half way.
     */
    private static long[] payments(final Path journal, final boolean gainsChannel) throws Exception
    {
        final long[] offsets = new long[EVENTS];
        final JournalSchema payments = JournalSchema.parse("card:string,merchant:string,country:string,amount:decimal(2),fee:long,channel:string");
        JournalDirectory.create(journal, gainsChannel
            ? JournalSchema.parse("card:string,merchant:string,country:string,amount:decimal(2),fee:long") : payments);
        final int before = gainsChannel ? EVENTS / 2 : 0;
        if (gainsChannel)
        {
            try (EventJournal writer = EventJournal.openOrCreate(journal))
            {
                final SplittableRandom random = new SplittableRandom(1);
                final int card = writer.stringId(0, "card-1");
                final int country = writer.stringId(2, "FR");
                final EventRow row = writer.row();
                for (int i = 0; i < before; i++)
                {
                    row.eventId(i).eventTime(1_000_000L + i / 10 - random.nextInt(100)).setString(0, card)
                        .setString(1, writer.stringId(1, "merchant " + random.nextInt(1_000))).setString(2, country).setLong(3, i).setLong(4, 30);
                    offsets[i] = writer.append(row);
                }
            }
            JournalDirectory.openOrCreate(journal, JournalSchema.parse(payments + "=online"));
        }
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            final SplittableRandom random = new SplittableRandom(1);
            final int[] merchants = new int[1_000];
            for (int k = 0; k < merchants.length; k++)
            {
                merchants[k] = writer.stringId(1, "merchant " + k);
            }
            final int card = writer.stringId(0, "card-1");
            final int country = writer.stringId(2, "FR");
            final int channel = writer.stringId(5, "online");
            final EventRow row = writer.row();
            for (int i = before; i < EVENTS; i++)
            {
                row.eventId(i).eventTime(1_000_000L + i / 10 - random.nextInt(100)).setString(0, card)
                    .setString(1, merchants[random.nextInt(merchants.length)]).setString(2, country).setLong(3, i).setLong(4, 30)
                    .setString(5, channel);
                offsets[i] = writer.append(row);
            }
        }
        return offsets;
    }

    private static void assertNoAllocationPerEvent(final PipelineBuilder builder, final PipelineLayout layout, final long[] offsets)
        throws Exception
    {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final Pipeline pipeline = builder.window(TumblingWindows.of(1_000)).outOfOrderness(200)
            .initialWindows(1 << 14).layout(layout).build().start();
        try
        {
            assertTrue(pipeline.awaitOffset(offsets[1_500_000], 120, TimeUnit.SECONDS));
            final long[] ids = pipelineThreads();
            assertEquals(layout == PipelineLayout.INLINE ? 1 : 2, ids.length, "the publisher (unless inline) and the fused stage");
            // Four windows of 300,000 events each. An allocation per event would show in every one of them
            // (300,000 events at even 16 bytes is 4.8 MB). What is not per event shows in some: Chronicle Queue
            // allocates a few objects when it maps the next chunk of a queue file, a checkpoint a view of its
            // buffer, and code the JIT has not compiled yet (later on a loaded machine) allocates what escape
            // analysis removes once it is. So the quietest window must allocate almost nothing.
            // A window counts only if the pipeline processed at least 100,000 events in it (a test thread that
            // was not scheduled for a while could see a later window hold none).
            final long[] windows = new long[4];
            final long[] events = new long[4];
            long before = allocated(threads, ids);
            long processed = pipeline.processedEvents();
            for (int w = 0; w < windows.length; w++)
            {
                assertTrue(pipeline.awaitOffset(offsets[1_800_000 + 300_000 * w], 120, TimeUnit.SECONDS));
                final long now = allocated(threads, ids);
                final long nowProcessed = pipeline.processedEvents();
                windows[w] = now - before;
                events[w] = nowProcessed - processed;
                before = now;
                processed = nowProcessed;
            }
            long quietest = Long.MAX_VALUE;
            for (int w = 0; w < windows.length; w++)
            {
                quietest = events[w] >= 100_000 ? Math.min(quietest, windows[w]) : quietest;
            }
            assertTrue(quietest < 10_000, "bytes allocated by the pipeline threads in four windows: "
                + java.util.Arrays.toString(windows) + " over " + java.util.Arrays.toString(events) + " events");
        }
        finally
        {
            pipeline.stop();
        }
    }

    private static long[] pipelineThreads()
    {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith("weir-") && (t.getName().endsWith("-publisher") || t.getName().contains("-stage-")))
            .mapToLong(Thread::getId)
            .toArray();
    }

    private static long allocated(final com.sun.management.ThreadMXBean threads, final long[] ids)
    {
        long total = 0;
        for (final long bytes : threads.getThreadAllocatedBytes(ids))
        {
            total += bytes;
        }
        return total;
    }
}
