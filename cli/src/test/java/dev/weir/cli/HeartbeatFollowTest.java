package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.csv.CsvLineParser;
import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.codec.EventConsumer;
import dev.weir.journal.codec.ResultDecoder;
import dev.weir.testsupport.KillHarness;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir run --follow --idle-timeout T} in a child JVM: an ingest stops, and the last window's result
 * appears in the output journal within T plus a bound, without new events, fired by a heartbeat the follower
 * appended; the follower is then killed with SIGKILL, more events are ingested beside its successor, which
 * closes their last window the same way and is stopped with SIGTERM; its exported results equal, row for
 * row and in order, those of a {@code weir replay} of the journal, which applies the same heartbeats. The
 * ingests' line accounting ignores the heartbeats (a rerun ingest appends nothing).
 */
@Tag("slow")
class HeartbeatFollowTest
{
    private static final long IDLE_TIMEOUT_MS = 2_000;
    /**
     * What the last window may take beyond T: the follower's polling, the pipeline, a loaded machine (a CI machine at
     * load 14 stalls a JVM for seconds); a heartbeat that waited ten idle timeouts would still be too late.
     */
    private static final long BOUND_MS = 10_000;
    private static final long WINDOW_MS = 500;
    private static final List<String> FLAGS = List.of("--window", "tumbling:500ms", "--out-of-orderness", "200ms");

    @TempDir
    Path dir;

    @Test
    void aQuietStreamsLastWindowClosesWithinTheIdleTimeoutAndAResumeAndAReplayAgree() throws Exception
    {
        final Path journal = dir.resolve("journal");
        final Path first = dir.resolve("first.csv");
        final Path second = dir.resolve("second.csv");
        final long firstNewest = writeEvents(first, 3_000, 100_000, 1);
        final long secondNewest = writeEvents(second, 2_000, firstNewest + 600_000, 2);

        JournalDirectory.openOrCreate(journal);
        final Process follower = startFollower(journal, "follower-1.log");
        awaitFollowing(follower, "follower-1.log");
        final long firstStarted = System.nanoTime();
        assertEquals(0, Cli.run("ingest", "--input", first.toString(), "--journal", journal.toString()).exit());
        final long firstStopped = System.nanoTime();
        final long firstLastOffset = lastOffset(journal);
        final long closed = awaitWindow(journal, follower, firstNewest - Math.floorMod(firstNewest, WINDOW_MS));
        final long firstLatency = TimeUnit.NANOSECONDS.toMillis(closed - firstStopped);
        assertTrue(firstLatency <= IDLE_TIMEOUT_MS + BOUND_MS, "the last window closed " + firstLatency + " ms after the ingest stopped");
        // the last event was appended after the ingest started, however long the ingest then took to end (a sync on a
        // busy disk): the heartbeat came an idle timeout after it
        final long sinceStart = TimeUnit.NANOSECONDS.toMillis(closed - firstStarted);
        assertTrue(sinceStart >= IDLE_TIMEOUT_MS / 2, "a heartbeat closed it after the idle timeout, not an event: " + sinceStart
            + " ms after the ingest started");
        assertTrue(IngestLog.counts(JournalDirectory.open(journal)).heartbeats() >= 1, "heartbeats were appended");
        FollowerProgress.sleep(2 * IDLE_TIMEOUT_MS); // more heartbeats while quiet, some of them after its last checkpoint
        awaitHeartbeats(journal, follower, 2); // a busy machine may have delayed the second one past the sleep
        follower.destroyForcibly(); // SIGKILL
        assertTrue(follower.waitFor(1, TimeUnit.MINUTES));
        final IngestLog.Counts afterFirst = IngestLog.counts(JournalDirectory.open(journal));
        assertEquals(3_000, afterFirst.events(), "heartbeats are no events");
        assertTrue(afterFirst.heartbeats() >= 2, "repeated while quiet: " + afterFirst.heartbeats());
        assertTrue(afterFirst.lastOffset() > firstLastOffset, "the heartbeats follow the last event");

        final Process resumed = startFollower(journal, "follower-2.log");
        awaitFollowing(resumed, "follower-2.log");
        assertEquals(0, Cli.run("ingest", "--input", second.toString(), "--journal", journal.toString()).exit());
        final long secondStopped = System.nanoTime();
        final long secondClosed = awaitWindow(journal, resumed, secondNewest - Math.floorMod(secondNewest, WINDOW_MS));
        final long secondLatency = TimeUnit.NANOSECONDS.toMillis(secondClosed - secondStopped);
        assertTrue(secondLatency <= IDLE_TIMEOUT_MS + BOUND_MS, "after the resume, the last window closed " + secondLatency + " ms after the ingest stopped");
        System.out.printf("--idle-timeout %d ms: the quiet stream's last window closed %d ms after the ingest stopped, %d ms after the resume's%n",
            IDLE_TIMEOUT_MS, firstLatency, secondLatency);
        FollowerProgress.sleep(IDLE_TIMEOUT_MS);
        resumed.destroy(); // SIGTERM: checkpoint and export
        assertTrue(resumed.waitFor(2, TimeUnit.MINUTES), "the follower stops on SIGTERM");
        assertEquals(143, resumed.exitValue(), Files.readString(dir.resolve("follower-2.log")));
        assertFalse(Files.readString(dir.resolve("follower-2.log")).contains("heartbeats stopped"), Files.readString(dir.resolve("follower-2.log")));

        assertEquals(0, Cli.run("ingest", "--input", first.toString(), "--journal", journal.toString()).exit());
        assertEquals(5_000, IngestLog.counts(JournalDirectory.open(journal)).events(), "a rerun ingest appends nothing: its lines skip the heartbeats");

        final Path replayed = dir.resolve("replay.csv");
        final List<String> replay = new ArrayList<>(List.of("replay", "--journal", journal.toString(), "--results", replayed.toString()));
        replay.addAll(FLAGS);
        final Cli replayRun = Cli.run(replay.toArray(String[]::new));
        assertEquals(0, replayRun.exit(), replayRun.err());
        final List<String> followed = Files.readAllLines(dir.resolve("results.csv"), StandardCharsets.UTF_8);
        KillHarness.assertSameLines("the followed, killed and resumed run's results and the replay's", Files.readAllLines(replayed, StandardCharsets.UTF_8),
            followed);
        assertTrue(followed.size() > 100, "results: " + followed.size());
    }

