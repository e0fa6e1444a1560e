package dev.weir.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The byte-level line rules: LF and CRLF ends, a BOM only at the start of the input, invalid UTF-8 per
 * line, a last line without its terminator, and the length bound.
 */
class InputLinesTest
{
    @Test
    void splitsLfAndCrlfDropsOnlyALeadingBomAndTellsAnUnterminatedLastLine() throws IOException
    {
        final byte[] bytes = concat(new byte[] {(byte)0xEF, (byte)0xBB, (byte)0xBF}, "a\r\nb\n\uFEFFc\r\n\nd\r".getBytes(StandardCharsets.UTF_8));
        final List<String> lines = new ArrayList<>();
        final List<Boolean> terminated = new ArrayList<>();
        final List<Long> lengths = new ArrayList<>();
        try (InputLines in = new InputLines(new ByteArrayInputStream(bytes)))
        {
            while (in.next())
            {
                lines.add(in.text());
                terminated.add(in.terminated());
                lengths.add(in.length());
            }
        }
        assertEquals(List.of(1L, 1L, 4L, 0L, 1L), lengths, "a CR ending a line is no part of it, terminated or not");
        assertEquals(List.of("a", "b", "\uFEFFc", "", "d"), lines);
        assertEquals(List.of(true, true, true, true, false), terminated);
    }

    @Test
    void aLineOfInvalidUtf8HasNoTextButIsShownAndTheNextLineReadsAndALongLineIsBounded() throws IOException
    {
        final byte[] bad = {'c', 'a', 'f', (byte)0xE9, '\n'};
        final byte[] longLine = ("x".repeat(InputLines.MAX_LINE_BYTES + 10) + "\r\nok\n").getBytes(StandardCharsets.UTF_8);
        try (InputLines in = new InputLines(new ByteArrayInputStream(concat(bad, longLine))))
        {
            assertTrue(in.next());
            assertNull(in.text());
            assertEquals("caf\uFFFD", in.shown(100));
            assertTrue(in.next());
            assertTrue(in.tooLong());
            assertEquals(InputLines.MAX_LINE_BYTES + 10, in.length());
            assertEquals("xxx", in.shown(3));
            assertTrue(in.next());
            assertFalse(in.tooLong());
            assertEquals("ok", in.text());
            assertFalse(in.next());
        }
    }

    private static byte[] concat(final byte[] a, final byte[] b)
    {
        final byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
