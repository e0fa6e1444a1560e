package dev.weir.engine.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link EngineStatReport} writes a reading as {@code weir stat} prints it: the header, the counters with their
 * change per second against an earlier reading of the same run only, the special counters in words, the latency table.
 */
class EngineStatReportTest
{
    private static final long STARTED = 1_700_000_000_000L;
    private static final Instant NOW = Instant.ofEpochMilli(STARTED + 60_000);
    private static final String N = System.lineSeparator();

    @TempDir
    Path dir;

    private JournalDirectory spend;

    @BeforeEach
    void journal()
    {
        try (EventJournal writer = EventJournal.openOrCreate(dir.resolve("j")))
        {
            writer.append(0, 0, "k", 1);
        }
        spend = JournalDirectory.open(dir.resolve("j")).pipeline("spend");
    }

    @Test
    void aReadingOfTheSameRunTwoSecondsLaterShowsEachCountersChangePerSecond()
    {
        final EngineStat before = stat(STARTED, 100, 5);
        final EngineStat after = stat(STARTED, 300, 5);

        final StringBuilder text = new StringBuilder();
        EngineStatReport.write(text, spend, NOW, after, before, 2.0);

        assertEquals(NOW + "  " + dir.resolve("j") + " (pipeline spend)  pid 42 (running), started " + Instant.ofEpochMilli(STARTED) + N
            + "                     value      per second  counter" + N
            + "                       300             100  events applied" + N
            + "                         5               0  windows open" + N
            + "                 +infinity                  watermark" + N
            + "                 1.5 s ago                  time since the last event read" + N
            + "                     never                  time since the last heartbeat read" + N
            + "                      none                  retention: oldest events offset held" + N
            + "              nothing held                  retention: events floor" + N
            + "                     never                  retention: journal clock of the last step" + N
            + N
            + "latency (ns)               count         p50         p90         p99       p99.9           max" + N
            + "read-to-applied                7         100         200         300         400           500" + N
            + N, text.toString());
    }

    @Test
    void aReadingOfAnotherRunOrNoneBeforeShowsNoChanges()
    {
        final String first = render(stat(STARTED, 300, 5), null);
        assertEquals(first, render(stat(STARTED, 300, 5), stat(STARTED - 1, 100, 5)), "another run's values are not compared");
        assertEquals("                     value                  counter", first.split(N)[1]);
        assertEquals("                       300                  events applied", first.split(N)[2]);
    }

    @Test
    void aFailingDestinationIsReported()
    {
        final Appendable broken = new Appendable()
        {
            @Override
            public Appendable append(final CharSequence csq) throws IOException
            {
                throw new IOException("disk full");
            }

            @Override
            public Appendable append(final CharSequence csq, final int start, final int end) throws IOException
            {
                throw new IOException("disk full");
            }

            @Override
            public Appendable append(final char c) throws IOException
            {
                throw new IOException("disk full");
            }
        };
        assertEquals("disk full", assertThrows(UncheckedIOException.class,
            () -> EngineStatReport.write(broken, spend, NOW, stat(STARTED, 1, 1), null, 0)).getCause().getMessage());
    }

    private String render(final EngineStat stat, final EngineStat previous)
    {
        final StringBuilder text = new StringBuilder();
        EngineStatReport.write(text, spend, NOW, stat, previous, 1.0);
        return text.toString();
    }

    private static EngineStat stat(final long started, final long applied, final long open)
    {
        return new EngineStat(42, true, started, List.of(
            new EngineStat.Counter("events applied", applied, EngineStat.Kind.VALUE),
            new EngineStat.Counter("windows open", open, EngineStat.Kind.VALUE),
            new EngineStat.Counter("watermark", Long.MAX_VALUE, EngineStat.Kind.VALUE),
            new EngineStat.Counter("last event read", NOW.toEpochMilli() - 1_500, EngineStat.Kind.LAST_EVENT_READ),
            new EngineStat.Counter("last heartbeat read", 0, EngineStat.Kind.LAST_HEARTBEAT_READ),
            new EngineStat.Counter("retention: oldest events offset held", -1, EngineStat.Kind.RETENTION_OLDEST_OFFSET),
            new EngineStat.Counter("retention: events floor", Long.MAX_VALUE, EngineStat.Kind.RETENTION_EVENTS_FLOOR),
            new EngineStat.Counter("retention: last step", 0, EngineStat.Kind.RETENTION_LAST_STEP)),
            List.of(new EngineStat.Histogram("read-to-applied", 7, 100, 200, 300, 400, 500)));
    }
}
