package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.function.UnaryOperator;

import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.files.PartitionedResults;
import dev.weir.postgres.PostgresSink;
import org.junit.jupiter.api.Test;

/**
 * {@link RunJob.Builder#build()} validates a run's flags once: each combination the flags do not allow is
 * refused with its one-line message, the first problem in the order {@code weir run} has always reported
 * them; a job that is built carries the defaults its commands rely on.
 */
class RunJobTest
{
    private static final Path INPUT = Path.of("events.csv");
    private static final Path RESULTS = Path.of("out", "results.csv");
    private static final String URL = "jdbc:postgresql://127.0.0.1:1/x";

    @Test
    void aJobTheFlagsAllowIsBuiltWithItsDefaults()
    {
        final RunJob job = valid().build();
        assertTrue(job.temporaryJournal());
        assertEquals(PostgresSink.DEFAULT_TABLE, job.jdbcTable());
        assertEquals(PostgresSink.DEFAULT_BATCH, job.jdbcBatch());
        assertEquals(PartitionedResults.Format.csv, job.format());
        assertEquals(1_000_000, job.processing().checkpointEvery);

        final RunJob delivering = valid().journal(Path.of("j")).jdbc(URL, "t", 7).build();
        assertEquals("t", delivering.jdbcTable());
        assertEquals(7, delivering.jdbcBatch());
    }

    @Test
    void rejectedLinesGoBesideTheResultsUnlessGiven()
    {
        assertEquals(Path.of("out", "results.csv.rejected.csv"), valid().build().rejectedFile());
        assertEquals(Path.of("r.csv"), valid().rejected(Path.of("r.csv")).build().rejectedFile());
        assertEquals(Path.of("parts", "rejected.csv"), valid().results(null).outputDir(Path.of("parts")).build().rejectedFile());
        assertEquals(Path.of("rejected.csv"), valid().results(null).journal(Path.of("j")).jdbc(URL, null, null).build().rejectedFile());
    }

    @Test
    void eachRefusedCombinationHasItsMessage()
    {
        assertRefused(b -> b.window(window(LatePolicy.SIDE)), "--late side needs --late-output FILE");
        assertRefused(b -> b.outputDir(Path.of("parts")), "give one of --results FILE and --output-dir DIR, not both");
        assertRefused(b -> b.results(null), "give --results FILE, --output-dir DIR or --jdbc-url URL");
        assertRefused(b -> b.jdbc(null, "t", null), "--jdbc-table and --jdbc-batch need --jdbc-url");
        assertRefused(b -> b.jdbc(null, null, 5), "--jdbc-table and --jdbc-batch need --jdbc-url");
        assertRefused(b -> b.input(null), "give --input FILE, --journal DIR, or both");
        assertRefused(b -> b.follow(true), "--follow needs --journal DIR (a temporary journal is deleted when the run ends)");
        assertRefused(b -> b.jdbc(URL, null, null), "--jdbc-url needs --journal DIR: the database's offsets refer to the journal, "
            + "and a temporary one is deleted when the run ends");
        assertRefused(b -> b.processing(checkpointEvery(0)), "--checkpoint-every must be > 0: 0");
    }

    @Test
    void retentionNeedsFollowAndNoFileRewrittenFromTheOutputJournal()
    {
        final UnaryOperator<RunJob.Builder> following = b -> b.results(null).journal(Path.of("j")).follow(true).jdbc(URL, null, null);
        final RunJob job = following.apply(valid()).retention(7_200_000L, Path.of("archive")).build();
        assertEquals(7_200_000L, job.retentionMs());
        assertEquals(Path.of("archive"), job.archive());
        assertEquals(-1, following.apply(valid()).build().retentionMs());
        assertRefused(b -> following.apply(b).follow(false).retention(60_000L, null),
            "--retention needs --follow: a bounded run ends; apply retention with weir retain --journal DIR --keep DURATION");
        assertRefused(b -> following.apply(b).retention(null, Path.of("archive")),
            "--archive needs --retention DURATION (to archive cycles once, use weir retain --archive)");
        assertRefused(b -> following.apply(b).retention(-1L, null), "--retention cannot be negative: -1 ms");
        final String rewritten = " cannot go with --retention: a following run writes that export at its stop from the results and late "
            + "events its output journal still holds, and retention removes the oldest of them; deliver the results with --jdbc-url (the "
            + "database keeps them), or export before applying weir retain";
        assertRefused(b -> following.apply(b).results(RESULTS).retention(60_000L, null), "--results" + rewritten);
        assertRefused(b -> following.apply(b).outputDir(Path.of("parts")).retention(60_000L, null), "--output-dir" + rewritten);
        assertRefused(b -> following.apply(b).lateOutput(Path.of("late.csv")).retention(60_000L, null), "--late-output" + rewritten);
    }

