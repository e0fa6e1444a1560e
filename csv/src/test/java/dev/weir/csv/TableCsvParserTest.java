package dev.weir.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import org.junit.jupiter.api.Test;

/**
 * A table CSV line ({@code event_time}, the table's columns, an optional {@code op}): each column read by its type,
 * quoted fields, epoch and ISO-8601 times, upserts and tombstones, and hostile lines rejected with the events' reasons
 * where they apply (checked against {@link CsvLineParser} on the same fields) or the table's own (a bad {@code op}, an
 * empty key column, a missing field); the header with and without {@code op}; and the columns a table may not have.
 */
class TableCsvParserTest
{
    private static final String COLUMNS = "card:string,home:string,limit:decimal(2),segment:string";
    private static final TableDefinition CARDS = TableDefinition.parse("cards", "card", COLUMNS);

    private final TableCsvParser withOp = new TableCsvParser(CARDS, true);
    private final TableCsvParser withoutOp = new TableCsvParser(CARDS, false);

    @Test
    void readsEveryColumnByItsTypeAndTheOpOfEachRow()
    {
        assertNull(withoutOp.parse("1000,c1,\"Z\u00fcrich, \"\"CH\"\"\",1500.5,gold"));
        assertEquals(1000, withoutOp.validFrom());
        assertFalse(withoutOp.tombstone());
        assertEquals("c1", withoutOp.string(0));
        assertEquals("Z\u00fcrich, \"CH\"", withoutOp.string(1));
        assertEquals(150_050, withoutOp.longColumn(2));
        assertEquals("gold", withoutOp.string(3));

        assertNull(withOp.parse("2026-12-02T10:30:00.250+01:00,c2,DE,-0.07,silver,"), "an empty op is an upsert");
        assertEquals(1_796_203_800_250L, withOp.validFrom());
        assertFalse(withOp.tombstone());
        assertEquals(-7, withOp.longColumn(2));
        assertNull(withOp.parse("3000,c2,DE,10,silver,upsert"));
        assertFalse(withOp.tombstone());

        assertNull(withOp.parse("4000,c2,,,,delete"), "a tombstone's other columns may be empty");
        assertTrue(withOp.tombstone());
        assertEquals(4000, withOp.validFrom());
        assertEquals("c2", withOp.string(0));
        assertEquals(0, withOp.longColumn(2), "ignored: read as zero");
        assertEquals("", withOp.string(1));
        assertNull(withOp.parse("5000,c3,x y,not a decimal,,delete"), "and are not read");
        assertTrue(withOp.tombstone());
    }

    @Test
    void hostileLinesAreRejectedWithTheirReasons()
    {
        final List<String[]> cases = List.of(
            new String[] {"1000,c1,CH,10,gold,insert", "op must be upsert, delete or empty: 'insert'"},
            new String[] {"1000,c1,CH,10,gold,DELETE", "op must be upsert, delete or empty: 'DELETE'"},
            new String[] {"1000,c1,CH,10,gold, delete", "op must be upsert, delete or empty: ' delete'"},
            new String[] {"1000,,CH,10,gold,", "empty key column card"},
            new String[] {"1000,,,,,delete", "empty key column card"},
            new String[] {"1000,c1,,10,gold,", "empty string in column home"},
            new String[] {"1000,c1,CH,1.234,gold,", "bad decimal in column limit: 1.234 (scale 2)"},
            new String[] {"1000,c1,CH,ten,gold,upsert", "bad decimal in column limit: ten (scale 2)"},
            new String[] {"1000,c1,CH,10,gold", "expected 6 fields, got 5"},
            new String[] {"1000,c1,CH,10,gold,,", "expected 6 fields, got 7"},
            new String[] {"1000,c1,\"CH,10,gold,", "unterminated quote in field 3 (home)"},
            new String[] {"1000,c1,C\"H,10,gold,", "quote in unquoted field 3 (home) (quote the field and double its quotes)"},
            new String[] {"1000,\"c1\"x,CH,10,gold,", "text after the closing quote of field 2 (card)"},
            new String[] {"2026-13-02T10:30:00Z,c1,CH,10,gold,",
                "event_time is neither epoch milliseconds nor an ISO-8601 instant (2026-12-02T09:30:00Z): '2026-13-02T10:30:00Z'"},
            new String[] {"2026-12-02T10:30:00,c1,CH,10,gold,",
                "event_time is neither epoch milliseconds nor an ISO-8601 instant (2026-12-02T09:30:00Z): '2026-12-02T10:30:00'"},
            new String[] {",c1,CH,10,gold,", "event_time is neither epoch milliseconds nor an ISO-8601 instant (2026-12-02T09:30:00Z): ''"},
            new String[] {"-1,c1,CH,10,gold,", "event_time is negative: -1"},
            new String[] {"4611686018427387905,c1,CH,10,gold,delete", "event_time is later than 4611686018427387904: 4611686018427387905"},
            new String[] {"1000,c1,CH,10," + "s".repeat(257) + ",", "string over 256 bytes in column segment"},
            new String[] {"", "empty line"},
            new String[] {"  ", "empty line"});
        for (final String[] c : cases)
        {
            assertEquals(c[1], withOp.parse(c[0]), c[0]);
        }
        assertEquals("expected 5 fields, got 6", withoutOp.parse("1000,c1,CH,10,gold,delete"), "no op column: a sixth field is one too many");
        final byte[] invalid = {'1', ',', 'c', (byte)0xC3, ',', 'C', ',', '1', ',', 'g', ','};
        assertEquals(CsvLineParser.INVALID_UTF8, withOp.parse(invalid, 0, invalid.length));
        assertNull(withOp.text());
    }

