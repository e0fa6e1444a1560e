package dev.weir.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;

import dev.weir.journal.EventJournal;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one parser against an independent model of the rules ({@link CsvLineModel}: Java's own parsing) on many
 * seeded hostile lines ({@link HostileLines}), in the default columns and in others: each line gets the model's
 * verdict and reason, read from its bytes (plain lines read without decoding once their strings were appended and
 * learned) and read as text; a valid line's values are the model's.
 */
class CsvLineParserModelTest
{
    private static final int LINES = 25_000;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void defaultColumnsAsTheModelReadsThem(final long seed)
    {
        check(JournalSchema.DEFAULT, seed);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void otherColumnsAsTheModelReadsThem(final long seed)
    {
        check(JournalSchema.parse(HostileLines.COLUMNS), seed);
    }

    private void check(final JournalSchema schema, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final CsvLineParser bytes = new CsvLineParser(schema);
        final CsvLineParser text = new CsvLineParser(schema);
        final CsvLineModel model = new CsvLineModel(schema);
        int valid = 0;
        int rejected = 0;
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("journal-" + seed), schema))
        {
            for (int i = 0; i < LINES; i++)
            {
                final byte[] line = schema.isDefault() ? HostileLines.defaultLine(random, i) : HostileLines.columnsLine(random, i);
                if (line.length > InputLines.MAX_LINE_BYTES)
                {
                    continue; // never parsed: an ingest rejects it as too long
                }
                final String decoded = decode(line);
                final String expected = decoded == null ? CsvLineParser.INVALID_UTF8 : model.parse(decoded);
                final String shown = decoded != null ? decoded : new String(line, StandardCharsets.UTF_8);
                assertEquals(expected, bytes.parse(line, 0, line.length), () -> "from its bytes: " + shown);
                if (expected == null)
                {
                    bytes.append(journal, i + 2, -1); // learns its strings: its next lines are read plain
                    valid++;
                }
                else
                {
                    rejected++;
                }
                if (decoded == null)
                {
                    continue;
                }
                assertEquals(expected, text.parse(decoded), () -> "as text: " + shown);
                if (expected == null)
                {
                    assertEquals(model.eventId(), text.eventId(), shown);
                    assertEquals(model.eventTime(), text.eventTime(), shown);
                    for (int c = 0; c < schema.size(); c++)
                    {
                        if (schema.column(c).type() == ColumnType.STRING)
                        {
                            assertEquals(model.string(c), text.string(c), shown);
                        }
                        else
                        {
                            assertEquals(model.longColumn(c), text.longColumn(c), shown);
                        }
                    }
                }
            }
        }
        final int v = valid;
        final int r = rejected;
        assertTrue(valid > LINES / 2 && rejected > LINES / 10, () -> "hostile enough: " + v + " valid, " + r + " rejected");
    }

    private static String decode(final byte[] line)
    {
        try
        {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(line)).toString();
        }
        catch (final CharacterCodingException ex)
        {
            return null;
        }
    }
}