    @Test
    void theFirstProblemIsTheOneReported()
    {
        // every problem at once: the late-output one comes first, as it always has
        final UnaryOperator<RunJob.Builder> all = b -> b.window(window(LatePolicy.SIDE)).outputDir(Path.of("parts")).input(null)
            .follow(true).processing(checkpointEvery(-1));
        assertRefused(all, "--late side needs --late-output FILE");
        assertRefused(b -> all.apply(b).lateOutput(Path.of("late.csv")), "give one of --results FILE and --output-dir DIR, not both");
        assertRefused(b -> all.apply(b).lateOutput(Path.of("late.csv")).outputDir(null), "give --input FILE, --journal DIR, or both");
        assertRefused(b -> all.apply(b).lateOutput(Path.of("late.csv")).outputDir(null).input(INPUT),
            "--follow needs --journal DIR (a temporary journal is deleted when the run ends)");
        assertRefused(b -> all.apply(b).lateOutput(Path.of("late.csv")).outputDir(null).journal(Path.of("j")),
            "--checkpoint-every must be > 0: -1");
        assertRefused(b -> b.results(null).jdbc(null, "t", null).input(null), "give --results FILE, --output-dir DIR or --jdbc-url URL");
        assertRefused(b -> b.jdbc(null, "t", null).input(null), "--jdbc-table and --jdbc-batch need --jdbc-url");
    }

    private static void assertRefused(final UnaryOperator<RunJob.Builder> change, final String message)
    {
        final BadInputException refused = assertThrows(BadInputException.class, () -> change.apply(valid()).build());
        assertEquals(message, refused.getMessage());
    }

    @Test
    void lateEventsGoToPostgresLateTableWithTheSideOutputAndADatabase()
    {
        final UnaryOperator<RunJob.Builder> postgres = b -> b.journal(Path.of("j")).jdbc(URL, null, null);
        assertEquals(dev.weir.postgres.PostgresSink.DEFAULT_LATE_TABLE, postgres.apply(valid()).window(window(LatePolicy.SIDE)).build().jdbcLateTable(),
            "--late side with --jdbc-url needs no --late-output: the late-events table takes them");
        assertEquals("late", postgres.apply(valid()).window(window(LatePolicy.SIDE)).jdbcLateTable("late").build().jdbcLateTable());
        assertEquals(null, postgres.apply(valid()).build().jdbcLateTable(), "late events dropped: no table");
        assertRefused(b -> postgres.apply(b).jdbcLateTable("late"), "--jdbc-late-table needs --jdbc-url and --late side");
        assertRefused(b -> b.window(window(LatePolicy.SIDE)).lateOutput(Path.of("late.csv")).jdbcLateTable("late"),
            "--jdbc-late-table needs --jdbc-url and --late side");
    }

    /** An input, a temporary journal, a results CSV, a tumbling window that drops late events. */
    private static RunJob.Builder valid()
    {
        return RunJob.builder().input(INPUT).results(RESULTS).window(window(LatePolicy.DROP));
    }

    private static WindowOptions window(final LatePolicy late)
    {
        final WindowOptions window = new WindowOptions();
        window.window = TumblingWindows.of(1_000);
        window.latePolicy = late;
        return window;
    }

    private static ProcessingOptions checkpointEvery(final long events)
    {
        final ProcessingOptions processing = new ProcessingOptions();
        processing.checkpointEvery = events;
        return processing;
    }
}
