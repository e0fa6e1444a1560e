package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.testsupport.ChildJvm;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir run --follow} in a child JVM, with a real fault: its checkpoints directory replaced by a
 * plain file, so no checkpoint can be written. A stage that fails while following ends the process at
 * once, with the cause on stderr and exit code 1; a stop by SIGTERM whose final checkpoint or export fails
 * prints the cause and exits 1, not the 143 of a clean SIGTERM stop.
 */
@Tag("slow")
class FollowFailureTest
{
    private static final long TIMEOUT_S = 120;

    @TempDir
    Path dir;

    @Test
    void aFollowingRunWhoseCheckpointCannotBeWrittenExitsWithTheCause() throws Exception
    {
        final Path journal = dir.resolve("journal");
        append(journal, 0, 1_000);
        final Child child = follow(journal, dir.resolve("results.csv"));
        try
        {
            child.awaitFollowing(journal);
            breakCheckpoints(journal);
            append(journal, 1_000, 3_000); // due checkpoints now fail
            assertFailedWith(child, "checkpoint"); // it exits, not stays up processing nothing
        }
        finally
        {
            child.process.destroyForcibly();
        }
    }

    @Test
    void aSigtermStopWhoseFinalCheckpointFailsPrintsTheCauseAndExitsOne() throws Exception
    {
        final Path journal = dir.resolve("journal");
        append(journal, 0, 1_000);
        final Child child = follow(journal, dir.resolve("results.csv"));
        try
        {
            child.awaitFollowing(journal);
            breakCheckpoints(journal); // nothing more is appended: only the stop's checkpoint meets the fault
            child.process.destroy(); // SIGTERM
            assertFailedWith(child, "checkpoint"); // a failed stop is not a clean SIGTERM stop (143)
            assertFalse(Files.exists(dir.resolve("results.csv")), "nothing is exported after a failed stop");
        }
        finally
        {
            child.process.destroyForcibly();
        }
    }

    @Test
    void aSigtermStopWhoseExportFailsPrintsTheCauseAndExitsOne() throws Exception
    {
        final Path journal = dir.resolve("journal");
        append(journal, 0, 1_000);
        final Path out = Files.createDirectory(dir.resolve("out"));
        final Child child = follow(journal, out.resolve("results.csv"));
        try
        {
            child.awaitFollowing(journal);
            Files.delete(out);
            Files.writeString(out, "not a directory\n"); // the export at the stop cannot write its file
            child.process.destroy(); // SIGTERM
            assertFailedWith(child, "results.csv"); // a failed stop is not a clean SIGTERM stop (143)
        }
        finally
        {
            child.process.destroyForcibly();
        }
    }

    @Test
    void aCleanSigtermStopCheckpointsExportsAndExits143() throws Exception
    {
        final Path journal = dir.resolve("journal");
        append(journal, 0, 3_000);
        final Path results = dir.resolve("results.csv");
        final Child child = follow(journal, results);
        try
        {
            child.awaitFollowing(journal);
            child.process.destroy(); // SIGTERM
            assertTrue(child.process.waitFor(TIMEOUT_S, TimeUnit.SECONDS), "stopped:\n" + child.output());
            assertEquals(143, child.process.exitValue(), child.output());
            assertTrue(child.stdout().contains("\nwindows fired "), "the summary is printed:\n" + child.output());
            assertTrue(child.stdout().lines().anyMatch(l -> l.matches("events/s +[0-9,]+ \\(of busy time\\)"))
                && child.stdout().lines().anyMatch(l -> l.matches("busy +[0-9]+\\.[0-9] s \\(with events to process\\)")),
                "a follower's events/s counts its busy time:\n" + child.output());
            assertFalse(child.stderr().contains("failed"), child.output());
            assertTrue(Files.readAllLines(results).size() > 1, "the results are exported");
        }
        finally
        {
            child.process.destroyForcibly();
        }
    }

    /** Events i in [from, to): 10 keys, 1 ms apart. */
    /** A following {@code weir run} on the journal, checkpointing every 50 events, exporting to {@code results}. */
    private Child follow(final Path journal, final Path results) throws IOException
    {
        return Child.start(dir, "run", "--journal", journal.toString(), "--window", "tumbling:1s", "--follow",
            "--checkpoint-every", "50", "--results", results.toString());
    }

    /** The child exits within the timeout with code 1 and {@code weir: failed:} naming the cause on stderr. */
    private static void assertFailedWith(final Child child, final String cause) throws Exception
    {
        assertTrue(child.process.waitFor(TIMEOUT_S, TimeUnit.SECONDS), "the run must exit:\n" + child.output());
        assertEquals(1, child.process.exitValue(), "a failure exits 1 (not 143, not 0):\n" + child.output());
        final String err = child.stderr();
        assertTrue(err.contains("weir: failed:") && err.contains(cause), "the cause (" + cause + ") is on stderr:\n" + child.output());
    }

    private static void append(final Path journal, final int from, final int to)
    {
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int i = from; i < to; i++)
            {
                writer.append(i, i, "k" + i % 10, i);
            }
        }
    }

    /** The fault: the checkpoints directory moved away and a plain file in its place (root ignores permissions). */
    private static void breakCheckpoints(final Path journal) throws IOException
    {
        final Path checkpoints = JournalDirectory.open(journal).checkpoints();
        Files.move(checkpoints, journal.resolve("checkpoints.moved"), StandardCopyOption.ATOMIC_MOVE);
        Files.writeString(checkpoints, "not a directory\n");
    }

    /** A child JVM running the weir command line, its stdout and stderr in separate files. */
    private static final class Child
    {
        final Process process;
        final Path out;
        final Path err;

        private Child(final Process process, final Path out, final Path err)
        {
            this.process = process;
            this.out = out;
            this.err = err;
        }

        static Child start(final Path dir, final String... weirArgs) throws IOException
        {
            final List<String> command = ChildJvm.weir("256m", weirArgs);
            final Path out = dir.resolve("child.out");
            final Path err = dir.resolve("child.err");
            return new Child(new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start(), out, err);
        }

        /** Until it follows and has written a checkpoint of every event appended so far. */
        void awaitFollowing(final Path journal) throws Exception
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
            final Path checkpoints = JournalDirectory.open(journal).checkpoints();
            while (!(stdout().contains("Following the journal") && hasCheckpoint(checkpoints)))
            {
                assertTrue(process.isAlive(), "the child exited early:\n" + output());
                assertTrue(System.nanoTime() < deadline, "the child does not follow:\n" + output());
                Thread.sleep(20);
            }
        }

        private static boolean hasCheckpoint(final Path checkpoints) throws IOException
        {
            if (!Files.isDirectory(checkpoints))
            {
                return false;
            }
            try (Stream<Path> files = Files.list(checkpoints))
            {
                return files.anyMatch(f -> !f.getFileName().toString().startsWith("."));
            }
        }

        String stdout() throws IOException
        {
            return Files.readString(out);
        }

        String stderr() throws IOException
        {
            return Files.readString(err);
        }

        String output() throws IOException
        {
            return "stdout:\n" + stdout() + "stderr:\n" + stderr();
        }
    }
}
