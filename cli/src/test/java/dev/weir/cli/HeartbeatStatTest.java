package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.Pipeline;
import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir inspect} counts heartbeats apart from events (and says nothing of them in a journal without);
 * {@code weir stat} shows the time since the pipeline last read an event and a heartbeat; {@code --idle-timeout}
 * needs {@code --follow}.
 */
class HeartbeatStatTest
{
    @TempDir
    Path dir;

    @Test
    void inspectCountsHeartbeatsAndStatShowsTheTimeSinceTheLastEventAndHeartbeat() throws Exception
    {
        final Path journal = dir.resolve("journal");
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            writer.append(1, 1_000, "a", 5);
        }
        final Cli before = Cli.run("inspect", journal.toString());
        assertEquals(0, before.exit(), before.err());
        assertFalse(before.out().contains("heartbeat"), "a journal without heartbeats shows what it showed before:\n" + before.out());

        try (Pipeline pipeline = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).build().start())
        {
            long last;
            try (EventJournal writer = EventJournal.openOrCreate(journal))
            {
                writer.append(2, 1_500, "b", 6);
                writer.appendHeartbeat(2_500);
                last = writer.appendHeartbeat(3_500);
            }
            assertTrue(pipeline.awaitOffset(last, 120, TimeUnit.SECONDS));
            FollowerProgress.sleep(50); // the counters are published after the batch
            final Cli stat = Cli.run("stat", journal.toString(), "--once");
            assertEquals(0, stat.exit(), stat.err());
            assertTrue(stat.out().matches("(?s).*\\d+\\.\\d s ago  +time since the last event read.*"), stat.out());
            assertTrue(stat.out().matches("(?s).*\\d+\\.\\d s ago  +time since the last heartbeat read.*"), stat.out());
            assertTrue(stat.out().lines().anyMatch(l -> l.trim().startsWith("2 ") && l.endsWith("  events applied")),
                "heartbeats are no events applied:\n" + stat.out());
        }

        final Cli inspect = Cli.run("inspect", journal.toString());
        assertEquals(0, inspect.exit(), inspect.err());
        assertTrue(inspect.out().contains("events       2 events"), inspect.out());
        assertTrue(inspect.out().contains("heartbeats   2 heartbeats"), inspect.out());
    }

    @Test
    void anIdleTimeoutNeedsFollow()
    {
        final Cli run = Cli.run("run", "--journal", dir.resolve("j").toString(), "--results", dir.resolve("r.csv").toString(),
            "--window", "tumbling:1s", "--idle-timeout", "1s");
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("--idle-timeout needs --follow"), run.err());
        final Cli zero = Cli.run("run", "--journal", dir.resolve("j").toString(), "--results", dir.resolve("r.csv").toString(),
            "--window", "tumbling:1s", "--follow", "--idle-timeout", "0");
        assertEquals(2, zero.exit(), zero.err());
        assertTrue(zero.err().contains("--idle-timeout must be > 0"), zero.err());
    }
}
