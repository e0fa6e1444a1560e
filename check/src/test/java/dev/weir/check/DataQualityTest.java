package dev.weir.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import dev.weir.engine.Weir;
import dev.weir.check.QualityCheck.Status;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each data-quality check on data that passes it and on data that fails it: real journals (written,
 * and processed by a real pipeline) and real partition files.
 */
class DataQualityTest
{
    private static final String HEADER = "window_start,window_end,key,count,sum,min,max,version";
    private static final long DAY = 86_400_000L;
    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    @TempDir
    Path dir;

    @Test
    void rowsFailsOnAPartitionWithFewerRowsThanTheMinimum() throws IOException
    {
        final Path out = partitions("ok", Map.of("2026-11-01", rows(0, "a", "b"), "2026-11-02", rows(DAY, "a")));
        assertEquals(Status.PASS, check("rows", null, PartitionProfile.of(out), QualityThresholds.DEFAULTS).status());

        partition(out, "2026-11-03", List.of()); // header only
        final QualityCheck failed = check("rows", null, PartitionProfile.of(out), QualityThresholds.DEFAULTS);
        assertEquals(Status.FAIL, failed.status());
        assertTrue(failed.detail().contains("date=2026-11-03 has 0"), failed.toString());
        assertEquals(Status.FAIL, check("rows", null, PartitionProfile.of(partitions("few", Map.of("2026-11-01", rows(0, "a")))),
            QualityThresholds.DEFAULTS.withMinRowsPerPartition(2)).status());
    }

    @Test
    void uniqueFailsOnARowRepeatedInAnyPartition() throws IOException
    {
        final Path out = partitions("ok", Map.of("2026-11-01", rows(0, "a", "b"), "2026-11-02", rows(DAY, "a", "b")));
        final QualityCheck passed = check("unique", null, PartitionProfile.of(out), QualityThresholds.DEFAULTS);
        assertEquals(Status.PASS, passed.status(), passed.toString());

        final Path appended = partitions("appended", Map.of("2026-11-01", List.of(
            "0,1000,a,1,5,5,5,0", "0,1000,a,2,9,4,5,1", "0,1000,a,1,5,5,5,0")));
        final QualityCheck failed = check("unique", null, PartitionProfile.of(appended), QualityThresholds.DEFAULTS);
        assertEquals(Status.FAIL, failed.status());
        assertEquals("1 duplicate rows", failed.measured());
        assertEquals(Status.PASS, check("unique", null, PartitionProfile.of(appended), QualityThresholds.DEFAULTS.withMaxDuplicateRows(1)).status());
    }

