package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.weir.engine.join.AsOfJoin;
import dev.weir.engine.join.Horizon;
import dev.weir.engine.join.JoinMissing;
import dev.weir.engine.join.JoinSnapshots;
import dev.weir.engine.join.JoinStateFile;
import dev.weir.engine.join.TableJoins;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.TableAppender;
import dev.weir.journal.TableRow;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The as-of join through the Java API: a rule compares each payment with its card's row as of the payment's time,
 * among the rows appended before it; an event with no row is dropped and counted as unmatched, or kept with the
 * table's defaults; a replay gives the results of a run; a run stopped and resumed (table rows before and after
 * each checkpoint) gives the outputs of one uninterrupted run; a join the journal cannot satisfy is refused at
 * build time, with one clear message.
 */
class JoinPipelineTest
{
    private static final JournalSchema EVENTS = JournalSchema.parse("card:string,country:string,amount:decimal(2)");
    private static final TableDefinition CARDS = TableDefinition.parse("cards", "card", "card:string,home:string,limit:decimal(2)=0");
    private static final String[] COUNTRIES = {"FR", "DE", "NL", "BE"};

    @TempDir
    Path dir;

    enum WindowKind
    {
        TUMBLING, SLIDING, SESSION
    }

    /** One step of a stream: an event, or a row of the cards table (a tombstone when {@code home} is null). */
    private record Step(boolean event, long id, long time, String card, String countryOrHome, long cents)
    {
    }

