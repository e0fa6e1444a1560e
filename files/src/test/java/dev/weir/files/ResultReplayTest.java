package dev.weir.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;

import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service replays a journal into files through the Java API, as {@code weir replay} does: from a clean state into
 * one results CSV and a late-events CSV, the same bytes when run again; into date partitions, only whole days (a
 * range that leaves out events is refused and writes nothing; chosen days replace their partitions, remove those
 * that got no row and leave the others as they were).
 */
class ResultReplayTest
{
    private static final long DAY = 86_400_000L;
    private static final RowColumns COLUMNS = new RowColumns("key", "value", List.of());
    private static final UnaryOperator<PipelineBuilder> TUMBLING_10S = pipeline -> pipeline.window(TumblingWindows.of(10_000))
        .outOfOrderness(0).allowedLateness(0).latePolicy(LatePolicy.SIDE);

    @TempDir
    Path dir;

    private Path journal;

    @BeforeEach
    void writeAJournal()
    {
        journal = dir.resolve("journal");
        try (EventJournal events = EventJournal.openOrCreate(journal))
        {
            events.append(1, 1_000, events.keyId("card-1"), 250);
            events.append(2, DAY + 1_000, events.keyId("card-2"), 400);
            events.append(3, 2_000, events.keyId("card-1"), 99); // the first day's window has fired: late
        }
    }

    @Test
    void aReplayIntoAResultsFileWritesEveryRowAndTheSameBytesAgain() throws IOException
    {
        final Path results = dir.resolve("results.csv");
        final Path late = dir.resolve("late.csv");
        final ResultReplay replay = ResultReplay.of(journal).columns(COLUMNS).pipeline(TUMBLING_10S).results(results).late(late).build();
        assertEquals(0, replay.processedEvents(), "not started");

        final ResultReplay.Outcome outcome = replay.run();

        assertEquals(3, outcome.summary().events());
        assertEquals(2, outcome.rows());
        assertEquals(List.of(), outcome.notes());
        assertEquals(List.of(ResultRow.HEADER, "0,10000,card-1,1,250,250,250,0", DAY + "," + (DAY + 10_000) + ",card-2,1,400,400,400,0"),
            Files.readAllLines(results));
        assertEquals(List.of("event_id,event_time,key,value", "3,2000,card-1,99"), Files.readAllLines(late));
        final byte[] first = Files.readAllBytes(results);
        assertEquals(2, replay.run().rows(), "run again from a clean state: no checkpoint resumed");
        assertArrayEquals(first, Files.readAllBytes(results), "the file replaced by the same bytes");
    }

    @Test
    void aRangeThatLeavesOutEventsIsRefusedIntoPartitionsAndWritesNothing()
    {
        final long firstOffset = ResultReplay.of(journal).columns(COLUMNS).pipeline(TUMBLING_10S).results(dir.resolve("all.csv")).build().run()
            .summary().firstOffset();
        final Path out = dir.resolve("out");

        final ReplayRefusedException refused = assertThrows(ReplayRefusedException.class,
            () -> ResultReplay.of(journal).columns(COLUMNS).pipeline(TUMBLING_10S).range(firstOffset, firstOffset)
                .partitions(out, PartitionedResults.Format.csv).build().run());

        assertEquals("--from " + firstOffset + " --to " + firstOffset + " leaves out events of " + journal + " (it holds events at offsets "
            + firstOffset + ".." + lastOffset() + "): a replay of part of a journal cannot recompute a date partition completely (its "
            + "windows may hold events outside the range), so it replaces none; recompute whole days with --days YYYY-MM-DD[..YYYY-MM-DD], "
            + "or write part of a journal to --results FILE", refused.getMessage());
        assertFalse(Files.exists(out), "nothing written");
    }

    @Test
    void chosenDaysReplaceTheirPartitionsAndLeaveTheOthers() throws IOException
    {
        final Path out = dir.resolve("out");
        final Path otherDay = out.resolve("date=1969-12-31/results.csv");
        final Path emptyDay = out.resolve("date=1970-01-03/results.csv");
        Files.createDirectories(otherDay.getParent());
        Files.writeString(otherDay, "left as it was\n");
        Files.createDirectories(emptyDay.getParent());
        Files.writeString(emptyDay, "a day without rows now\n");

        final ResultReplay.Outcome outcome = ResultReplay.of(journal).columns(COLUMNS).pipeline(TUMBLING_10S)
            .days(DayRange.parse("1970-01-02..1970-01-03")).partitions(out, PartitionedResults.Format.csv).build().run();

        assertEquals(1, outcome.rows());
        assertEquals(1, outcome.partitions());
        assertEquals(1, outcome.removed());
        assertEquals(List.of(ResultRow.HEADER, DAY + "," + (DAY + 10_000) + ",card-2,1,400,400,400,0"),
            Files.readAllLines(out.resolve("date=1970-01-02/results.csv")));
        assertFalse(Files.exists(out.resolve("date=1970-01-01")), "a day not chosen is not written");
        assertEquals("left as it was\n", Files.readString(otherDay));
        assertFalse(Files.exists(emptyDay.getParent()), "a chosen day without rows loses its partition");
    }

    @Test
    void argumentsThatDoNotGoTogetherAreRefusedByTheBuilder()
    {
        final Path file = dir.resolve("results.csv");
        assertThrows(IllegalArgumentException.class, () -> ResultReplay.of(journal).results(file).build(), "no columns");
        assertThrows(IllegalArgumentException.class, () -> ResultReplay.of(journal).columns(COLUMNS).build(), "no output");
        assertThrows(IllegalArgumentException.class,
            () -> ResultReplay.of(journal).columns(COLUMNS).results(file).partitions(dir, PartitionedResults.Format.csv).build(), "both");
        assertThrows(IllegalArgumentException.class,
            () -> ResultReplay.of(journal).columns(COLUMNS).results(file).days(DayRange.parse("1970-01-01")).build(), "days into a file");
        assertThrows(IllegalArgumentException.class, () -> ResultReplay.of(journal).columns(COLUMNS).range(5, 4).results(file).build());
        assertTrue(ResultReplay.of(journal).columns(COLUMNS).range(5, 5).results(file).build() != null);
    }

    /** @return the offset of the journal's last event (its three events are single documents, 64 apart when slotted). */
    private long lastOffset()
    {
        try (dev.weir.journal.JournalReader reader = dev.weir.journal.JournalReader.open(dev.weir.journal.JournalDirectory.open(journal)))
        {
            return reader.lastOffset();
        }
    }
}
