package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.weir.csv.CsvLineParser;
import dev.weir.testsupport.ChildJvm;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bounded {@code weir run} ends with the watermark at +infinity: a later run that resumes from that checkpoint
 * would find every new event late. Such a run is refused with exit 2 and one line that says why and what to do
 * (a following run always; a bounded one when the journal holds events after the checkpoint), unless it is given
 * {@code --resume-after-end}; a rerun with nothing new is not refused.
 */
@Tag("slow")
class ResumeAfterEndTest
{
    private static final long TIMEOUT_S = 120;
    private static final String[] WINDOW = {"--window", "tumbling:1s", "--out-of-orderness", "100ms", "--late", "side"};

    @TempDir
    Path dir;

    private Path journal;
    private Path firstDay;
    private Path secondDay;

    @BeforeEach
    void runABoundedRunOverTheFirstDay() throws IOException
    {
        journal = dir.resolve("journal");
        firstDay = events("first.csv", 0, 1_000);
        secondDay = events("second.csv", 1_000, 2_000);
        final Cli first = run(firstDay, "first.csv.out");
        assertEquals(0, first.exit(), first.out() + first.err());
    }

    @Test
    void aFollowingRunAfterABoundedRunIsRefusedBeforeItFollows() throws Exception
    {
        final String right = refusedFollower();
        assertTrue(right.contains("every event appended from now on would be late"), right);

        assertEquals(0, Cli.run("ingest", "--input", secondDay.toString(), "--journal", journal.toString()).exit());
        final String after = refusedFollower();
        assertTrue(after.startsWith("weir: pipeline default resumes from checkpoint #") && after.contains("the 2,000 events after it would all be late")
            && after.contains("--pipeline NAME") && after.contains("--resume-after-end"), after);
        assertEquals(1, after.lines().count(), after);
        assertFalse(Files.exists(dir.resolve("late.csv")), "nothing was processed");
    }

    @Test
    void aBoundedRunThatIngestsMoreIsRefusedKeepsTheEventsAndANewPipelineProcessesThem() throws IOException
    {
        final Cli more = run(secondDay, "second.csv.out");
        assertEquals(WeirCommand.USAGE, more.exit(), more.out() + more.err());
        assertTrue(more.err().contains("the 2,000 events after it would all be late") && more.err().contains("the 2,000 events this run ingested stay in the journal"),
            more.err());
        assertFalse(Files.exists(dir.resolve("second.csv.out")), "nothing was processed or exported");

        final Cli all = Cli.run(concat(new String[] {"run", "--journal", journal.toString(), "--pipeline", "all", "--results",
            dir.resolve("all.csv").toString(), "--late-output", dir.resolve("all.late.csv").toString()}, WINDOW));
        assertEquals(0, all.exit(), all.out() + all.err());
        final List<String> rows = Files.readAllLines(dir.resolve("all.csv"));
        assertEquals(1 + 3, rows.size(), "the new pipeline processes both files, one window per second:\n" + rows);
        assertTrue(rows.get(3).startsWith("2000,3000,k,1000,"), rows.toString());

        final Cli accepted = Cli.run(concat(new String[] {"run", "--journal", journal.toString(), "--resume-after-end",
            "--late-output", dir.resolve("late.csv").toString(), "--results", dir.resolve("accepted.csv").toString()}, WINDOW));
        assertEquals(0, accepted.exit(), accepted.out() + accepted.err());
        assertEquals(1 + 2_000, Files.readAllLines(dir.resolve("late.csv")).size(), "accepted: every new event is late, as asked");
    }

    @Test
    void aRerunWithNothingNewIsNotRefused()
    {
        final Cli again = run(firstDay, "again.csv");
        assertEquals(0, again.exit(), again.out() + again.err());
        assertTrue(again.out().contains("esum"), again.out());
        final Cli noInput = Cli.run(concat(new String[] {"run", "--journal", journal.toString(), "--results", dir.resolve("b.csv").toString(),
            "--late-output", dir.resolve("b.late.csv").toString()}, WINDOW));
        assertEquals(0, noInput.exit(), noInput.out() + noInput.err());
    }

    /**
     * Start {@code weir run --follow} in a child JVM (in this one, a following run would never end)
     * and wait for it to exit.
     *
     * @return what it printed on standard error.
     */
    private String refusedFollower() throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(ChildJvm.weir("256m", "run", "--journal", journal.toString(), "--follow",
            "--late-output", dir.resolve("late.csv").toString(), "--results", dir.resolve("followed.csv").toString()));
        command.addAll(List.of(WINDOW));
        final Path out = dir.resolve("child.out");
        final Path err = dir.resolve("child.err");
        final Process follower = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
            while (follower.isAlive())
            {
                assertFalse(Files.readString(out).contains("Following the journal"),
                    "a following run resumed from the end of a bounded input, where every new event is late:\n" + Files.readString(out));
                assertTrue(System.nanoTime() < deadline, "the run neither follows nor exits");
                follower.waitFor(20, TimeUnit.MILLISECONDS);
            }
            assertEquals(WeirCommand.USAGE, follower.exitValue(), Files.readString(out) + Files.readString(err));
            return Files.readString(err);
        }
        finally
        {
            follower.destroyForcibly();
        }
    }

    private Cli run(final Path input, final String results)
    {
        return Cli.run(concat(new String[] {"run", "--input", input.toString(), "--journal", journal.toString(), "--results",
            dir.resolve(results).toString(), "--late-output", dir.resolve(results + ".late").toString()}, WINDOW));
    }

    /** {@code count} events of key k, value 1, one per ms from {@code from} ms. */
    private Path events(final String name, final int from, final int count) throws IOException
    {
        final List<String> lines = new ArrayList<>(List.of(CsvLineParser.DEFAULT_HEADER));
        for (int i = from; i < from + count; i++)
        {
            lines.add(i + "," + i + ",k,1");
        }
        return Files.write(dir.resolve(name), lines);
    }

    private static String[] concat(final String[] head, final String[] tail)
    {
        final String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }
}
