package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several pipelines on one journal: each has its own checkpoints, output journal and metrics file and
 * resumes from its own checkpoint, and each one's outputs equal those of its configuration run alone on
 * another journal holding the same events; following pipelines share one appender.
 */
class NamedPipelinesTest
{
    private static final JournalSchema SCHEMA = JournalSchema.parse("card:string,merchant:string,amount:long,fee:long");
    private static final String[] CARDS = cards("card-", 40);
    private static final String[] MERCHANTS = cards("m", 7);

    @TempDir
    Path dir;

    @Test
    void twoBoundedPipelinesOnOneJournalEachResumeFromTheirOwnCheckpoint() throws Exception
    {
        final List<long[]> events = events(12_000, 21);
        final Path shared = dir.resolve("shared");
        final Path aloneSpend = dir.resolve("alone-spend");
        final Path aloneFees = dir.resolve("alone-fees");
        final Path alonePairs = dir.resolve("alone-pairs");
        for (final Path journal : List.of(shared, aloneSpend, aloneFees, alonePairs))
        {
            append(journal, events, 0, 7_000);
        }

        final RunSummary spend1 = spend(shared, JournalDirectory.DEFAULT_PIPELINE).build().runToEnd();
        final RunSummary fees1 = fees(shared, "fees").build().runToEnd();
        spend(aloneSpend, JournalDirectory.DEFAULT_PIPELINE).build().runToEnd();
        fees(aloneFees, JournalDirectory.DEFAULT_PIPELINE).build().runToEnd();
        pairs(shared, "pairs").build().runToEnd();
        pairs(alonePairs, JournalDirectory.DEFAULT_PIPELINE).build().runToEnd();
        assertEquals(-1, spend1.resumedAfterOffset());
        assertEquals(-1, fees1.resumedAfterOffset(), "the named pipeline does not see the default's checkpoint");

        final JournalDirectory journal = JournalDirectory.open(shared);
        assertEquals(List.of("default", "fees", "pairs"), journal.pipelines());
        final Path feesHome = shared.resolve("pipelines").resolve("fees");
        assertTrue(Files.isDirectory(feesHome.resolve("checkpoints")) && Files.isDirectory(feesHome.resolve("results")));
        assertTrue(Files.isRegularFile(feesHome.resolve("metrics.dat")) && Files.isRegularFile(feesHome.resolve("results.lock")));
        assertTrue(Files.isRegularFile(shared.resolve("metrics.dat")) && Files.isRegularFile(shared.resolve("results.lock")));
        assertFalse(Files.exists(feesHome.resolve("events")), "the events are the journal's");

        for (final Path j : List.of(shared, aloneSpend, aloneFees, alonePairs))
        {
            append(j, events, 7_000, events.size());
        }
        // each resumes after the end of its first run's input, as asked: the new events are late for it, shared or alone
        final RunSummary spend2 = spend(shared, JournalDirectory.DEFAULT_PIPELINE).resumeAfterEnd(true).build().runToEnd();
        final RunSummary fees2 = fees(shared, "fees").resumeAfterEnd(true).build().runToEnd();
        spend(aloneSpend, JournalDirectory.DEFAULT_PIPELINE).resumeAfterEnd(true).build().runToEnd();
        fees(aloneFees, JournalDirectory.DEFAULT_PIPELINE).resumeAfterEnd(true).build().runToEnd();
        // a composite key: its tuple ids are rebuilt from the events before the checkpoint, and the tuples
        // first seen after it (about 3% of the 2,000 pairs) number on from there
        final RunSummary pairs2 = pairs(shared, "pairs").resumeAfterEnd(true).build().runToEnd();
        pairs(alonePairs, JournalDirectory.DEFAULT_PIPELINE).resumeAfterEnd(true).build().runToEnd();
        assertTrue(pairs2.resumedAfterOffset() >= 0, "pairs resumed from its checkpoint");
        assertEquals(spend1.lastOffset(), spend2.resumedAfterOffset(), "the default resumed from its own checkpoint");
        assertEquals(fees1.lastOffset(), fees2.resumedAfterOffset(), "the named one resumed from its own checkpoint");

        final List<String> spendRows = outputs(journal);
        final List<String> feesRows = outputs(journal.pipeline("fees"));
        assertTrue(spendRows.size() > 100 && feesRows.size() > 100, spendRows.size() + " and " + feesRows.size());
        RecoveryTest.assertSameOutputs(outputs(JournalDirectory.open(aloneSpend)), spendRows);
        RecoveryTest.assertSameOutputs(outputs(JournalDirectory.open(aloneFees)), feesRows);
        RecoveryTest.assertSameOutputs(outputs(JournalDirectory.open(alonePairs)), outputs(journal.pipeline("pairs")));
    }

