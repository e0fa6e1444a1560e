package dev.weir.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * The byte parser of plain numbers that the parser's bytes reading uses: the values of the text a CSV field
 * holds, or -1 for a text it leaves to the text reading (which then gives the verdict).
 */
class PlainNumberTest
{
    private final PlainNumber number = new PlainNumber();

    @Test
    void decimalsAtTheirScale()
    {
        assertEquals(1230, decimal("12.3", 2));
        assertEquals(-1234, decimal("-12.34", 2));
        assertEquals(-50, decimal("-0.5", 2), "the sign is the text's, though the whole part is 0");
        assertEquals(-5, decimal("-0.05", 2));
        assertEquals(700, decimal("7", 2));
        assertEquals(7, decimal("7", 0));
        assertEquals(Long.MIN_VALUE, decimal("1.234", 2), "more fraction digits than the scale: not plain");
        assertEquals(Long.MIN_VALUE, decimal("1.", 2));
        assertEquals(Long.MIN_VALUE, decimal("-", 2));
        assertEquals(Long.MIN_VALUE, decimal("", 2));
        assertEquals(Long.MIN_VALUE, decimal("1234567890123456789", 0), "19 digits: left to the text reading");
        assertEquals(Long.MIN_VALUE, decimal("12345678901234567.8", 2), "17 + 2 digits: left to the text reading");
    }

    @Test
    void integers()
    {
        assertEquals(-42, integer("-42", true));
        assertEquals(Long.MIN_VALUE, integer("-42", false), "unsigned");
        assertEquals(123456789012345678L, integer("123456789012345678", true));
        assertEquals(Long.MIN_VALUE, integer("+1", true));
    }

    private long decimal(final String text, final int scale)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return number.decimal(bytes, 0, bytes.length, scale) == bytes.length ? number.value() : Long.MIN_VALUE;
    }

    private long integer(final String text, final boolean signed)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return number.integer(bytes, 0, bytes.length, signed) == bytes.length ? number.value() : Long.MIN_VALUE;
    }
}
