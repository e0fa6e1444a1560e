package dev.weir.journal;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32;

/**
 * The binary files a journal keeps beside its queues ({@code dictionaries.snapshot}, {@code history.base}):
 * big-endian fields with a trailing CRC-32 of every byte before it, written durably and atomically
 * ({@link FileReplacement}), and length-prefixed UTF-8 text fields inside them.
 * <p>
 * Stateless and thread-safe; one writer per file.
 */
final class ChecksummedFile
{
    private ChecksummedFile()
    {
    }

    /**
     * Replace a file with {@code body} and its CRC-32, forced to disk before this returns.
     *
     * @param file the file.
     * @param body its content before the trailer.
     * @throws IOException if it cannot be written; the previous file is then left as it was.
     */
    static void write(final Path file, final byte[] body) throws IOException
    {
        final CRC32 crc = new CRC32();
        crc.update(body);
        final byte[] all = ByteBuffer.allocate(body.length + Integer.BYTES).put(body).putInt((int)crc.getValue()).array();
        FileReplacement.replace(file, all, true);
    }

    /**
     * @param bytes a whole file as {@link #write} wrote it.
     * @return true if its trailer is the CRC-32 of the bytes before it.
     */
    static boolean checksumMatches(final byte[] bytes)
    {
        if (bytes.length < Integer.BYTES)
        {
            return false;
        }
        final CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - Integer.BYTES);
        return ByteBuffer.wrap(bytes, bytes.length - Integer.BYTES, Integer.BYTES).getInt() == (int)crc.getValue();
    }

    /**
     * @param in a field stream.
     * @return the next text field: int32 length, then that many bytes of UTF-8.
     * @throws IOException if the length is negative or runs past the stream.
     */
    static String readText(final DataInputStream in) throws IOException
    {
        final int length = in.readInt();
        if (length < 0 || length > in.available())
        {
            throw new IOException("a text of " + length + " bytes");
        }
        final byte[] b = new byte[length];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /**
     * @param out a field stream.
     * @param s   the text to write as int32 length, then its UTF-8 bytes.
     * @throws IOException if the stream fails.
     */
    static void writeText(final DataOutputStream out, final String s) throws IOException
    {
        final byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }
}
