package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.Pipeline;
import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalRefusedException;
import dev.weir.testsupport.ChildJvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One appender per journal, enforced with a lock that a crash releases (issue 12, defect 10): a second
 * appender of events ({@code weir ingest}, {@code weir run --input}, the Java API) or of outputs (a second
 * {@code weir run}) is refused with a clear error and exit 2, while readers (a following run beside an
 * ingest) are not; after the holder is killed with SIGKILL, the next appender proceeds.
 */
class AppendLockTest
{
    @TempDir
    Path dir;

    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killChildren()
    {
        children.forEach(Process::destroyForcibly);
    }

    @Test
    void aSecondEventAppenderIsRefusedAndAKilledHolderReleasesTheJournal() throws Exception
    {
        final Path journal = dir.resolve("journal");
        final Path input = dir.resolve("events.csv");
        Files.write(input, List.of("event_id,event_time,key,value", "1,1000,a,1", "2,2000,a,2"));
        final Path log = dir.resolve("child.log");
        final Process child = start(AppenderChild.class, log, journal.toString());
        awaitLine(child, log, "appending");

        final Cli ingest = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString());
        assertEquals(2, ingest.exit(), ingest.out() + ingest.err());
        assertTrue(ingest.err().contains("its events queue already has an appender (process " + child.pid() + ")"), ingest.err());
        assertEquals(1, ingest.errorLines(), ingest.err());
        final Cli run = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--window", "tumbling:10s",
            "--results", dir.resolve("r.csv").toString());
        assertEquals(2, run.exit(), run.out() + run.err());
        assertTrue(run.err().contains("already has an appender"), run.err());
        final JournalRefusedException api = assertThrows(JournalRefusedException.class, () -> EventJournal.openOrCreate(journal));
        assertTrue(api.getMessage().contains("already has an appender"), api.getMessage());
        try (Pipeline pipeline = Weir.pipeline().journal(journal).window(TumblingWindows.of(10_000)).build())
        {
            assertThrows(JournalRefusedException.class, () -> pipeline.append(9, 9_000, "x", 9));
        }

        final Cli reader = Cli.run("run", "--journal", journal.toString(), "--window", "tumbling:10s", "--results", dir.resolve("r.csv").toString());
        assertEquals(0, reader.exit(), "processing reads the events, it does not append to them: " + reader.err());

        child.destroyForcibly(); // SIGKILL: the lock goes with the process
        assertTrue(child.waitFor(120, TimeUnit.SECONDS));
        final Cli after = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString());
        assertEquals(0, after.exit(), after.out() + after.err());
        assertEquals(List.of("1,1000,child,1", "1,1000,a,1", "2,2000,a,2"), JournalContents.events(journal));
    }

    @Test
    void aSecondRunWritingTheSameOutputsIsRefusedWhileAnIngestBesideAFollowingRunIsNot() throws Exception
    {
        final Path journal = dir.resolve("journal");
        final Path input = dir.resolve("events.csv");
        Files.write(input, List.of("event_id,event_time,key,value", "1,1000,a,1"));
        assertEquals(0, Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString()).exit());
        final Path log = dir.resolve("follow.log");
        final Process follower = start(WeirCommand.class, log,
            "run", "--journal", journal.toString(), "--follow", "--window", "tumbling:10s", "--results", dir.resolve("f.csv").toString());
        awaitLine(follower, log, "Following the journal");

        final Cli second = Cli.run("run", "--journal", journal.toString(), "--window", "tumbling:10s", "--results", dir.resolve("r.csv").toString());
        assertEquals(2, second.exit(), second.out() + second.err());
        assertTrue(second.err().contains("its results queue already has an appender (process " + follower.pid() + ")"), second.err());

        final Path other = dir.resolve("other.csv");
        Files.write(other, List.of("event_id,event_time,key,value", "7,7000,a,7"));
        final Cli secondWithInput = Cli.run("run", "--input", other.toString(), "--journal", journal.toString(), "--window", "tumbling:10s",
            "--results", dir.resolve("r.csv").toString());
        assertEquals(2, secondWithInput.exit(), secondWithInput.out() + secondWithInput.err());
        assertTrue(secondWithInput.err().contains("its results queue already has an appender"), secondWithInput.err());
        assertEquals(List.of("1,1000,a,1"), JournalContents.events(journal), "refused before it ingested anything");

        final Path more = dir.resolve("more.csv");
        Files.write(more, List.of("event_id,event_time,key,value", "2,2000,a,2"));
        final Cli beside = Cli.run("ingest", "--input", more.toString(), "--journal", journal.toString());
        assertEquals(0, beside.exit(), "an ingest beside a following run: " + beside.out() + beside.err());

        follower.destroyForcibly();
        assertTrue(follower.waitFor(120, TimeUnit.SECONDS));
        final Cli after = Cli.run("run", "--journal", journal.toString(), "--window", "tumbling:10s", "--results", dir.resolve("r.csv").toString());
        assertEquals(0, after.exit(), after.out() + after.err());
        assertEquals(List.of("window_start,window_end,key,count,sum,min,max,version", "0,10000,a,2,3,1,2,0"),
            Files.readAllLines(dir.resolve("r.csv")));
    }

    @Test
    void aRefusalInTheHoldersOwnProcessKeepsTheLockAgainstOtherProcesses() throws Exception
    {
        final Path journal = dir.resolve("journal");
        try (EventJournal held = EventJournal.openOrCreate(journal))
        {
            final JournalRefusedException refused = assertThrows(JournalRefusedException.class, () -> EventJournal.openOrCreate(journal));
            assertTrue(refused.getMessage().contains("(process " + ProcessHandle.current().pid() + ")"), refused.getMessage());
            final Path log = dir.resolve("child.log");
            final Process child = start(AppenderChild.class, log, journal.toString());
            assertTrue(child.waitFor(120, TimeUnit.SECONDS), () -> "another process is refused too, it does not append: " + read(log));
            assertTrue(read(log).contains("already has an appender (process " + ProcessHandle.current().pid() + ")"), () -> read(log));
        }
    }

    private Process start(final Class<?> main, final Path log, final String... args) throws IOException
    {
        final List<String> command = ChildJvm.command("256m", main, args);
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        children.add(process);
        return process;
    }

    private static void awaitLine(final Process child, final Path log, final String text) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!(Files.exists(log) && Files.readString(log).contains(text)))
        {
            assertTrue(child.isAlive(), () -> "the child ended: " + read(log));
            assertTrue(System.nanoTime() < deadline, () -> "the child did not say '" + text + "' in 120 s: " + read(log));
            Thread.sleep(50);
        }
    }

    private static String read(final Path log)
    {
        try
        {
            return Files.readString(log);
        }
        catch (final IOException ex)
        {
            return ex.toString();
        }
    }
}
