package dev.weir.csv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import dev.weir.journal.ColumnType;
import dev.weir.journal.EventJournal;
import dev.weir.journal.IngestConsumer;
import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.JournalSchema;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The allocation-free ingest ({@link LineBytes} first) against the String way alone (every line decoded
 * and parsed as a {@link String}, as before issue 18), on seeded hostile inputs over more than one read
 * chunk: quotes, CRLF, UTF-8 keys and invalid UTF-8, empty and missing fields, spaces, signs, overlong
 * numbers, a line too long, and a half-written last line, left pending, then completed and resumed.
 * Both must append the same documents (events with their line numbers and string ids, rejected lines
 * with their reasons and content) and export the same rejected file, in the default columns and in
 * others.
 */
class IngestBytesCrossCheckTest
{
    private static final String COLUMNS = "card:string,merchant:string,amount:decimal(2),fee:long,country:string";

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void defaultColumnsGiveTheSameJournalBothWays(final long seed) throws IOException
    {
        crossCheck(JournalSchema.DEFAULT, seed, true);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void otherColumnsGiveTheSameJournalBothWays(final long seed) throws IOException
    {
        crossCheck(JournalSchema.parse(COLUMNS), seed, false);
    }

    private void crossCheck(final JournalSchema schema, final long seed, final boolean defaultColumns) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final Path input = dir.resolve("events.csv");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (random.nextBoolean())
        {
            out.writeBytes(new byte[] {(byte)0xEF, (byte)0xBB, (byte)0xBF});
        }
        out.writeBytes((defaultColumns ? EventLine.HEADER : "event_id,event_time,card,merchant,amount,fee,country").getBytes(StandardCharsets.UTF_8));
        out.writeBytes(random.nextBoolean() ? "\r\n".getBytes(StandardCharsets.UTF_8) : new byte[] {'\n'});
        for (int i = 0; i < 40_000; i++)
        {
            out.writeBytes(defaultColumns ? defaultLine(random, i) : columnsLine(random, i));
            out.writeBytes(random.nextInt(5) == 0 ? "\r\n".getBytes(StandardCharsets.UTF_8) : new byte[] {'\n'});
        }
        final byte[] last = defaultColumns ? defaultLine(random, 40_000) : columnsLine(random, 40_000);
        final int cut = last.length / 2;
        out.write(last, 0, cut); // half written: left pending
        Files.write(input, out.toByteArray());
        assertTrue(out.size() > InputLines.CHUNK_BYTES, "the input spans more than one read chunk: " + out.size());

        final Run bytes = new Run(dir.resolve("bytes"), input, true, schema);
        final Run strings = new Run(dir.resolve("strings"), input, false, schema);
        assertEquals(strings.ingest(false), bytes.ingest(false));
        bytes.assertSameAs(strings);

        Files.write(input, java.util.Arrays.copyOfRange(last, cut, last.length), StandardOpenOption.APPEND);
        Files.write(input, "\n".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
        Files.write(input, defaultColumns ? defaultLine(random, 1) : columnsLine(random, 1), StandardOpenOption.APPEND); // unterminated
        final CsvIngest.Summary resumed = strings.ingest(true);
        assertEquals(resumed, bytes.ingest(true));
        assertTrue(resumed.skipped() == 40_000 && resumed.ingested() + resumed.rejected() == 2, resumed.toString());
        bytes.assertSameAs(strings);
    }

    /** One way of ingesting, into its own journal and rejected file. */
    private static final class Run
    {
        private final Path journal;
        private final Path rejected;
        private final CsvIngest ingest;
        private final JournalSchema schema;

        Run(final Path base, final Path input, final boolean bytesFirst, final JournalSchema schema)
        {
            this.journal = base.resolve("journal");
            this.rejected = base.resolve("rejected.csv");
            this.ingest = new CsvIngest(input, rejected, bytesFirst);
            this.schema = schema;
        }

        CsvIngest.Summary ingest(final boolean complete)
        {
            try (EventJournal events = EventJournal.openOrCreate(journal, schema))
            {
                return ingest.into(events, false, complete);
            }
        }

        void assertSameAs(final Run reference) throws IOException
        {
            final List<String> documents = documents();
            final List<String> expected = reference.documents();
            assertEquals(expected.size(), documents.size());
            for (int i = 0; i < expected.size(); i++)
            {
                assertEquals(expected.get(i), documents.get(i), "document " + i);
            }
            assertEquals(reference.rows(), rows());
            assertArrayEquals(Files.readAllBytes(reference.rejected), Files.readAllBytes(rejected));
        }

        /** @return every ingest document: starts, events and rejected lines, with their line numbers. */
        private List<String> documents()
        {
            final List<String> docs = new ArrayList<>();
            IngestLog.scan(JournalDirectory.open(journal), new IngestConsumer()
            {
                @Override
                public void onIngestStart(final long offset, final String source, final long firstLine, final boolean linesTagged)
                {
                    docs.add("start " + firstLine + " " + linesTagged);
                }

                @Override
                public void onRejected(final long offset, final long line, final String reason, final String content)
                {
                    docs.add("rejected " + line + " " + reason + " | " + content);
                }

                @Override
                public void onEvent(final long offset, final long line)
                {
                    docs.add("event " + line);
                }

                @Override
                public void onUnterminated(final long offset, final long line, final long bytes)
                {
                    docs.add("unterminated " + line + " " + bytes);
                }
            });
            return docs;
        }

        /** @return every event's fields as appended, string ids as ids, and the text of each id. */
        private List<String> rows()
        {
            final List<String> rows = new ArrayList<>();
            try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal)))
            {
                while (reader.poll((offset, event) ->
                {
                    final StringBuilder b = new StringBuilder().append(event.eventId()).append('|').append(event.eventTime());
                    for (int c = 0; c < schema.size(); c++)
                    {
                        b.append('|').append(schema.column(c).type() == ColumnType.STRING ? "#" + event.stringId(c) : event.longColumn(c));
                    }
                    rows.add(b.toString());
                }, 4096) > 0)
                {
                    // drain
                }
            }
            rows.addAll(JournalRows.events(journal));
            return rows;
        }
    }

    private static final String[] KEYS = {"k1", "k2", "key-3", "K_4", "a-b_c", "x"};

    private static byte[] defaultLine(final SplittableRandom random, final int i)
    {
        final String id = Long.toString(i);
        final String time = Long.toString(1_000L * i);
        final String key = random.nextInt(50) == 0 ? "new" + random.nextInt(1_000) : KEYS[random.nextInt(KEYS.length)];
        final String value = Long.toString(random.nextLong(-1_000_000, 1_000_000));
        if (random.nextInt(100) >= 25)
        {
            return utf8(id + "," + time + "," + key + "," + value);
        }
        return switch (random.nextInt(27))
        {
            case 0 -> utf8(" " + id + " , " + time + " ,\t" + key + ", " + value + " ");
            case 1 -> utf8("+" + id + "," + time + "," + key + ",+" + value);
            case 2 -> utf8(id + "," + time + "," + key + "," + "1234567890123456789");
            case 3 -> utf8(id + "," + time + "," + key + "," + "-9223372036854775808");
            case 4 -> utf8(id + "," + time + "," + key + "," + "9223372036854775808");
            case 5 -> utf8(id + ",-" + time + "," + key + "," + value);
            case 6 -> utf8(id + ",4611686018427387905," + key + "," + value);
            case 7 -> utf8(id + ",999999999999999999," + key + "," + value);
            case 8 -> utf8(",,,");
            case 9 -> utf8("");
            case 10 -> utf8("   ");
            case 11 -> utf8(id + "," + time + "," + key);
            case 12 -> utf8(id + "," + time + "," + key + "," + value + ",9");
            case 13 -> utf8(id + "," + time + ",clé" + "," + value);
            case 14 -> new byte[] {'1', ',', '2', ',', 'k', (byte)0xC3, ',', '3'};
            case 15 -> utf8(id + "," + time + ",\"" + key + "\"," + value);
            case 16 -> utf8(id + "," + time + "," + "k".repeat(64) + "," + value);
            case 17 -> utf8(id + "," + time + "," + "k".repeat(65) + "," + value);
            case 18 -> utf8(id + "," + time + "," + key + "\r," + value);
            case 19 -> utf8(id + "," + time + ",," + value);
            case 20 -> utf8(id + "," + time + "," + key + ",");
            case 21 -> utf8("-" + "," + time + "," + key + "," + value);
            case 22 -> utf8("007," + time + "," + key + ",-0");
            case 23 -> utf8(id + "," + time + "," + key + "," + value + "x");
            case 24 -> random.nextInt(20) == 0 ? utf8(id + "," + time + "," + key + "," + "9".repeat(70_000)) : utf8(id + ",1," + key + ",1");
            case 25 -> utf8(id + "," + time + "," + key + ",١٢٣");
            default -> utf8(id + "," + time + "," + key + "," + value + "\u00A0");
        };
    }

    private static final String[] CARDS = {"c1", "c2", "card-3", "Müller", "日本"};
    private static final String[] MERCHANTS = {"m-1", "\"Café \"\"Le Bon\"\", Paris\"", "\"Shop, Inc.\"", "\"m-1\"", "\"\"\"\"", "Zürich"};

    private static byte[] columnsLine(final SplittableRandom random, final int i)
    {
        final String id = Long.toString(i);
        final String time = Long.toString(1_000L * i);
        final String card = random.nextInt(40) == 0 ? "new-" + random.nextInt(500) : CARDS[random.nextInt(CARDS.length)];
        final String merchant = MERCHANTS[random.nextInt(MERCHANTS.length)];
        final long cents = random.nextLong(-100_000, 100_000);
        final String amount = (cents < 0 ? "-" : "") + Math.abs(cents) / 100 + (random.nextBoolean() ? "." + String.format("%02d", Math.abs(cents) % 100) : "");
        final String fee = Long.toString(random.nextLong(-50, 50));
        final String country = random.nextBoolean() ? "FR" : "\"DE\"";
        final String good = id + "," + time + "," + card + "," + merchant + "," + amount + "," + fee + "," + country;
        if (random.nextInt(100) >= 30)
        {
            return utf8(good);
        }
        final String rest = "," + fee + "," + country;
        final String head = id + "," + time + "," + card + "," + merchant + ",";
        return switch (random.nextInt(30))
        {
            case 0 -> utf8(head + "1.5" + rest);
            case 1 -> utf8(head + "1.555" + rest);
            case 2 -> utf8(head + ".5" + rest);
            case 3 -> utf8(head + "5." + rest);
            case 4 -> utf8(head + "+1.00" + rest);
            case 5 -> utf8(head + "-0.01" + rest);
            case 6 -> utf8(head + "9999999999999999.99" + rest);
            case 7 -> utf8(head + "92233720368547758.07" + rest);
            case 8 -> utf8(head + "92233720368547758.08" + rest);
            case 9 -> utf8(head + "-92233720368547758.08" + rest);
            case 10 -> utf8(head + "\"12.50\"" + rest);
            case 11 -> utf8(id + "," + time + ",," + merchant + "," + amount + rest);
            case 12 -> utf8(id + "," + time + ",\"\"," + merchant + "," + amount + rest);
            case 13 -> utf8(id + "," + time + "," + "x".repeat(257) + "," + merchant + "," + amount + rest);
            case 14 -> utf8(id + "," + time + "," + card + ",\"a\rb\"," + amount + rest);
            case 15 -> utf8(id + "," + time + "," + card + ",\"Shop\"x," + amount + rest);
            case 16 -> utf8(id + "," + time + "," + card + ",\"Shop, Inc.," + amount + rest);
            case 17 -> utf8(id + "," + time + "," + card + ",Sh\"op," + amount + rest);
            case 18 -> utf8(good + ",extra");
            case 19 -> utf8(head + amount + "," + fee);
            case 20 -> utf8(head + amount + ",+" + fee + "," + country);
            case 21 -> utf8(head + amount + ",99999999999999999999," + country);
            case 22 -> utf8("\"" + id + "\"," + time + "," + card + "," + merchant + "," + amount + rest);
            case 23 -> utf8(id + ",-5," + card + "," + merchant + "," + amount + rest);
            case 24 -> utf8(id + "," + time + ", " + card + "," + merchant + "," + amount + rest);
            case 25 -> new byte[] {'1', ',', '2', ',', (byte)0xC3, (byte)0xBC, 'x', (byte)0xFF, ',', 'm', ',', '1', ',', '1', ',', 'F', 'R'};
            case 26 -> utf8(id + "," + time + "," + card + ",\"" + "x".repeat(300) + "\"," + amount + rest);
            case 27 -> utf8(id + "," + time + "," + card + ",\"M\u00fcller\"," + amount + rest);
            case 28 -> utf8(head + "-" + rest);
            default -> utf8("");
        };
    }

    private static byte[] utf8(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
