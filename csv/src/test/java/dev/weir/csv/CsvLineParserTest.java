package dev.weir.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import dev.weir.journal.EventJournal;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.testsupport.JournalRows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Typed parsing of one line against a schema: each column type's rule and reason, quoted fields, the
 * field count, event id and time as the default columns read them, and the default columns read as an
 * independent model of their rules ({@link CsvLineModel}) reads them, reasons included, from their bytes as from
 * their text.
 */
class CsvLineParserTest
{
    private static final JournalSchema PAYMENTS =
        JournalSchema.parse("card:string,merchant:string,country:string,amount:decimal(2),fee:long,channel:string");

    private final CsvLineParser payments = new CsvLineParser(PAYMENTS);

    @Test
    void readsEveryColumnByItsType()
    {
        assertNull(payments.parse("7,1000,c1,\"Acme, \"\"the\"\" shop\",CH,12.3,-5,web"));
        assertEquals(7, payments.eventId());
        assertEquals(1000, payments.eventTime());
        assertEquals("c1", payments.string(0));
        assertEquals("Acme, \"the\" shop", payments.string(1));
        assertEquals("CH", payments.string(2));
        assertEquals(1230, payments.longColumn(3), "12.3 at scale 2 is 1230");
        assertEquals(-5, payments.longColumn(4));
        assertEquals("web", payments.string(5));

        assertNull(payments.parse("\"8\",\"2000\",\" spaced \",\u00e9\u4e2d\uD83D\uDE00,\"\"\"\",\"-0.07\",\"0\",\",\""));
        assertEquals(8, payments.eventId());
        assertEquals(" spaced ", payments.string(0), "spaces are kept");
        assertEquals("\u00e9\u4e2d\uD83D\uDE00", payments.string(1));
        assertEquals("\"", payments.string(2));
        assertEquals(-7, payments.longColumn(3));
        assertEquals(",", payments.string(5));
    }

    @Test
    void decimalsArePaddedToTheirScaleAndRefusedWhenMalformedOrTooLarge()
    {
        final CsvLineParser line = new CsvLineParser(JournalSchema.parse("d:decimal(2)"));
        assertDecimal(line, "12.34", 1234);
        assertDecimal(line, "12", 1200);
        assertDecimal(line, "-0.5", -50);
        assertDecimal(line, "007.00", 700);
        assertDecimal(line, "92233720368547758.07", Long.MAX_VALUE);
        assertDecimal(line, "-92233720368547758.08", Long.MIN_VALUE);
        for (final String bad : List.of("", "-", ".5", "12.", "1.234", "+1", "1e3", " 1", "1 ", "1.2.3", "--1", "\u0661",
            "92233720368547758.08", "-92233720368547758.09", "99999999999999999999", "92233720368547759"))
        {
            assertEquals("bad decimal in column d: " + bad + " (scale 2)", line.parse("1,1," + bad), bad);
        }
        final CsvLineParser whole = new CsvLineParser(JournalSchema.parse("d:decimal(0)"));
        assertDecimal(whole, "-9223372036854775808", Long.MIN_VALUE);
        assertEquals("bad decimal in column d: 1.0 (scale 0)", whole.parse("1,1,1.0"));
        for (final String bad : List.of("9223372036854775808", "-9223372036854775809", "18446744073709551616", "-18446744073709551617"))
        {
            assertEquals("bad decimal in column d: " + bad + " (scale 0)", whole.parse("1,1," + bad), "an overflow that wraps around: " + bad);
        }
        final CsvLineParser fine = new CsvLineParser(JournalSchema.parse("d:decimal(18)"));
        assertDecimal(fine, "9.223372036854775807", Long.MAX_VALUE);
        assertDecimal(fine, "0.000000000000000001", 1);
        assertEquals("bad decimal in column d: 10 (scale 18)", fine.parse("1,1,10"));
    }