    @Test
    void aCsvPartitionMayCarryAColumnPerAggregation() throws IOException
    {
        final Path out = dir.resolve("aggregates");
        final Path file = out.resolve("date=2026-11-01").resolve("results.csv");
        Files.createDirectories(file.getParent());
        Files.write(file, List.of(HEADER + ",average,distinct_merchant,distinct", "0,1000,a,2,5,2,3,0,2.50,2,1", "0,1000,a,3,9,2,4,1,3.00,3,1",
            "0,1000,b,1,1,1,1,0,-1,1,1"));
        assertEquals(Map.of(LocalDate.parse("2026-11-01"), 3L), PartitionProfile.of(out).rowsByDate());
        assertEquals(0, PartitionProfile.of(out).duplicateRows());

        Files.write(file, List.of(HEADER + ",average,distinct_merchant", "0,1000,a,2,5,2,3,0,2.50,2", "0,1000,a,2,5,2,3,0,2.50"));
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> PartitionProfile.of(out));
        assertTrue(refused.getMessage().contains("line 3 is not a results row"), refused.getMessage());
        Files.write(file, List.of(HEADER + ",average,distinct_merchant", "0,1000,a,2,5,2,3,0,2.50,x"));
        assertThrows(IllegalArgumentException.class, () -> PartitionProfile.of(out), "an aggregate is a number");
    }

    @Test
    void uniqueReadsJsonlPartitionsAndRefusesALineThatIsNotARow() throws IOException
    {
        final Path out = dir.resolve("jsonl");
        Files.createDirectories(out.resolve("date=2026-11-01"));
        Files.write(out.resolve("date=2026-11-01").resolve("results.jsonl"), List.of(
            "{\"window_start\":0,\"window_end\":1000,\"key\":\"a\",\"count\":1,\"sum\":5,\"min\":5,\"max\":5,\"version\":0}",
            "{\"window_start\":0,\"window_end\":1000,\"key\":\"a\",\"count\":1,\"sum\":5,\"min\":5,\"max\":5,\"version\":0}"));
        assertEquals(1, PartitionProfile.of(out).duplicateRows());
        assertEquals(Map.of(LocalDate.parse("2026-11-01"), 2L), PartitionProfile.of(out).rowsByDate());

        final Path bad = partitions("bad", Map.of("2026-11-01", List.of("0,1000,a,1,5,5,5,0", "not,a,row")));
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> PartitionProfile.of(bad));
        assertTrue(refused.getMessage().contains("line 3 is not a results row"), refused.getMessage());
    }

    @Test
    void gapsFailsOnADateWithoutRowsInsideTheRange() throws IOException
    {
        final Path out = partitions("ok", Map.of("2026-11-01", rows(0, "a"), "2026-11-02", rows(DAY, "a"), "2026-11-03", rows(2 * DAY, "a")));
        assertEquals(Status.PASS, check("gaps", null, PartitionProfile.of(out), QualityThresholds.DEFAULTS).status());
        final QualityCheck beyond = check("gaps", null, PartitionProfile.of(out),
            QualityThresholds.DEFAULTS.withRange(LocalDate.parse("2026-10-31"), LocalDate.parse("2026-11-04")));
        assertEquals(Status.FAIL, beyond.status());
        assertEquals("no rows for 2026-10-31, 2026-11-04", beyond.detail());

        final QualityCheck today = check("gaps", null, PartitionProfile.of(out), QualityThresholds.DEFAULTS.withRange(LocalDate.parse("2026-11-05"), null));
        assertEquals(Status.FAIL, today.status(), "a --from-date after the last partition checks that date: " + today);
        assertEquals("no rows for 2026-11-05", today.detail());
        assertEquals(Status.FAIL, check("gaps", null, PartitionProfile.of(out),
            QualityThresholds.DEFAULTS.withRange(null, LocalDate.parse("2026-10-30"))).status(), "a --to-date before the first partition");
        assertEquals(Status.PASS, check("gaps", null, PartitionProfile.of(out),
            QualityThresholds.DEFAULTS.withRange(LocalDate.parse("2026-11-02"), null)).status(), "2026-11-02..2026-11-03 is full");

        final Path holed = partitions("holed", Map.of("2026-11-01", rows(0, "a"), "2026-11-03", rows(2 * DAY, "a")));
        final QualityCheck failed = check("gaps", null, PartitionProfile.of(holed), QualityThresholds.DEFAULTS);
        assertEquals(Status.FAIL, failed.status());
        assertEquals("1 of 3 dates 2026-11-01..2026-11-03 without rows", failed.measured());
    }

    @Test
    void rejectedFailsWhenTooManyLinesWereRejected()
    {
        final JournalDirectory journal = journal("rejected", 1_000, 0, 0, 5);
        final QualityCheck passed = check("rejected", JournalProfile.of(journal), null, QualityThresholds.DEFAULTS);
        assertEquals(Status.PASS, passed.status(), passed.toString());
        assertTrue(passed.measured().contains("5 of 1,005 lines"), passed.measured());
        assertEquals(Status.FAIL, check("rejected", JournalProfile.of(journal("many-rejected", 1_000, 0, 0, 50)), null,
            QualityThresholds.DEFAULTS).status());
    }

    @Test
    void lateFailsWhenTooManyEventsWereLateAndIsSkippedBeforeProcessing()
    {
        final JournalDirectory unprocessed = journal("unprocessed", 1_000, 0, 0, 0);
        assertEquals(Status.SKIP, check("late", JournalProfile.of(unprocessed), null, QualityThresholds.DEFAULTS).status());
        assertTrue(!Files.exists(unprocessed.checkpoints()), "the checks only read: no checkpoints directory created");
        final JournalDirectory fewLate = journal("few-late", 10_000, 50, 0, 0);
        process(fewLate);
        final QualityCheck passed = check("late", JournalProfile.of(fewLate), null, QualityThresholds.DEFAULTS);
        assertEquals(Status.PASS, passed.status(), passed.toString());
        assertTrue(passed.measured().contains("of 10,000 events"), passed.measured());
        final JournalDirectory manyLate = journal("many-late", 10_000, 500, 0, 0);
        process(manyLate);
        assertEquals(Status.FAIL, check("late", JournalProfile.of(manyLate), null, QualityThresholds.DEFAULTS).status());
    }

    @Test
    void lateIsCheckedPerPipelineAndFailsForAPipelineOrAJournalThatWasNotProcessed()
    {
        final JournalDirectory journal = journal("pipelines", 10_000, 500, 0, 0);
        final QualityCheck none = DataQuality.run(JournalProfile.of(journal), PipelineProfile.allOf(journal), null, QualityThresholds.DEFAULTS, NOW)
            .stream().filter(c -> c.name().startsWith("late")).findFirst().orElseThrow();
        assertEquals(Status.FAIL, none.status(), "no pipeline has processed the journal: " + none);
        Weir.pipeline().journal(journal.root()).pipeline("lenient").window(TumblingWindows.of(1_000)).outOfOrderness(20_000).build().runToEnd();
        Weir.pipeline().journal(journal.root()).pipeline("strict").window(TumblingWindows.of(1_000)).outOfOrderness(100).build().runToEnd();
        final List<QualityCheck> late = DataQuality.run(JournalProfile.of(journal), PipelineProfile.allOf(journal), null,
            QualityThresholds.DEFAULTS, NOW).stream().filter(c -> c.name().startsWith("late")).toList();
        assertEquals(List.of("late:lenient", "late:strict"), late.stream().map(QualityCheck::name).toList());
        assertEquals(List.of(Status.PASS, Status.FAIL), late.stream().map(QualityCheck::status).toList(), late.toString());
        assertEquals(Status.FAIL, DataQuality.run(JournalProfile.of(journal), List.of(new PipelineProfile("later", -1, -1)), null,
            QualityThresholds.DEFAULTS, NOW).stream().filter(c -> c.name().equals("late:later")).findFirst().orElseThrow().status());
    }

    @Test
    void duplicatesFailsWhenEventIdsRepeat()
    {
        assertEquals(Status.PASS, check("duplicates", JournalProfile.of(journal("unique-ids", 10_000, 0, 0, 0)), null,
            QualityThresholds.DEFAULTS).status());
        final QualityCheck failed = check("duplicates", JournalProfile.of(journal("resent", 10_000, 0, 100, 0)), null, QualityThresholds.DEFAULTS);
        assertEquals(Status.FAIL, failed.status());
        assertTrue(failed.measured().startsWith("0.990% (100 of 10,100 events)"), failed.measured());
    }

    @Test
    void freshnessFailsWhenTheNewestEventIsOlderThanTheMaximum()
    {
        final JournalProfile profile = JournalProfile.of(journal("fresh", 1_000, 0, 0, 0)); // newest event at NOW - 1 s
        assertEquals(Status.SKIP, check("freshness", profile, null, QualityThresholds.DEFAULTS).status());
        assertEquals(Status.PASS, check("freshness", profile, null, QualityThresholds.DEFAULTS.withMaxStaleness(Duration.ofMinutes(1))).status());
        final QualityCheck stale = DataQuality.run(profile, null, QualityThresholds.DEFAULTS.withMaxStaleness(Duration.ofMinutes(1)),
            NOW.plus(Duration.ofHours(3))).get(5);
        assertEquals(Status.FAIL, stale.status());
        assertTrue(stale.measured().contains("3h old"), stale.measured());
    }

    private static QualityCheck check(final String name, final JournalProfile journal, final PartitionProfile partitions, final QualityThresholds limits)
    {
        return DataQuality.run(journal, partitions, limits, NOW).stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * A journal of {@code events} events ending 1 s before NOW, one every 10 ms, of which {@code late} are 10 s late, plus
     * {@code resent} events repeating earlier ids and {@code rejected} rejected lines.
     */
    private JournalDirectory journal(final String name, final int events, final int late, final int resent, final int rejected)
    {
        final long end = NOW.toEpochMilli() - 1_000;
        try (EventJournal writer = EventJournal.openOrCreate(dir.resolve(name)))
        {
            for (int i = 0; i < events; i++)
            {
                final long time = end - (events - 1 - i) * 10L - (i % (events / Math.max(1, late)) == 0 && late > 0 && i > 0 ? 10_000 : 0);
                writer.append(i, time, "k" + i % 10, i);
            }
            for (int i = 0; i < resent; i++)
            {
                writer.append(i, end, "k0", 1);
            }
            for (int i = 0; i < rejected; i++)
            {
                writer.appendRejected(i + 2, "bad value", "x,y,z,w");
            }
            return writer.directory();
        }
    }

    private static void process(final JournalDirectory journal)
    {
        Weir.pipeline().journal(journal.root()).window(TumblingWindows.of(1_000)).outOfOrderness(100).build().runToEnd();
    }

    private Path partitions(final String name, final Map<String, List<String>> byDate) throws IOException
    {
        final Path out = dir.resolve(name);
        for (final Map.Entry<String, List<String>> partition : byDate.entrySet())
        {
            partition(out, partition.getKey(), partition.getValue());
        }
        return out;
    }

    private static void partition(final Path out, final String date, final List<String> rows) throws IOException
    {
        final Path file = out.resolve("date=" + date).resolve("results.csv");
        Files.createDirectories(file.getParent());
        final StringBuilder text = new StringBuilder(HEADER).append('\n');
        rows.forEach(r -> text.append(r).append('\n'));
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static List<String> rows(final long start, final String... keys)
    {
        return java.util.Arrays.stream(keys).map(k -> start + "," + (start + 1_000) + "," + k + ",1,5,5,5,0").toList();
    }
}
