package dev.weir.csv;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;

import dev.weir.journal.EventJournal;
import dev.weir.journal.schema.JournalSchema;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Decoding valid Kafka records into a journal ({@link CsvRecordDecoder} and {@link JsonRecordDecoder}, what
 * {@code weir run --kafka} mirrors each record with) allocates nothing per record once its strings are known, in the
 * default columns and in six columns with quoted and UTF-8 strings, CSV lines and JSON objects: the bytes allocated by decoding many records, less those of decoding a few, over the
 * records between them. Measured with the thread's allocated-bytes counter, the least of a few rounds, each into a
 * new journal.
 */
class CsvRecordAllocationTest
{
    private static final int SHORT = 20_000;
    private static final int LONG = 220_000;
    private static final int ROUNDS = 3;
    private static final String PAYMENTS = "card:string,merchant:string,country:string,amount:decimal(2),channel:string";
    /**
     * Under 16 bytes per hundred records (32 KB): room for mapping the journal's next chunks and the log lines
     * Chronicle writes when a mapping is slow on a loaded machine; never an allocation per record (at least 16 B a
     * record, 3.2 MB here) or per hundred records.
     */
    private static final long BOUND = 16 * (LONG - SHORT) / 100;

    @TempDir
    Path dir;

    private int journals;

    @Test
    void decodingRecordsOfTheDefaultColumnsAllocatesNothingPerRecord()
    {
        final byte[][] keys = new byte[LONG][];
        final byte[][] values = new byte[LONG][];
        final SplittableRandom random = new SplittableRandom(35);
        for (int i = 0; i < LONG; i++)
        {
            final String key = "key-" + random.nextInt(1_000);
            keys[i] = key.getBytes(StandardCharsets.UTF_8);
            values[i] = (i + "," + (1_000L * i) + "," + key + "," + (random.nextInt(2_000) - 1_000) + (i % 3 == 0 ? "\n" : ""))
                .getBytes(StandardCharsets.UTF_8);
        }
        final long allocated = allocatedPerRecords(JournalSchema.DEFAULT, 0, keys, values);
        assertTrue(allocated < BOUND, "bytes allocated by decoding " + (LONG - SHORT) + " more records: " + allocated);
    }

    @Test
    void decodingRecordsOfSixColumnsAllocatesNothingPerRecord()
    {
        final String[] merchants = {"m-1", "\"Café \"\"Le Bon\"\", Paris\"", "\"Shop, Inc.\"", "Zürich"};
        final byte[][] keys = new byte[LONG][];
        final byte[][] values = new byte[LONG][];
        final SplittableRandom random = new SplittableRandom(36);
        for (int i = 0; i < LONG; i++)
        {
            final String card = "card-" + random.nextInt(300);
            keys[i] = card.getBytes(StandardCharsets.UTF_8);
            values[i] = (i + "," + (1_000L * i) + "," + card + "," + merchants[random.nextInt(merchants.length)] + ",FR,"
                + (random.nextInt(100_000) - 5_000) / 100.0 + "," + (random.nextBoolean() ? "pos" : "app")).getBytes(StandardCharsets.UTF_8);
        }
        final long allocated = allocatedPerRecords(JournalSchema.parse(PAYMENTS), 0, keys, values);
        assertTrue(allocated < BOUND, "bytes allocated by decoding " + (LONG - SHORT) + " more records: " + allocated);
    }

    @Test
    void decodingRecordsKeyedBySeveralColumnsAllocatesNothingPerRecord()
    {
        final String[] merchants = {"m-1", "\"Café \"\"Le Bon\"\", Paris\"", "\"Shop, Inc.\"", "Zürich"};
        final byte[][] keys = new byte[LONG][];
        final byte[][] values = new byte[LONG][];
        final SplittableRandom random = new SplittableRandom(38);
        for (int i = 0; i < LONG; i++)
        {
            final String card = "card-" + random.nextInt(300);
            final String channel = random.nextBoolean() ? "pos" : "app";
            final String amount = java.math.BigDecimal.valueOf(random.nextInt(100_000) - 5_000, 2).toPlainString();
            keys[i] = (card + "," + amount + "," + channel).getBytes(StandardCharsets.UTF_8);
            values[i] = (i + "," + (1_000L * i) + "," + card + "," + merchants[random.nextInt(merchants.length)] + ",FR," + amount + "," + channel)
                .getBytes(StandardCharsets.UTF_8);
        }
        final long allocated = allocatedPerRecords(JournalSchema.parse(PAYMENTS), new int[] {0, 3, 4}, keys, values);
        assertTrue(allocated < BOUND, "bytes allocated by decoding " + (LONG - SHORT) + " more records: " + allocated);
    }

    @Test
    void decodingJsonObjectsOfSixColumnsAllocatesNothingPerRecord()
    {
        final String[] merchants = {"m-1", "Caf\\u00e9 \\\"Le Bon\\\", Paris", "Shop, Inc.", "Zürich"};
        final byte[][] keys = new byte[LONG][];
        final byte[][] values = new byte[LONG][];
        final SplittableRandom random = new SplittableRandom(37);
        for (int i = 0; i < LONG; i++)
        {
            final String card = "card-" + random.nextInt(300);
            keys[i] = card.getBytes(StandardCharsets.UTF_8);
            values[i] = ("{\"event_id\": " + i + ", \"event_time\": " + (1_000L * i) + ", \"card\": \"" + card + "\", \"merchant\": \""
                + merchants[random.nextInt(merchants.length)] + "\", \"country\": \"FR\", \"amount\": " + (random.nextInt(100_000) - 5_000) / 100.0
                + ", \"channel\": \"" + (random.nextBoolean() ? "pos" : "app") + "\", \"note\": {\"seen\": [1, 2]}}").getBytes(StandardCharsets.UTF_8);
        }
        json = true;
        final long allocated = allocatedPerRecords(JournalSchema.parse(PAYMENTS), 0, keys, values);
        assertTrue(allocated < BOUND, "bytes allocated by decoding " + (LONG - SHORT) + " more records: " + allocated);
    }

    private boolean json;

    private long allocatedPerRecords(final JournalSchema schema, final int keyColumn, final byte[][] keys, final byte[][] values)
    {
        return allocatedPerRecords(schema, new int[] {keyColumn}, keys, values);
    }

    private long allocatedPerRecords(final JournalSchema schema, final int[] keyColumn, final byte[][] keys, final byte[][] values)
    {
        for (int i = 0; i < 3; i++)
        {
            decode(schema, keyColumn, keys, values, LONG);
        }
        long least = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++)
        {
            least = Math.min(least, decode(schema, keyColumn, keys, values, LONG) - decode(schema, keyColumn, keys, values, SHORT));
        }
        return least;
    }

    /** @return the bytes this thread allocated to decode the first {@code count} records into a new journal. */
    private long decode(final JournalSchema schema, final int[] keyColumn, final byte[][] keys, final byte[][] values, final int count)
    {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long threadId = Thread.currentThread().getId();
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("journal-" + journals++), schema))
        {
            final CsvRecordDecoder csv = new CsvRecordDecoder(schema, keyColumn);
            final JsonRecordDecoder objects = new JsonRecordDecoder(schema, keyColumn);
            final long before = threads.getThreadAllocatedBytes(threadId);
            for (int i = 0; i < count; i++)
            {
                if ((json ? objects.append(keys[i], values[i], journal) : csv.append(keys[i], values[i], journal)) < 0)
                {
                    throw new AssertionError("record " + i + " refused: " + (json ? objects.rejection() : csv.rejection()));
                }
            }
            return threads.getThreadAllocatedBytes(threadId) - before;
        }
    }
}