    @Test
    void longsAreSixtyFourBitIntegers()
    {
        final CsvLineParser line = new CsvLineParser(JournalSchema.parse("n:long,s:string"));
        assertNull(line.parse("1,1,-9223372036854775808,x"));
        assertEquals(Long.MIN_VALUE, line.longColumn(0));
        assertEquals("bad long in column n: 12x", line.parse("1,1,12x,x"));
        assertEquals("bad long in column n: 9223372036854775808", line.parse("1,1,9223372036854775808,x"));
        assertEquals("bad long in column n: ", line.parse("1,1,,x"));
        assertEquals("bad long in column n:  5", line.parse("1,1, 5,x"), "no trimming");
        assertEquals("bad long in column n: 1.5", line.parse("1,1,\"1.5\",x"));
        assertEquals("bad long in column n: " + "9".repeat(80) + "...", line.parse("1,1," + "9".repeat(200) + ",x"), "a long field is cut");
    }

    @Test
    void stringsAreOneTo256BytesOfUtf8WithoutLineBreaks()
    {
        final CsvLineParser line = new CsvLineParser(JournalSchema.parse("s:string"));
        assertNull(line.parse("1,1," + "x".repeat(256)));
        assertNull(line.parse("1,1," + "\u00e9".repeat(128)));
        assertNull(line.parse("1,1," + "\uD83D\uDE00".repeat(64)));
        assertNull(line.parse("1,1,\"" + "\"\"".repeat(256) + "\""), "256 quotes, doubled in the line");
        assertEquals("\"".repeat(256), line.string(0));
        assertEquals("string over 256 bytes in column s", line.parse("1,1," + "x".repeat(257)));
        assertEquals("string over 256 bytes in column s", line.parse("1,1," + "\u00e9".repeat(128) + "x"));
        assertEquals("string over 256 bytes in column s", line.parse("1,1," + "\u4e2d".repeat(86)), "3 bytes each: 258");
        assertEquals("string over 256 bytes in column s", line.parse("1,1," + "x".repeat(60_000)));
        assertEquals("empty string in column s", line.parse("1,1,"));
        assertEquals("empty string in column s", line.parse("1,1,\"\""));
        assertEquals("line break in column s", line.parse("1,1,\"a\rb\""));
    }

    @Test
    void refusesAWrongFieldCountAndBadQuoting()
    {
        assertEquals("expected 8 fields, got 7", payments.parse("1,1000,c1,m,CH,1.00,0"));
        assertEquals("expected 8 fields, got 9", payments.parse("1,1000,c1,m,CH,1.00,0,web,"));
        assertEquals("expected 8 fields, got 7", payments.parse("1,1000,c1,\"m,CH\",1.00,0,web"), "a quoted comma is no separator");
        assertEquals("empty line", payments.parse(""));
        assertEquals("empty line", payments.parse("   "));
        assertEquals("unterminated quote in field 4 (merchant)", payments.parse("1,1000,c1,\"Acme, Inc.,CH,1.00,0,web"));
        assertEquals("quote in unquoted field 4 (merchant) (quote the field and double its quotes)",
            payments.parse("1,1000,c1,Acme \"the\" shop,CH,1.00,0,web"));
        assertEquals("text after the closing quote of field 3 (card)", payments.parse("1,1000,\"c1\"x,m,CH,1.00,0,web"));
    }

    @Test
    void eventIdAndTimeFollowTheRulesOfEveryEventLine()
    {
        assertEquals("event_id is not a 64-bit integer: 'x4'", payments.parse("x4,1000,c,m,CH,1,0,web"));
        assertEquals("event_id is not a 64-bit integer: ''", payments.parse(",1000,c,m,CH,1,0,web"));
        assertEquals("event_time is neither epoch milliseconds nor an ISO-8601 instant (2026-12-02T09:30:00Z): 'soon'",
            payments.parse("1,soon,c,m,CH,1,0,web"));
        assertEquals("event_time is negative: -1", payments.parse("1,-1,c,m,CH,1,0,web"));
        assertEquals("event_time is later than 4611686018427387904: 4611686018427387905",
            payments.parse("1,4611686018427387905,c,m,CH,1,0,web"));
    }

