package dev.weir.journal.files;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.Checksum;

/**
 * The fields Weir's binary files and records share, each written and read here only: a length-prefixed UTF-8
 * text, the string-dictionaries block of {@code dictionaries.snapshot}, {@code history.base} and the Kafka
 * partition checkpoint, and the trailing checksum that ends each of them (CRC-32 in the journal's files,
 * CRC-32C in the Kafka record). All big-endian, as {@link DataOutputStream} writes them.
 * <p>
 * The dictionaries block: int32 number of string columns, then per column (in ascending column index) int32
 * column index, int32 number of entries, and per entry (in ascending id) int32 id, then the string as a text
 * field (int32 length + UTF-8).
 * <p>
 * Public so the Kafka connector writes the same block; not a stable API. Stateless and thread-safe.
 */
public final class BinaryFields
{
    private BinaryFields()
    {
    }

    /**
     * @param in a field stream.
     * @return the next text field: int32 length, then that many bytes of UTF-8.
     * @throws IOException if the length is negative or runs past the stream.
     */
    public static String readText(final DataInputStream in) throws IOException
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
    public static void writeText(final DataOutputStream out, final String s) throws IOException
    {
        final byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    /**
     * @param out          a field stream.
     * @param dictionaries column index to (id to string), written in their order.
     * @throws IOException if the stream fails.
     */
    public static void writeDictionaries(final DataOutputStream out, final SortedMap<Integer, ? extends SortedMap<Integer, String>> dictionaries)
        throws IOException
    {
        out.writeInt(dictionaries.size());
        for (final Map.Entry<Integer, ? extends SortedMap<Integer, String>> column : dictionaries.entrySet())
        {
            out.writeInt(column.getKey());
            out.writeInt(column.getValue().size());
            for (final Map.Entry<Integer, String> entry : column.getValue().entrySet())
            {
                out.writeInt(entry.getKey());
                writeText(out, entry.getValue());
            }
        }
    }

    /**
     * @param in         a field stream at a dictionaries block.
     * @param maxColumns the most columns a journal has ({@code JournalSchema.MAX_COLUMNS}).
     * @return column index to (id to string).
     * @throws IOException if the block is torn or a count is out of range (more columns than a journal has, or
     *                     more entries than the bytes left could hold).
     */
    public static TreeMap<Integer, TreeMap<Integer, String>> readDictionaries(final DataInputStream in, final int maxColumns) throws IOException
    {
        final TreeMap<Integer, TreeMap<Integer, String>> dictionaries = new TreeMap<>();
        final int columns = count(in, maxColumns);
        for (int c = 0; c < columns; c++)
        {
            final int column = in.readInt();
            final TreeMap<Integer, String> entries = new TreeMap<>();
            final int n = count(in, in.available() / 8);
            for (int e = 0; e < n; e++)
            {
                final int id = in.readInt();
                entries.put(id, readText(in));
            }
            dictionaries.put(column, entries);
        }
        return dictionaries;
    }

    /**
     * @param body     the bytes before the trailer.
     * @param checksum a fresh checksum of the format's kind.
     * @return {@code body}, then its checksum as int32 (the low 32 bits).
     */
    public static byte[] withTrailer(final byte[] body, final Checksum checksum)
    {
        checksum.update(body, 0, body.length);
        return ByteBuffer.allocate(body.length + Integer.BYTES).put(body).putInt((int)checksum.getValue()).array();
    }

    /**
     * @param bytes    a whole file or record as {@link #withTrailer} made it.
     * @param checksum a fresh checksum of the format's kind.
     * @return true if its last four bytes are the checksum of the bytes before them.
     */
    public static boolean trailerMatches(final byte[] bytes, final Checksum checksum)
    {
        if (bytes.length < Integer.BYTES)
        {
            return false;
        }
        checksum.update(bytes, 0, bytes.length - Integer.BYTES);
        return ByteBuffer.wrap(bytes, bytes.length - Integer.BYTES, Integer.BYTES).getInt() == (int)checksum.getValue();
    }

    /**
     * @param in   a field stream.
     * @param most the greatest count that can be right here.
     * @return the next int32, a count.
     * @throws IOException if it is negative or above {@code most}.
     */
    public static int count(final DataInputStream in, final int most) throws IOException
    {
        final int n = in.readInt();
        if (n < 0 || n > most)
        {
            throw new IOException("a count of " + n);
        }
        return n;
    }
}
