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

import dev.weir.journal.EventJournal;
import dev.weir.journal.IngestConsumer;
import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.testsupport.JournalRows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one parser's allocation-free reading of plain lines from their bytes ({@link PlainLine}, first) against its
 * text reading alone (every line decoded and parsed as a {@link String}, as before issue 18), on seeded hostile
 * inputs ({@link HostileLines}) over more than one read
 * chunk: quotes, CRLF, UTF-8 keys and invalid UTF-8, empty and missing fields, spaces, signs, overlong
 * numbers, a line too long, and a half-written last line, left pending, then completed and resumed.
 * Both must append the same documents (events with their line numbers and string ids, rejected lines
 * with their reasons and content) and export the same rejected file, in the default columns and in
 * others.
 */
class IngestBytesCrossCheckTest
{
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
        crossCheck(JournalSchema.parse(HostileLines.COLUMNS), seed, false);
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
        out.writeBytes((defaultColumns ? CsvLineParser.DEFAULT_HEADER : "event_id,event_time,card,merchant,amount,fee,country").getBytes(StandardCharsets.UTF_8));
        out.writeBytes(random.nextBoolean() ? "\r\n".getBytes(StandardCharsets.UTF_8) : new byte[] {'\n'});
        for (int i = 0; i < 40_000; i++)
        {
            out.writeBytes(defaultColumns ? HostileLines.defaultLine(random, i) : HostileLines.columnsLine(random, i));
            out.writeBytes(random.nextInt(5) == 0 ? "\r\n".getBytes(StandardCharsets.UTF_8) : new byte[] {'\n'});
        }
        final byte[] last = defaultColumns ? HostileLines.defaultLine(random, 40_000) : HostileLines.columnsLine(random, 40_000);
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
        Files.write(input, defaultColumns ? HostileLines.defaultLine(random, 1) : HostileLines.columnsLine(random, 1), StandardOpenOption.APPEND); // unterminated
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
        private final CsvIngest.Builder builder;
        private final Path input;
        private final JournalSchema schema;

        Run(final Path base, final Path input, final boolean bytesFirst, final JournalSchema schema)
        {
            this.journal = base.resolve("journal");
            this.rejected = base.resolve("rejected.csv");
            final CsvIngest.Builder builder = CsvIngest.into(journal).rejected(rejected);
            this.builder = bytesFirst ? builder : builder.textOnly();
            this.input = input;
            this.schema = schema;
        }

        CsvIngest.Summary ingest(final boolean complete)
        {
            EventJournal.openOrCreate(journal, schema).close();
            return builder.complete(complete).build().ingest(input);
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
}