    @Test
    void theDefaultSchemaReadsLinesAsItsModelDoesWithItsReasons()
    {
        final CsvLineParser line = new CsvLineParser(JournalSchema.parse("key:string,value:long"));
        final CsvLineModel today = new CsvLineModel(JournalSchema.DEFAULT);
        final List<String> lines = List.of("1,1000,a,10", " 2 , 1000 , b-_9 , -7 ", "2,1000,a", "3,1000,a,10,99", "x4,1000,a,10", "5,soon,a,10",
            "6,-1,a,10", "7,1000,a b,10", "8,1000,,10", "9,1000," + "k".repeat(65) + ",10", "10,1000,a,ten", "11,1000,a,99999999999999999999",
            "", "  ", "1,1,\"a\",1", "1,1,\"a,b\",1", "1,1,\"a", "12,4611686018427387905,a,1", "\uFEFF1,1,a,1", "1,1,\u00e9,1");
        for (final String text : lines)
        {
            final String why = today.parse(text);
            assertEquals(why, line.parse(text), text);
            if (why == null)
            {
                assertEquals(today.eventId(), line.eventId());
                assertEquals(today.eventTime(), line.eventTime());
                assertEquals(today.string(0), line.string(0));
                assertEquals(today.longColumn(1), line.longColumn(1));
            }
        }
        assertEquals("expected 4 fields (event_id,event_time,key,value), found 3", line.parse("2,1000,a"));
        assertEquals("key has characters outside [A-Za-z0-9_-]: '\"a\"'", line.parse("1,1,\"a\",1"), "no quoting in the default schema");
        assertEquals("empty key: ''", line.parse("8,1000,,10"));
        assertEquals("value is not a 64-bit integer: 'ten'", line.parse("10,1000,a,ten"));
    }

    /**
     * The default columns' own plain reading from the bytes takes exactly the lines of its shape (long, long, a
     * learned key, long, no sign on the time, at most 18 digits a number) and hands any other line, however far it
     * got, to the general reading, with its reason; the events appended either way are the model's.
     */
    @Test
    void aDefaultLineIsReadPlainOnlyInItsPlainShapeEvenToItsLastField(@TempDir final Path dir)
    {
        final CsvLineParser parser = new CsvLineParser(JournalSchema.DEFAULT);
        final CsvLineModel model = new CsvLineModel(JournalSchema.DEFAULT);
        final Pattern plainShape = Pattern.compile("-?[0-9]{1,18},[0-9]{1,18},(k1|k2),-?[0-9]{1,18}");
        final List<String> learned = new ArrayList<>();
        final List<String> expected = new ArrayList<>();
        final List<String> lines = List.of("1,1000,k1,5", "2,1000,k1,-6", "3,1000,k1,7x", "4,1000,k1,7 ", "5,1000,k1,+7", "6,1000,k1,",
            "7,1000,k1,-", "8,1000,k1,7,8", "9,1000,k1,1234567890123456789", "10,1000,k1,123456789012345678", "11,1000,k1,-9223372036854775808",
            "12,1000,k1,9223372036854775808", "13,1000,k1,7\"", "14,1000,k1,7\u00A0", "15,1000,k1,0", "16,+1000,k1,1", "17,1000,k2,1",
            "18,1000,k2,1", "19,1000,k2x,1", "20,1000,k1 ,1", "21,1000,k1", "-22,1000,k2,-0", "23,-1000,k1,1", "24,1000,k1,\"7\"");
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("journal")))
        {
            for (int n = 0; n < lines.size(); n++)
            {
                final String line = lines.get(n);
                final byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
                final String why = model.parse(line);
                assertEquals(why, parser.parse(bytes, 0, bytes.length), line);
                final boolean plain = plainShape.matcher(line).matches() && learned.contains(line.split(",")[2]);
                assertEquals(plain, parser.text() == null, () -> (plain ? "read plain: " : "read as text: ") + line);
                if (why == null)
                {
                    parser.append(journal, n + 2, -1);
                    learned.add(model.string(0));
                    expected.add(model.eventId() + "|" + model.eventTime() + "|" + model.string(0) + "|" + model.longColumn(1));
                }
            }
        }
        assertEquals(expected, JournalRows.events(dir.resolve("journal")));
    }

    private static void assertDecimal(final CsvLineParser line, final String text, final long unscaled)
    {
        assertNull(line.parse("1,1," + text), text);
        assertEquals(unscaled, line.longColumn(0), text);
    }
}