    private Process startFollower(final Path journal, final String log) throws IOException
    {
        final List<String> args = new ArrayList<>(List.of("run", "--follow", "--journal", journal.toString(), "--results",
            dir.resolve("results.csv").toString(), "--idle-timeout", IDLE_TIMEOUT_MS + "ms", "--checkpoint-every", "500"));
        args.addAll(FLAGS);
        return KillHarness.startChild(args.toArray(String[]::new), dir.resolve(log));
    }

    /**
     * Events whose times advance by 1 to 3 ms, up to 150 ms out of order, ending at a known newest time.
     *
     * @return the newest event time.
     */
    private static long writeEvents(final Path file, final int events, final long firstTime, final long seed) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<String> lines = new ArrayList<>();
        lines.add(CsvLineParser.DEFAULT_HEADER);
        long now = firstTime;
        long newest = 0;
        for (int i = 0; i < events; i++)
        {
            now += 1 + random.nextInt(3);
            final long time = now - random.nextInt(150);
            newest = Math.max(newest, time);
            lines.add(seed * 1_000_000 + i + "," + time + ",k" + random.nextInt(20) + "," + (random.nextInt(2_000) - 1_000));
        }
        Files.write(file, lines, StandardCharsets.UTF_8);
        return newest;
    }

    /** Wait until the journal holds {@code count} heartbeats or more. */
    private static void awaitHeartbeats(final Path journal, final Process follower, final long count)
    {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (IngestLog.counts(JournalDirectory.open(journal)).heartbeats() < count)
        {
            assertTrue(follower.isAlive(), "the follower exited");
            assertTrue(System.nanoTime() < deadline, "fewer than " + count + " heartbeats while quiet");
            FollowerProgress.sleep(100);
        }
    }

    /** Wait until the follower says it is following. */
    private void awaitFollowing(final Process follower, final String log) throws IOException
    {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!Files.exists(dir.resolve(log)) || !Files.readString(dir.resolve(log)).contains("Following the journal"))
        {
            assertTrue(follower.isAlive(), "the follower exited");
            assertTrue(System.nanoTime() < deadline, "the follower did not start");
            FollowerProgress.sleep(20);
        }
    }

    /**
     * @return when a result of the window starting at {@code start} was first seen in the output journal, carrying
     *         the offset of a heartbeat as its source (System.nanoTime()).
     */
    private long awaitWindow(final Path journal, final Process follower, final long start) throws IOException
    {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (true)
        {
            final long sourceOffset = resultOf(journal, start);
            if (sourceOffset >= 0)
            {
                final long seen = System.nanoTime();
                assertTrue(heartbeatOffsets(journal).contains(sourceOffset), "the last window was fired by a heartbeat");
                return seen;
            }
            assertTrue(follower.isAlive(), "the follower exited");
            assertTrue(System.nanoTime() < deadline, "the window starting at " + start + " never closed");
            FollowerProgress.sleep(10);
        }
    }

    /** @return the source offset of the first result of the window starting at {@code start}, or -1. */
    private static long resultOf(final Path journal, final long start)
    {
        final long[] source = {-1};
        try (OutputJournal output = OutputJournal.open(JournalDirectory.open(journal)))
        {
            output.readAll(stored ->
            {
                if (stored.isResult() && source[0] < 0)
                {
                    final ResultDecoder r = stored.result();
                    if (r.windowStart() == start)
                    {
                        source[0] = r.sourceOffset();
                    }
                }
            });
        }
        catch (final RuntimeException notYet)
        {
            return -1; // no output journal yet
        }
        return source[0];
    }

    private static Set<Long> heartbeatOffsets(final Path journal)
    {
        final Set<Long> offsets = new HashSet<>();
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal)))
        {
            final EventConsumer consumer = new EventConsumer()
            {
                @Override
                public void onEvent(final long offset, final long eventId, final long eventTime, final int keyId, final long value)
                {
                }

                @Override
                public void onHeartbeat(final long offset, final long eventTime)
                {
                    offsets.add(offset);
                }
            };
            while (reader.poll(consumer, 4096) > 0)
            {
                // drain
            }
        }
        return offsets;
    }

    private static long lastOffset(final Path journal)
    {
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal)))
        {
            return reader.lastOffset();
        }
    }
}
