package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.testsupport.ChildJvm;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test clock of the system properties {@code weir.clock.origin} and {@code weir.clock.scale}, in real
 * {@code weir ingest} processes: at ×60 a minutely cycle lasts a wall second, so ingests a second or more apart
 * go to cycle files of their own, named for the scaled time; {@code weir inspect} (on the system clock) lists them.
 */
@Tag("slow")
class ScaledClockChildTest
{
    @TempDir
    Path dir;

    @Test
    void ingestsInChildJvmsOnAScaledClockGoToCycleFilesOfTheirOwn() throws Exception
    {
        final long origin = System.currentTimeMillis();
        final Path journal = dir.resolve("journal");
        final int ingests = 3;
        for (int i = 0; i < ingests; i++)
        {
            final Path input = dir.resolve("part" + i + ".csv");
            Files.writeString(input, "event_id,event_time,key,value\n" + (2 * i) + ",1000,a,1\n" + (2 * i + 1) + ",2000,b,2\n");
            final List<String> command = ChildJvm.weir("256m", "ingest", "--input", input.toString(), "--journal", journal.toString(),
                "--roll-cycle", "minutely");
            command.add(1, "-D" + JournalClock.ORIGIN_PROPERTY + "=" + origin);
            command.add(2, "-D" + JournalClock.SCALE_PROPERTY + "=60");
            run(command);
            Thread.sleep(1_100); // more than a minute of the child's clock
        }
        final long wallEnd = System.currentTimeMillis();

        final List<JournalCycles.Cycle> cycles = JournalCycles.events(JournalDirectory.open(journal)).cycles();
        assertTrue(cycles.size() >= ingests, String.valueOf(cycles)); // an ingest could straddle a boundary, but each is ms
        long documents = 0;
        for (final JournalCycles.Cycle cycle : cycles)
        {
            documents += cycle.documents();
            // named for the scaled time: after the origin, and no later than the scaled end
            assertTrue(cycle.startMillis() + 60_000 > origin && cycle.startMillis() <= origin + (wallEnd - origin) * 60, cycle.toString());
        }
        assertEquals(ingests * 2, documents, "each ingest's start record and its two events, in one batched document");
        assertTrue(cycles.get(cycles.size() - 1).startMillis() > System.currentTimeMillis() + 60_000,
            "the last cycle is minutes ahead of the wall clock");

        final Cli inspect = Cli.run("inspect", journal.toString());
        assertEquals(0, inspect.exit(), inspect.err());
        assertTrue(inspect.out().contains("disk         events: " + cycles.size() + " cycle files"), inspect.out());
    }

    private static void run(final List<String> command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
    }
}