    @Test
    void twoFollowingPipelinesFedByOneAppenderEachStopAndResumeOnTheirOwn() throws Exception
    {
        final List<long[]> events = events(15_000, 33);
        final Path shared = dir.resolve("shared");
        final Path aloneSpend = dir.resolve("alone-spend");
        final Path aloneBursts = dir.resolve("alone-bursts");
        append(aloneSpend, events, 0, events.size());
        append(aloneBursts, events, 0, events.size());
        spend(aloneSpend, JournalDirectory.DEFAULT_PIPELINE).build().runToEnd();
        bursts(aloneBursts, JournalDirectory.DEFAULT_PIPELINE).build().runToEnd();

        EventJournal.openOrCreate(shared, SCHEMA).close();
        final int[] cuts = {0, 2_000, 6_001, 9_000, 15_000};
        Pipeline spend = spend(shared, "spend").checkpointEvery(997).build().start();
        Pipeline bursts = bursts(shared, "bursts").checkpointEvery(1_501).build().start();
        assertNull(spend.restoredFrom());
        try (EventJournal appender = EventJournal.open(JournalDirectory.open(shared)))
        {
            for (int c = 0; c + 1 < cuts.length; c++)
            {
                long last = -1;
                for (int i = cuts[c]; i < cuts[c + 1]; i++)
                {
                    last = append(appender, events.get(i));
                }
                assertTrue(spend.awaitOffset(last, 60, TimeUnit.SECONDS), "spend caught up");
                assertTrue(bursts.awaitOffset(last, 60, TimeUnit.SECONDS), "bursts caught up");
                if (c == 1)
                {
                    spend.stop(); // the other keeps following
                    assertThrows(JournalRefusedException.class, () -> bursts(shared, "bursts").build().start(),
                        "a second run of one pipeline is refused while it runs");
                    spend = spend(shared, "spend").checkpointEvery(997).build().start();
                    assertTrue(spend.restoredFrom() != null, "spend resumed from its checkpoint");
                }
                if (c == 2)
                {
                    bursts.stop();
                    bursts = bursts(shared, "bursts").checkpointEvery(1_501).build().start();
                    assertTrue(bursts.restoredFrom() != null, "bursts resumed from its checkpoint");
                }
            }
            spend.stop();
            bursts.stop();
        }
        // bounded runs fire what the followers left open, each from its own checkpoint
        spend(shared, "spend").build().runToEnd();
        bursts(shared, "bursts").build().runToEnd();

        final JournalDirectory journal = JournalDirectory.open(shared);
        assertEquals(List.of("bursts", "spend"), journal.pipelines());
        RecoveryTest.assertSameOutputs(outputs(JournalDirectory.open(aloneSpend)), outputs(journal.pipeline("spend")));
        RecoveryTest.assertSameOutputs(outputs(JournalDirectory.open(aloneBursts)), outputs(journal.pipeline("bursts")));
        assertEquals(List.of(), outputs(journal), "the default pipeline never ran");
    }

    @Test
    void aBadPipelineNameIsRefusedByTheBuilder()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Weir.pipeline().pipeline("Spend/1"));
        assertTrue(ex.getMessage().contains(JournalDirectory.PIPELINE_NAME_RULE), ex.getMessage());
    }

    private static PipelineBuilder spend(final Path journal, final String name)
    {
        return Weir.pipeline().journal(journal).pipeline(name).keyColumn("card").valueColumn("amount")
            .window(TumblingWindows.of(1_000)).outOfOrderness(200).allowedLateness(300).latePolicy(LatePolicy.SIDE);
    }

    private static PipelineBuilder fees(final Path journal, final String name)
    {
        return Weir.pipeline().journal(journal).pipeline(name).keyColumn("merchant").valueColumn("fee")
            .window(SlidingWindows.of(2_000, 500)).outOfOrderness(100).checkpointEvery(2_500);
    }

    private static PipelineBuilder pairs(final Path journal, final String name)
    {
        return Weir.pipeline().journal(journal).pipeline(name).keyColumns("card", "fee").valueColumn("amount")
            .window(TumblingWindows.of(1_000)).outOfOrderness(200).allowedLateness(300).latePolicy(LatePolicy.SIDE);
    }

    private static PipelineBuilder bursts(final Path journal, final String name)
    {
        return Weir.pipeline().journal(journal).pipeline(name).keyColumn("merchant").valueColumn("amount")
            .window(SessionWindows.withGap(150)).outOfOrderness(250).latePolicy(LatePolicy.SIDE);
    }

    private static String[] cards(final String prefix, final int count)
    {
        final String[] names = new String[count];
        for (int i = 0; i < count; i++)
        {
            names[i] = prefix + i;
        }
        return names;
    }

    private static List<long[]> events(final int count, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<long[]> events = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final long time = 10_000L + i - random.nextInt(300) - (random.nextInt(200) == 0 ? 1_500 : 0);
            events.add(new long[] {i, Math.max(0, time), random.nextInt(CARDS.length), random.nextInt(MERCHANTS.length),
                random.nextInt(5_000), random.nextInt(50)});
        }
        return events;
    }

    private static void append(final Path journal, final List<long[]> events, final int from, final int to)
    {
        try (EventJournal writer = EventJournal.openOrCreate(journal, SCHEMA))
        {
            for (int i = from; i < to; i++)
            {
                append(writer, events.get(i));
            }
        }
    }

    private static long append(final EventJournal writer, final long[] e)
    {
        return writer.append(writer.row().eventId(e[0]).eventTime(e[1]).setString(0, writer.stringId(0, CARDS[(int)e[2]]))
            .setString(1, writer.stringId(1, MERCHANTS[(int)e[3]])).setLong(2, e[4]).setLong(3, e[5]));
    }

    static List<String> outputs(final JournalDirectory directory)
    {
        return RecoveryTest.outputs(directory);
    }

    static long lastOffset(final Path journal)
    {
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal)))
        {
            return reader.lastOffset();
        }
    }
}
