package dev.weir.journal.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;

import dev.weir.journal.schema.TableDefinition;

/**
 * {@link TableRowEncoder} and {@link TableRowDecoder}: round trips of every column type, a tombstone, unicode and
 * 256-byte strings, with and without a line; the bytes of the documented layout; and what is not a table row.
 */
class TableRowCodecTest
{
    static final TableDefinition CARDS = TableDefinition.parse("cards", "card", "card:string,home:string,limit:decimal(2)=0,segment:string,visits:long");
    static final TableDefinition FX = TableDefinition.parse("fx", "base,quote", "base:string,quote:string,rate:decimal(6)");

    private final TableRowDecoder decoder = new TableRowDecoder(List.of(CARDS, FX));

    @Test
    void roundTripsEveryColumnTypeWithALine()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        new TableRowEncoder(0, CARDS).wrap(bytes, false, 1_764_000_000_000L).longColumn(2, 150_000).longColumn(4, Long.MIN_VALUE)
            .text("c-1").text("DE").text("gold").line(41);
        assertTrue(decoder.wrap(bytes));
        assertEquals(List.of(0, false, 1_764_000_000_000L, 150_000L, Long.MIN_VALUE, 41L), List.of(decoder.table(), decoder.tombstone(),
            decoder.validFrom(), decoder.longColumn(2), decoder.longColumn(4), decoder.line()));
        assertEquals(List.of("c-1", "DE", "gold"), List.of(decoder.string(0).toString(), decoder.string(1).toString(), decoder.string(3).toString()));
        assertEquals(0, bytes.readPosition(), "the read position is left where it was");
    }

    @Test
    void roundTripsATombstoneOfACompositeKeyWithoutALine()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        new TableRowEncoder(1, FX).wrap(bytes, true, 5).longColumn(2, 0).text("EUR").text("USD");
        assertTrue(decoder.wrap(bytes));
        assertEquals(List.of(1, true, 5L, 0L, -1L), List.of(decoder.table(), decoder.tombstone(), decoder.validFrom(), decoder.longColumn(2),
            decoder.line()));
        assertEquals(List.of("EUR", "USD"), List.of(decoder.string(0).toString(), decoder.string(1).toString()));
    }

    @Test
    void roundTripsUnicodeAndTheLongestStrings()
    {
        final String longest = "\u00e9".repeat(128); // 256 bytes of UTF-8
        final String astral = "\ud83d\udcb3 card \u4e2d\u6587";
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        new TableRowEncoder(0, CARDS).wrap(bytes, false, 0).longColumn(2, -1).longColumn(4, Long.MAX_VALUE).text(longest).text(astral)
            .text("x".repeat(256));
        assertTrue(decoder.wrap(bytes));
        assertEquals(longest, decoder.string(0).toString());
        assertEquals(astral, decoder.string(1).toString());
        assertEquals("x".repeat(256), decoder.string(3).toString());
        assertEquals(List.of(-1L, Long.MAX_VALUE), List.of(decoder.longColumn(2), decoder.longColumn(4)));
    }

    @Test
    void writesTheDocumentedLayout()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        new TableRowEncoder(1, FX).wrap(bytes, true, 0x0102030405060708L).longColumn(2, 9).text("A").text("B").line(3);
        assertEquals(TableRowEncoder.LONGS + 8, TableRowEncoder.length(FX.columns()));
        assertEquals(DocumentType.TABLE_ROW, bytes.readByte(0));
        assertEquals(1, bytes.readByte(TableRowEncoder.TABLE));
        assertEquals(TableRowEncoder.TOMBSTONE, bytes.readByte(TableRowEncoder.FLAGS));
        assertEquals(0x08, bytes.readByte(TableRowEncoder.VALID_FROM), "little-endian");
        assertEquals(0x0102030405060708L, bytes.readLong(TableRowEncoder.VALID_FROM));
        assertEquals(9, bytes.readLong(TableRowEncoder.LONGS));
        assertEquals(List.of(1, (int)'A', 1, (int)'B', 3), List.of((int)bytes.readByte(19), (int)bytes.readByte(20), (int)bytes.readByte(21),
            (int)bytes.readByte(22), (int)bytes.readByte(23)), "each string as its UTF-8 length (stop bit) and bytes, then the line");
        assertEquals(24, bytes.writePosition());
    }

    @Test
    void anotherDocumentIsNoTableRowAndAnUnknownTableIsRefused()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        new EventEncoder().wrap(bytes, false).eventId(1).eventTime(2).value(3).keyId(4);
        assertFalse(decoder.wrap(bytes));
        assertEquals(-1, TableRowDecoder.tableOf(bytes));
        bytes.clear();
        new TableRowEncoder(2, FX).wrap(bytes, false, 0).longColumn(2, 1).text("A").text("B");
        assertEquals(2, TableRowDecoder.tableOf(bytes));
        assertTrue(assertThrows(IllegalStateException.class, () -> decoder.wrap(bytes)).getMessage().contains("table 2 where 2 tables are known"));
    }
}
