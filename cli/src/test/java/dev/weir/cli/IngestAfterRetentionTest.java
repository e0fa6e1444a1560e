package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

import dev.weir.journal.HistoryBase;
import dev.weir.journal.IngestConsumer;
import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalTestClock;
import net.openhft.chronicle.core.time.SetTimeProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ingest resumed after the roll cycles holding its first lines were removed (a history base written, the cycle
 * file deleted) continues at the right line: the same file again appends nothing, a longer one only its new lines.
 */
class IngestAfterRetentionTest
{
    private static final String HEADER = "event_id,event_time,key,value\n";

    @TempDir
    Path dir;

    @AfterEach
    void systemClock()
    {
        JournalTestClock.set(null);
    }

    @Test
    void anIngestResumedAfterItsFirstCycleWasDeletedAppendsOnlyNewLines() throws IOException
    {
        final SetTimeProvider clock = new SetTimeProvider(1_700_000_000_000L * 1_000_000L);
        JournalTestClock.set(clock);
        final Path a = dir.resolve("a.csv");
        final Path b = dir.resolve("b.csv");
        final Path journal = dir.resolve("journal");
        Files.writeString(a, HEADER + "1,1000,k,1\n2,2000,x,2\nbad line\n4,4000,k,4\n");
        Files.writeString(b, HEADER + "10,1000,y,1\n11,2000,k,2\n");
        ingest(a, journal, "3 events appended");
        clock.advanceMillis(86_400_000L);
        ingest(b, journal, "2 events appended");

        final JournalDirectory directory = JournalDirectory.open(journal);
        final long[] secondStart = {-1};
        IngestLog.scan(directory, new IngestConsumer()
        {
            @Override
            public void onIngestStart(final long offset, final String source, final long firstLine, final boolean linesTagged)
            {
                secondStart[0] = offset;
            }

            @Override
            public void onRejected(final long offset, final long line, final String reason, final String content)
            {
            }

            @Override
            public void onEvent(final long offset, final long line)
            {
            }
        });
        HistoryBase.advance(directory, secondStart[0], List.of(), 0, null);
        final List<Path> cycles;
        try (Stream<Path> files = Files.list(directory.eventsQueue()))
        {
            cycles = files.filter(f -> f.toString().endsWith(".cq4")).sorted().toList();
        }
        assertEquals(2, cycles.size(), cycles.toString());
        Files.delete(cycles.get(0));
        Files.deleteIfExists(journal.resolve("dictionaries.snapshot"));

        ingest(a, journal, "0 events appended");
        Files.writeString(a, "5,5000,k,5\n6,6000,z,6\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        ingest(a, journal, "2 events appended");
        ingest(b, journal, "0 events appended");
        final IngestLog.Counts counts = IngestLog.counts(directory);
        assertEquals(7, counts.events(), counts.toString());
        assertEquals(1, counts.rejected(), counts.toString());
        assertEquals(List.of("10,1000,y,1", "11,2000,k,2", "5,5000,k,5", "6,6000,z,6"), JournalContents.events(journal),
            "the events from the base on, their keys resolved");
    }

    private static void ingest(final Path input, final Path journal, final String expected)
    {
        final Cli ingest = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString());
        assertEquals(0, ingest.exit(), ingest.out() + ingest.err());
        assertTrue(ingest.out().contains(expected), ingest.out());
    }
}
