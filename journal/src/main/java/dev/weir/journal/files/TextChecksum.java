package dev.weir.journal.files;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The last line of Weir's checksummed text files ({@code output.history}, the delivery records):
 * {@code crc=} and the CRC-32C, in lower-case hex, of the UTF-8 bytes of every line before it. The two formats
 * differ in one thing, kept as it is: the delivery records pad the hex to 8 digits, the output history does not.
 * <p>
 * Public so the journal's other packages write and check these files; not a stable API. Stateless and thread-safe.
 */
public final class TextChecksum
{
    private TextChecksum()
    {
    }

    /**
     * @param body   the lines before the checksum line, each ending in {@code \n}.
     * @param padded whether the hex is zero-padded to 8 digits.
     * @return the file's bytes: the body, then its checksum line.
     */
    public static byte[] seal(final String body, final boolean padded)
    {
        return (body + "crc=" + of(body, padded) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param body   the lines before the checksum line, each ending in {@code \n}.
     * @param padded whether the hex is zero-padded to 8 digits.
     * @return the value of the checksum line for that body.
     */
    public static String of(final String body, final boolean padded)
    {
        final CRC32C crc = new CRC32C();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        return padded ? String.format("%08x", crc.getValue()) : Long.toHexString(crc.getValue());
    }
}
