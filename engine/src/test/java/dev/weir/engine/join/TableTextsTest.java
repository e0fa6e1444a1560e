package dev.weir.engine.join;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Texts and key tuples are numbered densely in order of first use, looked up by content (any CharSequence), and
 * survive growth.
 */
class TableTextsTest
{
    @Test
    void textsAreNumberedInOrderOfFirstUseAndFoundByContent()
    {
        final TableTexts texts = new TableTexts();
        assertEquals(-1, texts.idOf("FR"));
        assertEquals(0, texts.intern("FR"));
        assertEquals(1, texts.intern(new StringBuilder("DE")));
        assertEquals(0, texts.intern(new StringBuilder("FR")));
        assertEquals(1, texts.idOf(new StringBuilder("DE")));
        assertEquals("DE", texts.text(1));
        for (int i = 0; i < 10_000; i++)
        {
            assertEquals(i + 2, texts.intern("card-" + i));
        }
        for (int i = 0; i < 10_000; i++)
        {
            assertEquals(i + 2, texts.idOf(new StringBuilder("card-").append(i)));
        }
        assertEquals(10_002, texts.size());
        assertEquals(10_002, texts.intern(""));
    }

    @Test
    void keyTuplesAreNumberedInOrderOfFirstUse()
    {
        final TableKeys keys = new TableKeys(2);
        assertEquals(-1, keys.indexOf(new long[] {1, 2}));
        for (int i = 0; i < 5_000; i++)
        {
            assertEquals(i, keys.intern(new long[] {i, -i}));
        }
        for (int i = 0; i < 5_000; i++)
        {
            assertEquals(i, keys.indexOf(new long[] {i, -i}));
            assertEquals(-i, keys.component(i, 1));
        }
        assertEquals(-1, keys.indexOf(new long[] {1, 1}));
        assertEquals(5_000, keys.size());
    }
}
