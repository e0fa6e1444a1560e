package dev.weir.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The RFC 4180 splitting of one line: quoted fields with commas and doubled quotes, empty fields, spaces
 * kept, and the lines it refuses (an unterminated quote, a quote in an unquoted field, text after a
 * closing quote), with their reasons.
 */
class CsvFieldsTest
{
    private final CsvFields fields = new CsvFields();

    @Test
    void splitsPlainFieldsKeepingSpacesAndEmptyFields()
    {
        assertEquals(List.of("a", " b ", "", "c"), split("a, b ,,c"));
        assertEquals(List.of(""), split(""));
        assertEquals(List.of("", ""), split(","));
        assertEquals(List.of("a", ""), split("a,"), "a trailing comma ends with an empty field");
        assertEquals(List.of("", "", ""), split(",,"));
    }

    @Test
    void quotedFieldsHoldCommasAndDoubledQuotes()
    {
        assertEquals(List.of("1", "Acme, Inc.", "x"), split("1,\"Acme, Inc.\",x"));
        assertEquals(List.of("say \"hi\"", "b"), split("\"say \"\"hi\"\"\",b"));
        assertEquals(List.of("\"", ","), split("\"\"\"\",\",\""), "a field of one quote, a field of one comma");
        assertEquals(List.of("", "x"), split("\"\",x"), "an empty quoted field");
        assertEquals(List.of("a", ""), split("a,\"\""), "an empty quoted field ends the line");
        assertEquals(List.of("\"\"", ",,"), split("\"\"\"\"\"\",\",,\""));
        assertFalse(fields.escaped(1));
        assertTrue(fields.escaped(0));
    }

    @Test
    void unicodeAndLongFieldsAreTakenWhole()
    {
        final String big = "\u00e9\u4e2d\uD83D\uDE00,".repeat(5000);
        assertEquals(List.of("Z\u00fcrich", "\u4e2d\u6587", big, "\uD83D\uDE00"),
            split("Z\u00fcrich,\"\u4e2d\u6587\",\"" + big + "\",\uD83D\uDE00"));
    }

    @Test
    void countsFieldsBeyondThoseItRecords()
    {
        final String line = ",".repeat(CsvFields.MAX_FIELDS + 10);
        assertNull(fields.split(line, null));
        assertEquals(CsvFields.MAX_FIELDS + 11, fields.count());
    }

    @Test
    void refusesAnUnterminatedQuote()
    {
        final String[] names = {"event_id", "event_time", "card"};
        assertEquals("unterminated quote in field 3 (card)", fields.split("1,2,\"abc", names));
        assertEquals("unterminated quote in field 3 (card)", fields.split("1,2,\"abc\"\"", names), "a doubled quote does not close");
        assertEquals("unterminated quote in field 1 (event_id)", fields.split("\"", names));
        assertEquals("unterminated quote in field 4", fields.split("1,2,x,\"a,b", names), "a field beyond the names is numbered");
    }

    @Test
    void refusesAQuoteInAnUnquotedField()
    {
        assertEquals("quote in unquoted field 2 (b) (quote the field and double its quotes)",
            fields.split("x,ab\"c\",y", new String[] {"a", "b", "c"}));
        assertEquals("quote in unquoted field 1 (quote the field and double its quotes)", fields.split(" \"a\"", null),
            "a space before the opening quote makes the field unquoted");
    }

    @Test
    void refusesTextAfterAClosingQuote()
    {
        assertEquals("text after the closing quote of field 1 (a)", fields.split("\"a\"b,c", new String[] {"a"}));
        assertEquals("text after the closing quote of field 2", fields.split("x,\"a\" ", null));
    }

    private List<String> split(final String line)
    {
        assertNull(fields.split(line, null), line);
        final List<String> texts = new ArrayList<>();
        for (int i = 0; i < fields.count(); i++)
        {
            texts.add(fields.text(i));
        }
        return texts;
    }
}
