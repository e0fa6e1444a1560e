package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.Pipeline;
import dev.weir.engine.Weir;
import dev.weir.engine.metrics.CounterTypes;
import dev.weir.engine.metrics.EngineCounters;
import dev.weir.engine.metrics.MetricsFile;
import dev.weir.engine.metrics.RetentionCounters;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalDirectory;
import dev.weir.testsupport.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir stat} reads a running engine's counters from another process, and says clearly when
 * there is nothing to read; without {@code --pipeline}, it shows every running pipeline of the journal, or the last
 * values of each.
 */
class StatCommandTest
{
    @TempDir
    Path dir;

    @Test
    void anotherProcessReadsTheCountersOfARunningPipeline() throws Exception
    {
        final Path journal = dir.resolve("journal");
        long last = -1;
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int i = 0; i < 2_500; i++)
            {
                last = writer.append(i, i * 2L, "card-" + (i % 17), i);
            }
        }
        try (Pipeline pipeline = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).outOfOrderness(100).build().start())
        {
            assertTrue(pipeline.awaitOffset(last, 120, TimeUnit.SECONDS));
            final String out = statInAnotherProcess(journal);
            assertTrue(out.contains("pid " + ProcessHandle.current().pid() + " (running)"), out);
            assertEquals("2,500", value(out, "events applied"), out);
            assertEquals(String.format("%,d", last), value(out, "journal offset applied"), out);
        }
    }

    @Test
    void statShowsTheLatencyHistogramsAfterARun() throws IOException
    {
        final Path journal = dir.resolve("ran");
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int i = 0; i < 3_000; i++)
            {
                writer.append(i, i * 2L, "card-" + (i % 17), i);
            }
        }
        Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).outOfOrderness(100).build().runToEnd();
        final Cli stat = Cli.run("stat", journal.toString(), "--once");
        assertEquals(0, stat.exit(), stat.err());
        final String out = stat.out();
        assertTrue(out.contains("latency (ns)"), out);
        for (final String name : List.of("read-to-applied", "fire-to-listener"))
        {
            final String[] fields = histogramLine(out, name);
            assertEquals(7, fields.length, out);
            final long count = Long.parseLong(fields[1].replace(",", ""));
            final long p50 = Long.parseLong(fields[2].replace(",", ""));
            final long p99 = Long.parseLong(fields[4].replace(",", ""));
            final long max = Long.parseLong(fields[6].replace(",", ""));
            assertTrue(count > 0 && p50 <= p99 && p99 <= max && max > 0, out);
        }
        assertTrue(!out.contains("latency count"), "the histograms' counters are not listed as counters too: " + out);
    }

    @Test
    void statReadsAFileOfBeforeTypeIdsByLabel() throws IOException
    {
        final Path journal = dir.resolve("old");
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            writer.append(1, 1, "k", 1);
        }
        try (MetricsFile old = MetricsFile.create(JournalDirectory.open(journal).metricsFile(), 2))
        {
            old.counters().newCounter("events applied", CounterTypes.LEGACY).setRelease(5);
            old.counters().newCounter(EngineCounters.LAST_EVENT_READ, CounterTypes.LEGACY).setRelease(System.currentTimeMillis());
            old.markEnded();
        }
        final Cli stat = Cli.run("stat", journal.toString(), "--once");
        assertEquals(0, stat.exit(), stat.err());
        assertEquals("5", value(stat.out(), "events applied"), stat.out());
        assertTrue(stat.out().contains("time since the last event read"), "the clock, found by its old label: " + stat.out());
        assertTrue(!stat.out().contains("latency (ns)"), stat.out());
    }

    @Test
    void statShowsTheRetentionCountersOfARunWithRetentionOnly() throws IOException
    {
        final Path journal = dir.resolve("retained");
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            writer.append(1, 1, "k", 1);
        }
        try (MetricsFile file = MetricsFile.create(JournalDirectory.open(journal).metricsFile(), EngineCounters.COUNT + RetentionCounters.COUNT))
        {
            new EngineCounters(file.counters());
            final RetentionCounters retention = new RetentionCounters(file.counters());
            Cli stat = Cli.run("stat", journal.toString(), "--once");
            assertEquals(0, stat.exit(), stat.err());
            assertEquals("0", value(stat.out(), "retention steps"), stat.out());
            assertEquals("none", value(stat.out(), "retention: oldest events offset held"), stat.out());
            assertTrue(stat.out().contains("nothing held  ") || stat.out().contains("nothing held "), stat.out());
            assertEquals("never", value(stat.out(), "retention: journal clock of the last step"), stat.out());

            retention.stepped(1_764_590_400_000L, 4, 4_096_000, 8_192_000, 12_345, 23_456);
            file.markEnded();
            stat = Cli.run("stat", journal.toString(), "--once");
            assertEquals(0, stat.exit(), stat.err());
            assertEquals("1", value(stat.out(), "retention steps"), stat.out());
            assertEquals("4", value(stat.out(), "retention: cycle files removed"), stat.out());
            assertEquals("4,096,000", value(stat.out(), "retention: bytes removed"), stat.out());
            assertEquals("8,192,000", value(stat.out(), "retention: bytes of cycle files kept"), stat.out());
            assertEquals("12,345", value(stat.out(), "retention: oldest events offset held"), stat.out());
            assertEquals("23,456", value(stat.out(), "retention: events floor (first offset a holder needs)"), stat.out());
            assertEquals("2025-12-01T12:00:00Z", value(stat.out(), "retention: journal clock of the last step"), stat.out());
        }
        Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).build().runToEnd();
        final Cli without = Cli.run("stat", journal.toString(), "--once");
        assertTrue(!without.out().contains("retention"), "a run without retention has no retention counters: " + without.out());
    }

    private static String[] histogramLine(final String out, final String name)
    {
        for (final String line : out.split("\n"))
        {
            if (line.startsWith(name + " "))
            {
                return line.trim().split("\\s+");
            }
        }
        throw new AssertionError("no histogram line '" + name + "' in:\n" + out);
    }

    @Test
    void aJournalWithoutMetricsOrNoJournalIsAClearError() throws IOException
    {
        final Path journal = dir.resolve("fresh");
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            writer.append(1, 1, "k", 1);
        }
        final Cli none = Cli.run("stat", journal.toString(), "--once");
        assertEquals(2, none.exit());
        assertTrue(none.err().contains("no metrics file"), none.err());
        final Cli foreign = Cli.run("stat", dir.toString(), "--once");
        assertEquals(2, foreign.exit());
        assertTrue(foreign.err().contains("not a Weir journal"), foreign.err());
    }

    @Test
    void withoutPipelineStatShowsTheRunningPipelinesOrElseTheLastValuesOfEach() throws Exception
    {
        final Path journal = LateSpendJournal.create(dir);
        final Cli ended = Cli.run("stat", journal.toString(), "--once");
        assertEquals(0, ended.exit(), "the default pipeline never ran; spend and fees did:\n" + ended.out() + ended.err());
        assertTrue(ended.out().contains("(pipeline spend)  pid ") && ended.out().contains("(pipeline fees)  pid "), ended.out());
        assertEquals(2, ended.out().lines().filter(l -> l.contains("not running: last values")).count(), ended.out());

        try (Pipeline live = Weir.pipeline().journal(journal).pipeline("live").window(TumblingWindows.of(1_000)).build().start())
        {
            assertTrue(live.awaitOffset(IngestLog.counts(JournalDirectory.open(journal)).lastEventOffset(), 60, TimeUnit.SECONDS));
            final Cli running = Cli.run("stat", journal.toString(), "--once");
            assertEquals(0, running.exit(), running.err());
            assertTrue(running.out().contains("(pipeline live)  pid " + ProcessHandle.current().pid() + " (running)"), running.out());
            assertFalse(running.out().contains("(pipeline spend)"), "only the running pipelines:\n" + running.out());
            final Cli one = Cli.run("stat", journal.toString(), "--pipeline", "spend", "--once");
            assertTrue(one.out().contains("(pipeline spend)") && !one.out().contains("(pipeline live)"), one.out());
        }
    }

    private static String value(final String out, final String label)
    {
        for (final String line : out.split("\n"))
        {
            if (line.trim().endsWith("  " + label) || line.endsWith(" " + label))
            {
                return line.trim().split("\\s+")[0];
            }
        }
        throw new AssertionError("no counter '" + label + "' in:\n" + out);
    }

    private static String statInAnotherProcess(final Path journal) throws IOException, InterruptedException
    {
        final List<String> command = ChildJvm.weir("256m", "stat", journal.toString(), "--once");
        final Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "weir stat ended");
        assertEquals(0, child.exitValue(), out);
        return out;
    }
}