    @Test
    void anEventJoinsTheRowOfItsKeyValidAtItsTimeAmongTheRowsAppendedBeforeIt()
    {
        final Path journal = dir.resolve("journal");
        final List<Step> steps = List.of(
            row(1_000, "c1", "FR", 100_00),
            event(1, 1_500, "c1", "DE", 10_00),   // joins FR: abroad, kept
            event(2, 1_600, "c1", "FR", 20_00),   // at home: filtered
            row(1_700, "c1", "DE", 100_00),
            event(3, 1_650, "c1", "DE", 30_00),   // before the DE row's valid-from: still FR, abroad, kept
            event(4, 1_800, "c1", "DE", 40_00),   // joins DE: at home, filtered
            row(5_000, "c1", "NL", 100_00),       // a future row: not seen before 5,000
            event(5, 1_900, "c1", "NL", 50_00),   // joins DE: abroad, kept
            event(6, 1_950, "c2", "NL", 60_00),   // no row of c2: unmatched
            tombstone(1_960, "c1"),
            event(7, 1_970, "c1", "FR", 70_00),   // removed: unmatched
            event(8, 6_000, "c1", "FR", 80_00));  // joins NL: abroad, kept (and closes the windows)
        append(journal, steps, 0, steps.size());
        final List<String> results = new CopyOnWriteArrayList<>();
        final RunSummary summary = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).keyColumn("card").value("amount")
            .join("cards").where("country != cards.home").replayRange(-1, Long.MAX_VALUE)
            .onResult(r -> results.add(r.windowStart() + ":" + r.count() + "," + r.sum())).build().runToEnd();
        assertEquals(List.of("1000:3,9000", "6000:1,8000"), results);
        assertEquals(4, summary.events());
        assertEquals(2, summary.filtered(), "at home");
        assertEquals(2, summary.unmatched(), "no row of c2, c1 removed");
    }

    @Test
    void withKeepAnEventWithoutARowReadsTheTablesDefaults()
    {
        final Path journal = dir.resolve("journal");
        final List<Step> steps = List.of(
            row(1_000, "c1", "FR", 100_00),
            event(1, 1_500, "c1", "DE", 10_00),
            event(2, 1_600, "c2", "DE", 20_00),
            event(3, 1_700, "c3", "DE", 30_00));
        append(journal, steps, 0, steps.size());
        final List<String> results = new CopyOnWriteArrayList<>();
        final RunSummary summary = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).keyColumn("country").value("amount")
            .join("cards").joinMissing(JoinMissing.KEEP).where("cards.home = '' and cards.limit = 0").replayRange(-1, Long.MAX_VALUE)
            .onResult(r -> results.add(r.windowStart() + ":" + r.count() + "," + r.sum())).build().runToEnd();
        assertEquals(List.of("1000:2,5000"), results, "c2 and c3 read home '' and limit 0");
        assertEquals(0, summary.unmatched());
        assertEquals(1, summary.filtered());
    }

    @Test
    void anEarlyConditionComparesTheSpendWithTheCardsOwnLimitAsOfTheEventBeingAdded()
    {
        final Path journal = dir.resolve("journal");
        final List<Step> steps = List.of(
            row(0, "c1", "FR", 100_00),
            row(0, "c2", "FR", 500_00),
            event(1, 1_000, "c1", "DE", 60_00),
            event(2, 1_100, "c2", "DE", 60_00),
            row(1_150, "c2", "FR", 100_00),       // c2's limit lowered
            event(3, 1_200, "c1", "DE", 30_00),   // c1: 90, under 100
            event(4, 1_300, "c2", "DE", 50_00),   // c2: 110, over its new limit
            event(5, 1_400, "c1", "DE", 20_00));  // c1: 110, over 100
        append(journal, steps, 0, steps.size());
        for (final PipelineLayout layout : PipelineLayout.values())
        {
            final List<String> early = new CopyOnWriteArrayList<>();
            Weir.pipeline().journal(journal).window(TumblingWindows.of(60_000)).keyColumn("card").value("amount").join("cards")
                .earlyWhen("sum > cards.limit").layout(layout).replayRange(-1, Long.MAX_VALUE).onResult(r ->
                {
                    if (r.kind() == dev.weir.journal.codec.ResultKind.EARLY)
                    {
                        early.add(r.keyId() + ":" + r.count() + "," + r.sum());
                    }
                }).build().runToEnd();
            assertEquals(List.of("1:2,11000", "0:3,11000"), early, layout.toString());
        }
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void aReplayGivesTheResultsOfARun(final WindowKind kind)
    {
        final Path journal = dir.resolve("journal");
        final List<Step> steps = stream(6_000, 17);
        append(journal, steps, 0, steps.size());
        final List<String> run = new CopyOnWriteArrayList<>();
        final RunSummary ran = builder(journal, kind).onResult(r -> run.add(r.windowStart() + "," + r.keyId() + "," + r.count() + "," + r.sum()))
            .build().runToEnd();
        final List<String> replay = new CopyOnWriteArrayList<>();
        final RunSummary replayed = builder(journal, kind).replayRange(-1, Long.MAX_VALUE)
            .onResult(r -> replay.add(r.windowStart() + "," + r.keyId() + "," + r.count() + "," + r.sum())).build().runToEnd();
        assertEquals(run, replay);
        assertTrue(ran.unmatched() > 0 && ran.events() > 0 && ran.filtered() > 0, ran.toString());
        assertEquals(ran.unmatched(), replayed.unmatched());
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void aRunStoppedAndResumedGivesTheOutputsOfOneUninterruptedRun(final WindowKind kind) throws Exception
    {
        final Path clean = dir.resolve("clean");
        final Path followed = dir.resolve("followed");
        final List<Step> steps = stream(8_000, 29);
        append(clean, steps, 0, steps.size());
        final RunSummary uninterrupted = builder(clean, kind).build().runToEnd();

        final int[] cuts = {0, 1_500, 1_501, 4_200, 6_000, 8_000};
        for (int i = 0; i + 1 < cuts.length; i++)
        {
            final long last = append(followed, steps, cuts[i], cuts[i + 1]);
            final Pipeline pipeline = builder(followed, kind).checkpointEvery(333).build().start();
            assertTrue(pipeline.awaitOffset(last, 60, TimeUnit.SECONDS), "caught up with the journal");
            pipeline.stop();
        }
        final RunSummary resumed = builder(followed, kind).build().runToEnd();
        RecoveryTest.assertSameOutputs(RecoveryTest.outputs(clean), RecoveryTest.outputs(followed));
        assertEquals(uninterrupted.unmatched(), resumed.unmatched(), "the checkpoint keeps the count");
        assertTrue(resumed.resumedAfterOffset() >= 0, "resumed from a checkpoint");
    }

    /**
     * Join-state files every 2,000 documents (the test's cadence): a resume reads at most one cadence and a poll's
     * batch of the journal, not the 9,000 documents before it, and gives the outputs of one uninterrupted run; so does
     * a resume whose newest file is corrupt (the next older is read, so more of the journal) or of another join
     * configuration (skipped the same way).
     */
    @Test
    void aResumeReadsOnlyTheJournalAfterItsNewestJoinStateFileAndSkipsACorruptOrForeignOne() throws Exception
    {
        System.setProperty(Wiring.JOIN_STATE_EVERY, "2000");
        try
        {
            final Path clean = dir.resolve("clean");
            final Path followed = dir.resolve("followed");
            final List<Step> steps = new ArrayList<>();
            steps.add(row(0, "z", "XX", 100_000)); // card z's only row, first in the journal: a resume joins z only if it kept it
            for (final Step step : stream(12_000, 41))
            {
                steps.add(step.event() && step.id() % 50 == 0 ? event(step.id(), step.time(), "z", step.countryOrHome(), step.cents()) : step);
            }
            append(clean, steps, 0, steps.size());
            final RunSummary uninterrupted = builder(clean, WindowKind.SLIDING).build().runToEnd();
            final long last = append(followed, steps, 0, 9_000);
            final Pipeline first = builder(followed, WindowKind.SLIDING).checkpointEvery(333).build().start();
            assertTrue(first.awaitOffset(last, 60, TimeUnit.SECONDS), "caught up with the journal");
            first.stop();
            final List<Path> files = joinStateFiles(followed);
            // the newest three, and the run's first: kept until a later one lies a checkpoint lag (twice the checkpoint
            // interval and the ring) back, so a crash with a lagging checkpoint still finds a file before it
            assertEquals(JoinSnapshots.KEPT + 1, files.size(), "the files kept: " + files);
            append(followed, steps, 9_000, steps.size());
            final Path corrupt = copy(followed, dir.resolve("corrupt"));
            final Path newestCorrupt = joinStateFiles(corrupt).get(files.size() - 1);
            final byte[] bytes = Files.readAllBytes(newestCorrupt);
            bytes[bytes.length / 2] ^= 1;
            Files.write(newestCorrupt, bytes);
            final Path foreign = copy(followed, dir.resolve("foreign"));
            final Path newestForeign = joinStateFiles(foreign).get(files.size() - 1);
            final long offset = Long.parseLong(newestForeign.getFileName().toString().replaceAll("\\D", ""));
            JoinStateFile.write(newestForeign, "join 0 cards on cards(card=card)\nhorizon 0 0 1", offset,
                new TableJoins(new Horizon(0, 0, 1), new AsOfJoin[] {new AsOfJoin(0, CARDS, new int[] {0}, null)}, EVENTS.size(),
                    JoinMissing.DROP)); // an empty state of the same shape: read, it would join no event

            final long scanned = assertResumedAsUninterrupted(clean, uninterrupted, followed);
            assertTrue(scanned > 0 && scanned <= 2_000 + 1_024, "documents read to restore the joins: " + scanned + ", not the 9,000 before");
            final long afterCorrupt = assertResumedAsUninterrupted(clean, uninterrupted, corrupt);
            assertTrue(afterCorrupt > scanned && afterCorrupt < 9_000, "the next older file read: " + afterCorrupt + " documents after it");
            assertEquals(afterCorrupt, assertResumedAsUninterrupted(clean, uninterrupted, foreign), "the foreign file skipped as the corrupt one");
        }
        finally
        {
            System.clearProperty(Wiring.JOIN_STATE_EVERY);
        }
    }

    /** @return the documents the resume of {@code journal} read to restore its joins. */
    private static long assertResumedAsUninterrupted(final Path clean, final RunSummary uninterrupted, final Path journal)
    {
        final Pipeline pipeline = builder(journal, WindowKind.SLIDING).build();
        final RunSummary resumed = pipeline.runToEnd();
        assertTrue(resumed.resumedAfterOffset() >= 0, "resumed from a checkpoint");
        RecoveryTest.assertSameOutputs(RecoveryTest.outputs(clean), RecoveryTest.outputs(journal));
        assertEquals(uninterrupted.unmatched(), resumed.unmatched(), "the checkpoint keeps the count");
        return pipeline.joinDocumentsScanned();
    }

    /** @return the join-state files of the journal's default pipeline, oldest first. */
    private static List<Path> joinStateFiles(final Path journal) throws IOException
    {
        try (Stream<Path> files = Files.list(journal.resolve("join-state")))
        {
            return files.filter(f -> f.getFileName().toString().endsWith(".bin"))
                .sorted(Comparator.comparingLong(f -> Long.parseLong(f.getFileName().toString().replaceAll("\\D", "")))).toList();
        }
    }

    private static Path copy(final Path from, final Path to) throws IOException
    {
        try (Stream<Path> files = Files.walk(from))
        {
            for (final Path file : files.toList())
            {
                Files.copy(file, to.resolve(from.relativize(file).toString()));
            }
        }
        return to;
    }

    @Test
    void theConfigurationStringNamesTheJoinsOnlyWhenSet()
    {
        final Path journal = dir.resolve("journal");
        append(journal, List.of(row(1, "c1", "FR", 1)), 0, 1);
        final String plain = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).keyColumn("card").value("amount").conclude().describe();
        assertTrue(!plain.contains("join"), plain);
        final String joined = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).keyColumn("country").value("amount")
            .join("cards", "card=card").joinMissing(JoinMissing.KEEP).conclude().describe();
        assertTrue(joined.endsWith(" join=cards(card=card) join-missing=keep"), joined);
    }

    @Test
    void aJoinTheJournalCannotSatisfyIsRefusedWithOneClearMessage()
    {
        final Path journal = dir.resolve("journal");
        append(journal, List.of(row(1, "c1", "FR", 1)), 0, 1);
        assertEquals("--join fx: the journal has no table fx (its tables: cards)", refused(journal, b -> b.join("fx")));
        assertEquals("--join cards: the events have no column payer for the table's key column card (name it: --join cards:card=COLUMN);"
            + " the events' columns are " + EVENTS, refused(journal, b -> b.join("cards", "payer")));
        assertEquals("--join cards: the event column amount is decimal(2) but the table's key column card is string: a key joins only a"
            + " column of the same type", refused(journal, b -> b.join("cards", "card=amount")));
        assertEquals("--join cards is given twice: join each table once", refused(journal, b -> b.join("cards").join("cards")));
    }

    private static String refused(final Path journal, final java.util.function.UnaryOperator<PipelineBuilder> join)
    {
        return assertThrows(IllegalArgumentException.class,
            () -> join.apply(Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).keyColumn("card").value("amount")).conclude())
            .getMessage();
    }

    private static PipelineBuilder builder(final Path journal, final WindowKind kind)
    {
        final WindowSpec spec = kind == WindowKind.TUMBLING ? TumblingWindows.of(1_000)
            : kind == WindowKind.SLIDING ? SlidingWindows.of(1_000, 250) : SessionWindows.withGap(300);
        return Weir.pipeline().journal(journal).window(spec).outOfOrderness(200).allowedLateness(300).latePolicy(LatePolicy.SIDE)
            .keyColumn("card").value("amount").join("cards").where("country != cards.home");
    }

    /**
     * A seeded stream: events of 12 cards (two never get a row) in 4 countries, out of order within 200 ms, and every
     * seventh step or so a row of a card, valid from the past or the future, now and then a tombstone.
     */
    private static List<Step> stream(final int count, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<Step> steps = new ArrayList<>();
        long time = 10_000;
        for (int i = 0; i < count; i++)
        {
            time += random.nextInt(4);
            if (random.nextInt(7) == 0)
            {
                final String card = "c" + random.nextInt(10);
                final long from = time + random.nextInt(-800, 800);
                steps.add(random.nextInt(8) == 0 ? tombstone(from, card)
                    : row(from, card, COUNTRIES[random.nextInt(COUNTRIES.length)], random.nextInt(1, 1_000) * 100L));
            }
            else
            {
                steps.add(event(i, time - random.nextInt(200), "c" + random.nextInt(12), COUNTRIES[random.nextInt(COUNTRIES.length)],
                    random.nextInt(1, 10_000)));
            }
        }
        return steps;
    }

    private static Step event(final long id, final long time, final String card, final String country, final long cents)
    {
        return new Step(true, id, time, card, country, cents);
    }

    private static Step row(final long from, final String card, final String home, final long limitCents)
    {
        return new Step(false, 0, from, card, home, limitCents);
    }

    private static Step tombstone(final long from, final String card)
    {
        return new Step(false, 0, from, card, null, 0);
    }

    /** Append steps {@code from} (inclusive) to {@code to} (exclusive); @return the last event's offset. */
    private static long append(final Path journal, final List<Step> steps, final int from, final int to)
    {
        JournalDirectory.openOrCreateForTable(journal, CARDS, JournalRollCycle.DEFAULT);
        long last = -1;
        try (EventJournal writer = EventJournal.openOrCreate(journal, EVENTS))
        {
            final TableAppender cards = writer.table("cards");
            final TableRow row = cards.row();
            for (int i = from; i < to; i++)
            {
                final Step step = steps.get(i);
                if (step.event())
                {
                    last = writer.append(writer.row().eventId(step.id()).eventTime(step.time()).setString(0, writer.stringId(0, step.card()))
                        .setString(1, writer.stringId(1, step.countryOrHome())).setLong(2, step.cents()));
                }
                else if (step.countryOrHome() == null)
                {
                    cards.delete(row.clear().validFrom(step.time()).setString(0, step.card()));
                }
                else
                {
                    cards.upsert(row.clear().validFrom(step.time()).setString(0, step.card()).setString(1, step.countryOrHome())
                        .setLong(2, step.cents()));
                }
            }
        }
        return last;
    }
}
