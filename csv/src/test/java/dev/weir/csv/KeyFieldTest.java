package dev.weir.csv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * The record key {@code weir produce} gives a line: one key field's text as it is, or several key fields' texts joined by
 * commas, quoted where they must be, a decimal at its column's scale: the record key {@link CsvRecordDecoder} accepts.
 */
class KeyFieldTest
{
    @Test
    void aKeyOfOneFieldIsItsTextAsItIs()
    {
        final KeyField card = new KeyField(2);
        assertArrayEquals(bytes("card-1"), card.of("1,1000,card-1,5"));
        assertArrayEquals(bytes("Shop, Inc."), card.of("1,1000,\"Shop, Inc.\",5"));
        assertArrayEquals(bytes("007"), new KeyField(3).of("1,1000,card-1,007"), "a long as it is written, as before");
        assertNull(card.of("1,1000"));
        assertNull(card.of(null));
    }

    @Test
    void aKeyOfSeveralFieldsIsTheirTextsJoinedByCommasAndADecimalIsAtItsScale()
    {
        final KeyField cardAndAmount = new KeyField(new int[] {2, 4}, new int[] {-1, 2});
        assertArrayEquals(bytes("card-1,12.50"), cardAndAmount.of("1,1000,card-1,m1,12.5"));
        assertArrayEquals(bytes("\"Shop, Inc.\",-0.05"), cardAndAmount.of("1,1000,\"Shop, Inc.\",m1,-0.05"));
        assertArrayEquals(bytes("\"Le \"\"Bon\"\"\",7.00"), cardAndAmount.of("1,1000,\"Le \"\"Bon\"\"\",m1,7"));
        assertArrayEquals(bytes("card-1,1.234"), cardAndAmount.of("1,1000,card-1,m1,1.234"), "not a decimal of scale 2: as it is");
        assertNull(cardAndAmount.of("1,1000,card-1,m1"), "too few fields");
        assertArrayEquals(bytes("12.50"), new KeyField(new int[] {4}, new int[] {2}).of("1,1000,card-1,m1,12.5"));
        assertThrows(IllegalArgumentException.class, () -> new KeyField(new int[] {2}, new int[0]));
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
