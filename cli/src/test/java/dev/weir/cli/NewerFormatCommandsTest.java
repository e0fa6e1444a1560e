package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

import dev.weir.journal.DeliveryPositions;
import dev.weir.journal.HistoryBase;
import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.codec.DocumentType;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.rollcycles.LegacyRollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file a newer Weir wrote into a journal (its version raised by one, its checksum made good), or an output document
 * of a type code above the newest, is refused by every command that reads it: exit 2 and one {@code weir: } line
 * naming the file, the version found and the newest this build reads; nothing is written over it.
 */
class NewerFormatCommandsTest
{
    private static final long START = 1_764_000_000_000L; // a whole minute

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(START + 1_000);
    private Path journal;

    @BeforeEach
    void journalRunAndRetained() throws IOException
    {
        JournalClock.useForTests(JournalClock.of(now::get));
        journal = dir.resolve("j");
        for (int minute = 1; minute <= 4; minute++)
        {
            final Cli ingest = minute == 1
                ? Cli.run("ingest", "--input", csv(10 * minute).toString(), "--journal", journal.toString(), "--roll-cycle", "minutely")
                : Cli.run("ingest", "--input", csv(10 * minute).toString(), "--journal", journal.toString());
            assertEquals(0, ingest.exit(), ingest.err());
            now.addAndGet(60_000);
        }
        final Cli run = Cli.run("run", "--journal", journal.toString(), "--window", "tumbling:5s", "--results", dir.resolve("r.csv").toString());
        assertEquals(0, run.exit(), run.err());
        final Cli retain = Cli.run("retain", "--journal", journal.toString(), "--keep", "90s"); // the first two cycles: a later step has more to do
        assertEquals(0, retain.exit(), retain.err());
        assertTrue(Files.isRegularFile(journal.resolve(HistoryBase.FILE)), retain.out());
    }

    @AfterEach
    void systemClock()
    {
        JournalClock.useForTests(null);
    }

    private Path csv(final int lines) throws IOException
    {
        final StringBuilder text = new StringBuilder("event_id,event_time,key,value\n");
        for (int i = 0; i < lines; i++)
        {
            text.append(i).append(',').append(1_000L * i).append(",k").append(i % 7).append(',').append(i).append('\n');
        }
        return Files.writeString(dir.resolve("in.csv"), text);
    }

    @Test
    void aHistoryBaseOfANewerWeirIsRefusedByEveryCommandThatReadsIt() throws IOException
    {
        final Path base = journal.resolve(HistoryBase.FILE);
        final byte[] bytes = Files.readAllBytes(base);
        final ByteBuffer buffer = ByteBuffer.wrap(bytes);
        assertEquals(1, buffer.getInt(8), "a journal without tables keeps history base version 1");
        buffer.putInt(8, 3);
        final CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - 4);
        buffer.putInt(bytes.length - 4, (int)crc.getValue());
        Files.write(base, bytes);

        final String refusal = "weir: " + base + " is history base version 3, written by a newer Weir: this Weir reads history base versions up to 2";
        assertRefused(refusal, "inspect", journal.toString());
        assertRefused(refusal, "run", "--journal", journal.toString(), "--window", "tumbling:5s", "--results", dir.resolve("r2.csv").toString());
        assertRefused(refusal, "ingest", "--input", csv(40).toString(), "--journal", journal.toString());
        assertRefused(refusal, "retain", "--journal", journal.toString(), "--keep", "0");
        assertTrue(java.util.Arrays.equals(bytes, Files.readAllBytes(base)), "the newer file is left as it was");
    }

    @Test
    void aMetricsFileOfANewerWeirIsRefusedByStat() throws IOException
    {
        final Path metrics = JournalDirectory.open(journal).metricsFile();
        final byte[] bytes = Files.readAllBytes(metrics);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(4, 2);
        Files.write(metrics, bytes);
        assertRefused("weir: " + metrics + " is metrics file version 2, written by a newer Weir: this Weir reads metrics file versions up to 1",
            "stat", journal.toString(), "--once");
    }

    @Test
    void aDeliveryRecordOfANewerWeirIsRefusedByRetain() throws IOException
    {
        final String body = DeliveryPositions.FORMAT_LINE + "\nversion=2\ntable=weir_results\ntarget=jdbc:postgresql://127.0.0.1:5432/weir\n"
            + "position=-1\nupdated=2026-12-01T18:20:03.123Z\n";
        final CRC32C crc = new CRC32C();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        final Path record = journal.resolve(DeliveryPositions.DIRECTORY).resolve("weir_results-00000000" + DeliveryPositions.SUFFIX);
        Files.createDirectories(record.getParent());
        Files.writeString(record, body + "crc=" + String.format("%08x", crc.getValue()) + "\n");
        assertRefused("weir: " + record + " is delivery record version 2, written by a newer Weir: this Weir reads delivery record versions up to 1",
            "retain", "--journal", journal.toString(), "--keep", "0");
    }

    @Test
    void anOutputDocumentOfANewerWeirIsRefusedNotSkipped()
    {
        final JournalDirectory directory = JournalDirectory.open(journal);
        try (SingleChronicleQueue results = SingleChronicleQueueBuilder.single(directory.resultsQueue().toFile()).rollCycle(LegacyRollCycles.MINUTELY).build();
             ExcerptAppender appender = results.createAppender();
             DocumentContext dc = appender.writingDocument())
        {
            dc.wire().bytes().writeByte((byte)(DocumentType.NEWEST_RESULTS + 1)).writeLong(0);
        }
        final String refusal = "weir: " + directory.resultsQueue() + " position ";
        final Cli inspect = Cli.run("inspect", journal.toString());
        assertEquals(WeirCommand.USAGE, inspect.exit(), inspect.err());
        assertTrue(inspect.err().startsWith(refusal) && inspect.err().contains(" is output document version " + (DocumentType.NEWEST_RESULTS + 1)
            + ", written by a newer Weir: this Weir reads output document versions up to " + DocumentType.NEWEST_RESULTS), inspect.err());
    }

    @Test
    void anEventsDocumentOfANewerWeirIsRefusedNotSkipped()
    {
        final JournalDirectory directory = JournalDirectory.open(journal);
        final long offset;
        try (SingleChronicleQueue events = SingleChronicleQueueBuilder.single(directory.eventsQueue().toFile()).rollCycle(LegacyRollCycles.MINUTELY).build();
             ExcerptAppender appender = events.createAppender())
        {
            try (DocumentContext dc = appender.writingDocument())
            {
                dc.wire().bytes().writeByte((byte)(DocumentType.NEWEST_EVENTS + 1)).writeLong(0).writeLong(0).writeLong(0).writeInt(0);
            }
            offset = directory.offsets().offset(appender.lastIndexAppended(), 0);
        }
        final String refusal = "weir: " + directory.eventsQueue() + " offset " + offset + " is events document version " + (DocumentType.NEWEST_EVENTS + 1)
            + ", written by a newer Weir: this Weir reads events document versions up to " + DocumentType.NEWEST_EVENTS;
        assertRefused(refusal, "inspect", journal.toString());
        assertRefused(refusal, "run", "--journal", journal.toString(), "--window", "tumbling:5s", "--results", dir.resolve("r.csv").toString());
    }

    private static void assertRefused(final String refusal, final String... args)
    {
        final Cli cli = Cli.run(args);
        assertEquals(WeirCommand.USAGE, cli.exit(), args[0] + ": " + cli.err());
        assertTrue(cli.err().startsWith(refusal), args[0] + ": " + cli.err());
        assertEquals(1, cli.err().lines().count(), args[0] + ": one line: " + cli.err());
    }
}
