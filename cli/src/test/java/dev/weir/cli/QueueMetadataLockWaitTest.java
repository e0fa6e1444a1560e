package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.weir.testsupport.KillHarness;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code weir run} that opens its pipeline's output queue while another process holds the queue's metadata lock
 * (the operating-system lock Chronicle takes on byte {@code Long.MAX_VALUE - 1} of {@code metadata.cq4t} for every
 * open) longer than Chronicle's default 10 s waits for it and completes, rather than exiting 2 with "Unable to claim
 * exclusive lock" (seen in {@link PipelinesFollowKillTest} on a loaded machine). This test process is the holder: it
 * takes the lock before the child starts, waits until the child has mapped the file (it is then at the lock), holds it
 * {@value #HELD_AFTER_MAPPED_MS} ms more, and releases it. Linux only (it reads {@code /proc/PID/maps}).
 */
@Tag("slow")
class QueueMetadataLockWaitTest
{
    /** Longer than Chronicle's own default wait for the lock (10 s), which the child must outlast. */
    private static final long HELD_AFTER_MAPPED_MS = 12_000;
    /** Chronicle's table store lock: one byte at the end of the file's range. */
    private static final long LOCK_START = Long.MAX_VALUE - 1;

    @TempDir
    Path dir;

    @Test
    void aRunWaitsForTheMetadataLockOfItsOutputQueueHeldByAnotherProcess() throws Exception
    {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "reads /proc/PID/maps");
        final Path input = dir.resolve("events.csv");
        KillHarness.writeEvents(input, 2_000, 20, 7);
        final Path journal = dir.resolve("journal");
        run("ingest", "ingest", "--input", input.toString(), "--journal", journal.toString(),
            "--rejected", dir.resolve("rejected.csv").toString());
        final String[] run = {"run", "--journal", journal.toString(), "--pipeline", "spend", "--results", dir.resolve("results.csv").toString(),
            "--window", "tumbling:500ms", "--out-of-orderness", "400ms"};
        run("first-run", run); // creates the pipeline's output queue
        final Path metadata = journal.resolve("pipelines").resolve("spend").resolve("results").resolve("metadata.cq4t");
        assertTrue(Files.isRegularFile(metadata), metadata + " exists");

        final Path log = dir.resolve("waiting-run.log");
        final Process child;
        try (FileChannel channel = FileChannel.open(metadata, StandardOpenOption.WRITE);
             FileLock held = channel.tryLock(LOCK_START, 1, false))
        {
            assertNotNull(held, "this process holds the metadata lock");
            child = KillHarness.startChild(run, log);
            final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (!maps(child.pid(), metadata))
            {
                assertTrue(child.isAlive(), "the child ended before it mapped " + metadata + ":\n" + Files.readString(log));
                assertTrue(System.nanoTime() < deadline, "the child did not map " + metadata + " in 5 minutes");
                Thread.sleep(10);
            }
            // the child maps the file, then takes the lock: it waits for it from now on
            assertFalse(child.waitFor(HELD_AFTER_MAPPED_MS, TimeUnit.MILLISECONDS),
                "the child gave up waiting for the metadata lock:\n" + Files.readString(log));
        }
        assertTrue(child.waitFor(5, TimeUnit.MINUTES), "the child ends once the lock is free");
        final String output = Files.readString(log);
        assertEquals(0, child.exitValue(), output);
        assertFalse(output.contains("Unable to claim"), output);
    }

    private void run(final String name, final String... args) throws Exception
    {
        final Path log = dir.resolve(name + ".log");
        final Process process = KillHarness.startChild(args, log);
        assertTrue(process.waitFor(5, TimeUnit.MINUTES), name + " ran for 5 minutes");
        assertEquals(0, process.exitValue(), Files.readString(log));
    }

    /** Whether a process maps the file (Chronicle maps a queue's metadata file before it takes its lock). */
    private static boolean maps(final long pid, final Path file)
    {
        try
        {
            final String path = file.toAbsolutePath().normalize().toString();
            final List<String> lines = Files.readAllLines(Path.of("/proc", Long.toString(pid), "maps"));
            return lines.stream().anyMatch(line -> line.endsWith(path));
        }
        catch (final IOException gone)
        {
            return false; // the process ended: the caller sees it
        }
    }
}