    @Test
    void aFieldIsRejectedForTheReasonAnEventsLineGivesIt()
    {
        final SplittableRandom random = new SplittableRandom(32);
        final CsvLineParser events = new CsvLineParser(JournalSchema.parse(COLUMNS));
        final String[] times = {"1000", "2026-12-02T10:30:00Z", "2026-12-02T10:30:00.5+14:00", "2026-02-30T00:00:00Z", "1e3", "-5", " 1", "",
            "9223372036854775808", "\"1000\""};
        final String[] strings = {"c1", "", "\"a,b\"", "\"\"\"\"", "\u00e9", "x".repeat(256), "x".repeat(257), " "};
        final String[] decimals = {"1", "1.5", "1.55", "1.555", "-0", "+1", "", "1,", "92233720368547758.08"};
        for (int i = 0; i < 2_000; i++)
        {
            final String fields = pick(random, times) + "," + pick(random, strings) + "," + pick(random, strings) + "," + pick(random, decimals)
                + "," + pick(random, strings);
            final String eventReason = events.parse("1," + fields);
            final String tableReason = withoutOp.parse(fields);
            if ("empty key column card".equals(tableReason))
            {
                assertEquals("empty string in column card", eventReason, fields);
                continue;
            }
            assertEquals(withoutFieldNumbers(eventReason), withoutFieldNumbers(tableReason), fields);
            if (eventReason == null)
            {
                assertEquals(events.eventTime(), withoutOp.validFrom(), fields);
                assertEquals(events.string(0), withoutOp.string(0), fields);
                assertEquals(events.string(1), withoutOp.string(1), fields);
                assertEquals(events.longColumn(2), withoutOp.longColumn(2), fields);
                assertEquals(events.string(3), withoutOp.string(3), fields);
            }
        }
    }

    @Test
    void theHeaderIsTheTablesWithOrWithoutOp() throws IOException
    {
        assertEquals("event_time,card,home,limit,segment", TableCsvParser.header(CARDS));
        assertFalse(TableCsvParser.checkHeader("t.csv", lines("event_time,card,home,limit,segment\n"), CARDS));
        assertTrue(TableCsvParser.checkHeader("t.csv", lines("\uFEFFevent_time,card,home,limit,segment,op\r\n"), CARDS), "a BOM and CRLF");
        final CsvInputException wrong = assertThrows(CsvInputException.class,
            () -> TableCsvParser.checkHeader("t.csv", lines("event_time,card,limit,home,segment\n"), CARDS));
        assertEquals("t.csv does not start with the header 'event_time,card,home,limit,segment' (optionally followed by ',op') of table cards; "
            + "its first line is 'event_time,card,limit,home,segment'", wrong.getMessage());
        final CsvInputException events = assertThrows(CsvInputException.class,
            () -> TableCsvParser.checkHeader("t.csv", lines("event_id,event_time,card,home,limit,segment\n"), CARDS));
        assertTrue(events.getMessage().contains("its first line is 'event_id,event_time,card,home,limit,segment'"), events.getMessage());
        final CsvInputException empty = assertThrows(CsvInputException.class, () -> TableCsvParser.checkHeader("t.csv", lines(""), CARDS));
        assertTrue(empty.getMessage().endsWith("its first line is missing: the file is empty"), empty.getMessage());
    }

    @Test
    void aTableMayNotHaveAColumnNamedOpOrEventTime()
    {
        final TableDefinition op = TableDefinition.parse("t", "k", "k:string,op:string");
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new TableCsvParser(op, false));
        assertEquals("table t: column name 'op' is reserved: a table CSV's last column op tells an upsert from a delete", refused.getMessage());
        final IllegalArgumentException time = assertThrows(IllegalArgumentException.class,
            () -> TableDefinition.parse("t", "k", "k:string,event_time:long"));
        assertTrue(time.getMessage().startsWith("table t: column name 'event_time' is reserved"), time.getMessage());
    }

    /** @return a reason without the numbers of fields, which an events line counts from its event_id on. */
    private static String withoutFieldNumbers(final String reason)
    {
        return reason == null ? null : reason.replaceAll("field \\d+ \\(", "field (").replaceAll("expected \\d+ fields, got \\d+", "expected N fields");
    }

    private static String pick(final SplittableRandom random, final String[] values)
    {
        return values[random.nextInt(values.length)];
    }

    private static InputLines lines(final String text)
    {
        return new InputLines(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }
}
