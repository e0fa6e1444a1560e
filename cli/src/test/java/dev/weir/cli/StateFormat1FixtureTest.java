package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.checkpoint.CheckpointCodec;
import dev.weir.journal.JournalDirectory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal written by an older Weir (commit 59f741a, {@code src/test/fixtures/state-v1}): a pipeline stopped
 * mid-way with a checkpoint whose engine state is in format 1, which this Weir cannot convert. {@code weir inspect}
 * says the next run rebuilds it by replay; {@code weir ingest} appends the rest of the input and {@code weir run}
 * rebuilds the state by replaying the journal from its start, verifying the rows already written instead of
 * writing them again, and ends with the rows of an uninterrupted run. A checkpoint written by a newer Weir is
 * refused with exit 2 naming both versions.
 */
class StateFormat1FixtureTest
{
    private static final Path FIXTURE = Path.of("src/test/fixtures/state-v1/state-v1.tar.gz");
    private static final String[] FLAGS = {"--window", "sliding:10s/5s", "--out-of-orderness", "2s", "--allowed-lateness", "3s",
        "--late", "side"};
    /** Rows the old Weir wrote before it stopped. */
    private static final int OLD_RESULTS = 195;

    @TempDir
    Path dir;

    private Path journal;

    @BeforeEach
    void untar() throws IOException, InterruptedException
    {
        final Process tar = new ProcessBuilder("tar", "-xzf", FIXTURE.toAbsolutePath().toString(), "-C", dir.toString())
            .redirectErrorStream(true).start();
        final String out = new String(tar.getInputStream().readAllBytes());
        assertTrue(tar.waitFor(120, TimeUnit.SECONDS) && tar.exitValue() == 0, "tar: " + out);
        journal = dir.resolve("journal");
    }

    @Test
    void theOlderWeirsPipelineIsRebuiltByReplayAndEndsWithTheRowsOfAnUninterruptedRun() throws IOException
    {
        final Cli before = Cli.run("inspect", journal.toString());
        assertEquals(0, before.exit(), before.err());
        final long first = firstDocument(before.out());
        assertTrue(before.out().contains("format       state format 1; the next run rebuilds it by replaying the journal from offset " + first
            + " (written by an older Weir, it cannot be converted)"), before.out());

        final Cli ingest = Cli.run("ingest", "--input", dir.resolve("part2.csv").toString(), "--journal", journal.toString());
        assertEquals(0, ingest.exit(), ingest.err());
        final Path results = dir.resolve("results.csv");
        final Path late = dir.resolve("late.csv");
        final Cli run = Cli.run(concat(new String[] {"run", "--journal", journal.toString(), "--results", results.toString(),
            "--late-output", late.toString()}, FLAGS));
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("checkpoint 2 of pipeline default: state format 1 was written by an older Weir and cannot be converted:"
            + " rebuilding it by replaying the journal from offset " + first), run.out());

        final List<String> expected = Files.readAllLines(dir.resolve("expected-results.csv"));
        final List<String> actual = Files.readAllLines(results);
        assertEquals(Files.readAllLines(dir.resolve("old-results.csv")), actual.subList(0, OLD_RESULTS + 1),
            "the rows the old Weir wrote stay as it wrote them");
        assertEquals(expected.subList(OLD_RESULTS + 1, expected.size()), actual.subList(OLD_RESULTS + 1, actual.size()),
            "every row after them as an uninterrupted run writes it");
        assertEquals(sorted(expected), sorted(actual), "the old Weir's rows are an uninterrupted run's, in another order within a start");
        assertEquals(Files.readAllLines(dir.resolve("expected-late.csv")), Files.readAllLines(late));

        final Cli after = Cli.run("inspect", journal.toString());
        assertTrue(after.out().contains("format       state format 2; the next run resumes from it"), after.out());
    }

    @Test
    void aConfigurationChangeIsStillRefused()
    {
        final String[] other = FLAGS.clone();
        other[5] = "4s";
        final Cli run = Cli.run(concat(new String[] {"run", "--journal", journal.toString(), "--results", dir.resolve("r.csv").toString(),
            "--late-output", dir.resolve("l.csv").toString()}, other));
        assertEquals(2, run.exit(), run.out());
        assertTrue(run.err().startsWith("weir: ") && run.err().contains("allowedLateness=3000") && run.err().contains("allowedLateness=4000"),
            run.err());
    }

    @Test
    void aCheckpointStateWrittenByANewerWeirIsRefusedWithExit2NamingBothVersions()
    {
        final CheckpointStore store = new CheckpointStore(JournalDirectory.open(journal).checkpoints(), 3);
        final ByteBuffer payload = store.loadNewestValid().payload().order(ByteOrder.LITTLE_ENDIAN);
        payload.putInt(CheckpointCodec.stateStart(payload), 9);
        store.write(payload);
        final Cli run = Cli.run(concat(new String[] {"run", "--journal", journal.toString(), "--results", dir.resolve("r.csv").toString(),
            "--late-output", dir.resolve("l.csv").toString()}, FLAGS));
        assertEquals(2, run.exit(), run.out() + run.err());
        assertTrue(run.err().startsWith("weir: ") && run.err().contains("checkpoint state version 9, written by a newer Weir")
            && run.err().contains("versions up to 5"), run.err());
    }

    private static long firstDocument(final String inspect)
    {
        final int at = inspect.indexOf("(documents ");
        return Long.parseLong(inspect.substring(at + "(documents ".length(), inspect.indexOf("..", at)));
    }

    private static List<String> sorted(final List<String> rows)
    {
        final List<String> copy = new ArrayList<>(rows);
        copy.sort(null);
        return copy;
    }

    private static String[] concat(final String[] a, final String[] b)
    {
        final String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
