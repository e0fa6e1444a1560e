package dev.weir.files;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bytes of each key id's fields, encoded once per key id and kept: its CSV fields (quoted where they
 * need it) and its JSON fields ({@code ,"NAME":VALUE} per key column), as UTF-8, the text of
 * {@link ResultRow#csvKey} and {@link ResultRow#jsonKey}. A key id's text never changes (dictionaries only
 * grow), so the cache is never invalidated.
 * <p>
 * Not thread-safe: used by one writer thread, the one that may read the key text.
 */
final class KeyBytes
{
    private static final byte[][] NONE = new byte[0][];

    private final ResultRow format;
    private final StringBuilder text = new StringBuilder(64);
    private byte[][] csv = NONE;
    private byte[][] json = NONE;

    /**
     * @param format the rows' text, which reads the key text.
     */
    KeyBytes(final ResultRow format)
    {
        this.format = format;
    }

    /**
     * @param keyId a key id.
     * @return its CSV fields' bytes; not to be modified.
     */
    byte[] csv(final int keyId)
    {
        if (keyId >= 0 && keyId < csv.length && csv[keyId] != null)
        {
            return csv[keyId];
        }
        text.setLength(0);
        final byte[] bytes = format.csvKey(text, keyId).toString().getBytes(StandardCharsets.UTF_8);
        if (keyId >= 0)
        {
            csv = grown(csv, keyId);
            csv[keyId] = bytes;
        }
        return bytes;
    }

    /**
     * @param keyId a key id.
     * @return its JSON fields' bytes, each with its leading comma; not to be modified.
     */
    byte[] json(final int keyId)
    {
        if (keyId >= 0 && keyId < json.length && json[keyId] != null)
        {
            return json[keyId];
        }
        text.setLength(0);
        final byte[] bytes = format.jsonKey(text, keyId).toString().getBytes(StandardCharsets.UTF_8);
        if (keyId >= 0)
        {
            json = grown(json, keyId);
            json[keyId] = bytes;
        }
        return bytes;
    }

    private static byte[][] grown(final byte[][] cache, final int keyId)
    {
        return keyId < cache.length ? cache : Arrays.copyOf(cache, Math.max(keyId + 1, Math.max(1024, cache.length * 2)));
    }
}
