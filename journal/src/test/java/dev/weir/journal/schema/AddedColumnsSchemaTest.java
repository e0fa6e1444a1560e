package dev.weir.journal.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rules of columns added to a journal's schema: a default on a column is parsed and checked as a field of its
 * type and round-trips in the text form; {@link JournalSchema#extend} accepts only new columns at the end, each
 * with a default, and refuses every other change with a message naming the column and the rule.
 */
class AddedColumnsSchemaTest
{
    private static final JournalSchema FOUR = JournalSchema.parse("country:string,card:string,amount:decimal(2),fee:long");

    @Test
    void aDefaultIsParsedAsAFieldOfItsTypeAndRoundTrips()
    {
        final JournalSchema schema = JournalSchema.parse("channel:string=web,fee:decimal(2)=0,n:long=-1,note:string=a b=c:d");
        assertEquals(new JournalSchema.Column("channel", ColumnType.STRING, 0, "web"), schema.column(0));
        assertEquals("0.00", schema.column(1).defaultValue(), "a decimal's default has its scale's digits");
        assertEquals(0, schema.column(1).defaultLong());
        assertEquals(-1, schema.column(2).defaultLong());
        assertEquals("a b=c:d", schema.column(3).defaultValue(), "everything after the first '=' is the string");
        assertEquals("channel:string=web,fee:decimal(2)=0.00,n:long=-1,note:string=a b=c:d", schema.toString());
        assertEquals(schema, JournalSchema.parse(schema.toString()));
        assertEquals(1250, JournalSchema.parse("tip:decimal(2)=12.5").column(0).defaultLong());
        assertNull(FOUR.column(0).defaultValue());
        assertEquals(1, schema.generation(), "a parsed schema is all of generation 1");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "channel:string=|column 'channel': its default is not valid: empty string in column channel",
        "n:long=x|column 'n': its default is not valid: bad long in column n: x",
        "n:long=1.5|column 'n': its default is not valid: bad long in column n: 1.5",
        "fee:decimal(2)=0.123|column 'fee': its default is not valid: bad decimal in column fee: 0.123 (scale 2)",
        "fee:decimal(2)=|column 'fee': its default is not valid: bad decimal in column fee:  (scale 2)",
        "note:string=a,b,n:long|column 'note': a string default cannot contain ','"})
    void anInvalidDefaultIsRefusedWithItsReason(final String spec, final String message)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> JournalSchema.parse(spec));
        assertTrue(ex.getMessage().startsWith(message), ex.getMessage());
    }

    @Test
    void aStringDefaultFollowsTheStringRules()
    {
        final String long257 = "x".repeat(JournalSchema.MAX_STRING_BYTES + 1);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JournalSchema.parse("s:string=" + long257)).getMessage()
            .contains("string over 256 bytes in column s"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JournalSchema.parse("s:string=a\nb")).getMessage()
            .contains("line break in column s"));
    }

    @Test
    void columnsWithDefaultsAtTheEndExtendASchemaAsItsNextGeneration()
    {
        final JournalSchema six = FOUR.extend(JournalSchema.parse(FOUR + ",channel:string=web,tip:decimal(2)=0.5"));
        assertEquals("country:string,card:string,amount:decimal(2),fee:long,channel:string=web,tip:decimal(2)=0.50", six.toString());
        assertEquals(2, six.generation());
        assertEquals(List.of(1, 1, 1, 1, 2, 2), List.of(six.generationOf(0), six.generationOf(1), six.generationOf(2),
            six.generationOf(3), six.generationOf(4), six.generationOf(5)));
        assertEquals(FOUR, six.original());
        final JournalSchema seven = six.extend(JournalSchema.parse(six + ",n:long=7"));
        assertEquals(3, seven.generation());
        assertEquals(six, seven.upTo(2));
        assertEquals(3, seven.generationWritten(seven.toString()));
        assertEquals(1, seven.generationWritten(FOUR.toString()));
        assertEquals(0, seven.generationWritten("country:string"));
        // a default repeated on a column the journal was created with is ignored; one on an added column must match
        assertTrue(six.sameColumns(JournalSchema.parse("country:string=x,card:string,amount:decimal(2),fee:long,channel:string,tip:decimal(2)=0.50")));
        assertEquals(1, six.withoutDefaults().generation(), "what a journal created with it has");
        assertFalse(six.withoutDefaults().toString().contains("="));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // removed
        "country:string,card:string,amount:decimal(2)|column 'fee' is missing from country:string,card:string,amount:decimal(2): a journal's columns cannot be removed",
        // renamed
        "country:string,cardholder:string,amount:decimal(2),fee:long,channel:string=web|column 2 is 'card', not 'cardholder': a journal's columns cannot be removed or renamed",
        // reordered
        "card:string,country:string,amount:decimal(2),fee:long,channel:string=web|column 1 is 'country', not 'card': a journal's columns cannot be reordered",
        // retyped
        "country:string,card:string,amount:decimal(3),fee:long,channel:string=web|column 'amount' is amount:decimal(2), not amount:decimal(3): a journal's column cannot change its type",
        "country:string,card:string,amount:decimal(2),fee:string,channel:string=web|column 'fee' is fee:long, not fee:string: a journal's column cannot change its type",
        // a new column without a default
        "country:string,card:string,amount:decimal(2),fee:long,channel:string|column 'channel' is added without a default: write channel:string=VALUE",
        "country:string,card:string,amount:decimal(2),fee:long,channel:string=web,tip:decimal(2)|column 'tip' is added without a default: write tip:decimal(2)=VALUE",
        // nothing added
        "country:string,card:string,amount:decimal(2),fee:long|no column to add: the journal's columns are country:string,card:string,amount:decimal(2),fee:long"})
    void everyOtherChangeIsRefusedNamingTheColumnAndTheRule(final String wanted, final String message)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> FOUR.extend(JournalSchema.parse(wanted)));
        assertTrue(ex.getMessage().startsWith(message), ex.getMessage());
    }

    @Test
    void anAddedColumnsDefaultCannotChange()
    {
        final JournalSchema five = FOUR.extend(JournalSchema.parse(FOUR + ",channel:string=web"));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> five.extend(JournalSchema.parse(FOUR + ",channel:string=app,n:long=1")));
        assertTrue(ex.getMessage().startsWith("column 'channel' was added with the default web, not app: a column's default cannot change"),
            ex.getMessage());
        assertTrue(five.sameColumns(JournalSchema.parse(FOUR + ",channel:string")), "the default need not be repeated");
    }
}
