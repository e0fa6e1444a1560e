package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.weir.journal.JournalClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Columns added to a retained journal: a minutely journal ingested with four columns, then with the two columns
 * {@link AddedColumnsCsv#ADDED} (the only cycle that defines most of their strings), then more, with
 * {@code weir retain --archive} after the addition and again later, so that the cycle that added the columns and
 * defined their strings is archived and the history base written before and after the addition is moved on.
 * A new pipeline keyed by an added column over what the journal still holds, and {@code weir replay --archive}
 * over the whole history, must give the rows of a journal created with the six columns (the first events carrying
 * the defaults written out). The journal's clock is settable, so that each ingest falls in a cycle of its own.
 */
class AddedColumnsRetainedTest
{
    private static final long T0 = 1_764_000_000_000L; // a whole minute
    private static final long SEED = 31;
    private static final String[] BY_CHANNEL = {"--key", "channel,merchant", "--value", "amount - fee", "--where", "channel != 'app'",
        "--window", "tumbling:200ms"};
    private static final String[] WEB = {"--key", "channel", "--value", "fee", "--where", "channel = 'web'", "--window", "tumbling:200ms"};

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(T0 + 1_000);

    @AfterEach
    void systemClock()
    {
        JournalClock.useForTests(null);
    }

    @Test
    void aRetainedJournalThatGainedColumnsKeepsTheirStringsInItsHistoryBaseAndArchive() throws IOException
    {
        final Path journal = dir.resolve("journal");
        final Path archive = dir.resolve("archive");
        JournalClock.useForTests(JournalClock.of(now::get));
        ingest(journal, 0, 600, AddedColumnsCsv.Shape.FOUR, "--columns", AddedColumnsCsv.FOUR, "--roll-cycle", "minutely");
        now.addAndGet(60_000);
        ingest(journal, 600, 1_200, AddedColumnsCsv.Shape.SIX, "--columns", AddedColumnsCsv.SIX);
        now.addAndGet(60_000);
        ingest(journal, 1_200, 1_800, AddedColumnsCsv.Shape.SIX);
        now.addAndGet(100_000); // the cycles of the first two ingests ended over 90 s ago, the third's not
        retain(journal, archive);
        now.addAndGet(60_000);
        ingest(journal, 1_800, 2_400, AddedColumnsCsv.Shape.SIX);
        retain(journal, archive); // the third ingest's cycle too
        assertTrue(Files.exists(journal.resolve("history.base")), "a history base");
        Files.delete(journal.resolve("dictionaries.snapshot")); // a cache: without it, the strings come from the history base

        final Path kept = dir.resolve("kept");
        run(kept, 1_800, 2_400);
        final Path whole = dir.resolve("whole");
        run(whole, 0, 2_400);

        assertEquals(results(kept, "pipeline", BY_CHANNEL), results(journal, "pipeline", BY_CHANNEL),
            "a new pipeline keyed by an added column over what the retained journal holds");
        assertEquals(replay(whole, null, WEB), replay(journal, archive, WEB), "weir replay --archive over the whole history");
        assertEquals(replay(whole, null, BY_CHANNEL), replay(journal, archive, BY_CHANNEL), "weir replay --archive, two key columns");
    }

    /** Ingest events {@code [from, to)} into {@code journal} on the settable clock. */
    private void ingest(final Path journal, final int from, final int to, final AddedColumnsCsv.Shape shape, final String... flags)
        throws IOException
    {
        final Path in = dir.resolve("in-" + journal.getFileName() + "-" + from + ".csv");
        AddedColumnsCsv.write(in, from, to, SEED, shape);
        final List<String> args = new ArrayList<>(List.of("ingest", "--input", in.toString(), "--journal", journal.toString()));
        args.addAll(Arrays.asList(flags));
        final Cli ingest = Cli.run(args.toArray(String[]::new));
        assertEquals(0, ingest.exit(), ingest.out() + ingest.err());
    }

    private static void retain(final Path journal, final Path archive)
    {
        final Cli retain = Cli.run("retain", "--journal", journal.toString(), "--keep", "90s", "--archive", archive.toString());
        assertEquals(0, retain.exit(), retain.out() + retain.err());
        assertTrue(retain.out().contains("archived events"), retain.out());
    }

    /** A reference journal of the six columns, events {@code [from, to)}, the first 600 carrying the defaults written out. */
    private void run(final Path reference, final int from, final int to) throws IOException
    {
        JournalClock.useForTests(null);
        final Path in = dir.resolve("in-" + reference.getFileName() + ".csv");
        for (int start = from; start < to; start += 600)
        {
            AddedColumnsCsv.write(in, start, start + 600, SEED, start < 600 ? AddedColumnsCsv.Shape.SIX_DEFAULTS : AddedColumnsCsv.Shape.SIX);
            final Cli ingest = Cli.run("ingest", "--input", in.toString(), "--journal", reference.toString(), "--columns", AddedColumnsCsv.SIX);
            assertEquals(0, ingest.exit(), ingest.out() + ingest.err());
            Files.move(in, dir.resolve("in-" + reference.getFileName() + "-" + start + ".csv"));
        }
    }

    private List<String> results(final Path journal, final String pipeline, final String... flags) throws IOException
    {
        final Path out = dir.resolve("results-" + journal.getFileName() + ".csv");
        final List<String> args = new ArrayList<>(List.of("run", "--journal", journal.toString(), "--pipeline", pipeline, "--results",
            out.toString()));
        args.addAll(Arrays.asList(flags));
        final Cli run = Cli.run(args.toArray(String[]::new));
        assertEquals(0, run.exit(), run.out() + run.err());
        return Files.readAllLines(out);
    }

    private List<String> replay(final Path journal, final Path archive, final String... flags) throws IOException
    {
        final Path out = dir.resolve("replay-" + journal.getFileName() + "-" + flags[1] + ".csv");
        final List<String> args = new ArrayList<>(List.of("replay", "--journal", journal.toString(), "--results", out.toString()));
        if (archive != null)
        {
            args.addAll(List.of("--archive", archive.toString()));
        }
        args.addAll(Arrays.asList(flags));
        final Cli replay = Cli.run(args.toArray(String[]::new));
        assertEquals(0, replay.exit(), replay.out() + replay.err());
        final List<String> rows = Files.readAllLines(out);
        assertTrue(rows.size() > 10, "rows: " + rows.size());
        return rows;
    }
}
