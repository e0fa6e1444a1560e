package dev.weir.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import dev.weir.journal.EventJournal;
import dev.weir.journal.schema.JournalSchema;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ingesting valid lines allocates nothing per line once warm, in the default columns (event times in epoch
 * milliseconds and as ISO-8601 instants) and in six columns with quoted and UTF-8 strings: the bytes allocated by ingesting a long file, less those of
 * ingesting a short one (what an ingest allocates once: opening, the read buffer, the rejected file),
 * over the lines between them. Measured with the thread's allocated-bytes counter, the least of a few
 * rounds, each into a new journal.
 */
class IngestAllocationTest
{
    private static final int SHORT = 20_000;
    private static final int LONG = 220_000;
    private static final int ROUNDS = 3;
    private static final java.time.format.DateTimeFormatter ISO = java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSXXX");
    private static final String PAYMENTS = "card:string,merchant:string,country:string,amount:decimal(2),channel:string";
    /**
     * Under 16 bytes per hundred lines (32 KB): room for what reading the input (a buffer view per 1 MiB read) and
     * mapping the next chunks of the journal allocate, and for the log lines Chronicle writes when a mapping is slow
     * on a loaded machine (2.2 KB seen in CI); never an allocation per line (at least 16 B a line, 3.2 MB here) or
     * per hundred lines.
     */
    private static final long BOUND = 16 * (LONG - SHORT) / 100;

    @TempDir
    Path dir;

    @Test
    void ingestingValidLinesOfTheDefaultColumnsAllocatesNothingPerLine() throws IOException
    {
        final long perFile = allocatedPerLines(JournalSchema.DEFAULT, (random, i) ->
            i + "," + (1_000L * i) + ",key-" + random.nextInt(1_000) + "," + (random.nextInt(2_000) - 1_000));
        assertTrue(perFile < BOUND, "bytes allocated by ingesting " + (LONG - SHORT) + " more lines: " + perFile);
    }

    @Test
    void ingestingValidLinesWithIsoTimesAllocatesNothingPerLine() throws IOException
    {
        final String[] offsets = {"Z", "+01:00", "-05:30"};
        final long perFile = allocatedPerLines(JournalSchema.DEFAULT, (random, i) ->
            i + "," + ISO.format(java.time.Instant.ofEpochMilli(1_700_000_000_000L + 1_000L * i + random.nextInt(1_000)).atOffset(
                java.time.ZoneOffset.of(offsets[random.nextInt(offsets.length)]))) + ",key-" + random.nextInt(1_000) + "," + random.nextInt(1_000));
        assertTrue(perFile < BOUND, "bytes allocated by ingesting " + (LONG - SHORT) + " more lines: " + perFile);
    }

    @Test
    void ingestingValidLinesOfSixColumnsAllocatesNothingPerLine() throws IOException
    {
        final String[] merchants = {"m-1", "\"Café \"\"Le Bon\"\", Paris\"", "\"Shop, Inc.\"", "Zürich"};
        final long perFile = allocatedPerLines(JournalSchema.parse(PAYMENTS), (random, i) ->
            i + "," + (1_000L * i) + ",card-" + random.nextInt(300) + "," + merchants[random.nextInt(merchants.length)] + ",FR,"
                + (random.nextInt(100_000) - 5_000) / 100.0 + "," + (random.nextBoolean() ? "pos" : "app"));
        assertTrue(perFile < BOUND, "bytes allocated by ingesting " + (LONG - SHORT) + " more lines: " + perFile);
    }

    /** A line of a generated CSV. */
    private interface Line
    {
        String make(SplittableRandom random, long i);
    }

    private long allocatedPerLines(final JournalSchema schema, final Line line) throws IOException
    {
        final Path shortFile = write(schema, "short.csv", SHORT, line);
        final Path longFile = write(schema, "long.csv", LONG, line);
        for (int i = 0; i < 3; i++)
        {
            ingest(schema, longFile, LONG);
        }
        long least = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++)
        {
            least = Math.min(least, ingest(schema, longFile, LONG) - ingest(schema, shortFile, SHORT));
        }
        return least;
    }

    private Path write(final JournalSchema schema, final String name, final int lines, final Line line) throws IOException
    {
        final Path file = dir.resolve(name);
        final SplittableRandom random = new SplittableRandom(18);
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            out.write(schema.isDefault() ? CsvLineParser.DEFAULT_HEADER : "event_id,event_time,card,merchant,country,amount,channel");
            out.write('\n');
            for (int i = 0; i < lines; i++)
            {
                out.write(line.make(random, i));
                out.write('\n');
            }
        }
        return file;
    }

    private int journals;

    /** @return the bytes this thread allocated to ingest the file into a new journal. */
    private long ingest(final JournalSchema schema, final Path file, final int lines)
    {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long threadId = Thread.currentThread().getId();
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("journal-" + journals++), schema))
        {
            final CsvIngest ingest = CsvIngest.into(journal).rejected(dir.resolve("rejected.csv")).build();
            final long before = threads.getThreadAllocatedBytes(threadId);
            final CsvIngest.Summary summary = ingest.ingest(file);
            final long allocated = threads.getThreadAllocatedBytes(threadId) - before;
            assertEquals(lines, summary.ingested(), summary.toString());
            return allocated;
        }
    }
}
